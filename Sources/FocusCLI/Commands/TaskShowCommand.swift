import ArgumentParser
import FocusCore

/// `focus task show PATH [--json]`.
package struct TaskShowCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a task or subtask in detail.")

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"), completion: Completions.paths)
    var path: String
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let target = try db.catalog().resolve(path)
        guard let overview = try db.overview(all: true, only: target.taskID).first else {
            throw FocusError.notFound(path: path, suggestions: [])
        }
        let renderer = TaskRenderer(now: env.now(), calendar: env.calendar, width: env.console.width, color: env.console.allowsColor,
                                    defaultSpanSeconds: env.config.workSeconds)
        if let sid = target.subtaskID, let sub = overview.subtasks.first(where: { $0.subtask.id == sid }) {
            let recent = try db.recentSessions(limit: 5, subtaskID: sid)
            if json {
                var obj = TaskRenderer.subtaskJSON(sub, calendar: env.calendar, now: env.now())
                if case var .object(pairs) = obj {
                    pairs.insert(("task", .string(overview.task.title)), at: 1)
                    pairs.append(("notes", .optional(sub.subtask.notes)))
                    obj = .object(pairs)
                }
                env.console.line(obj.rendered())
            } else {
                env.console.out(renderer.show(subtask: sub, of: overview.task, recent: recent))
            }
            return
        }
        if json {
            env.console.line(TaskRenderer.json(overview, calendar: env.calendar, now: env.now()).rendered())
        } else {
            env.console.out(renderer.show(task: overview))
        }
    }
}
