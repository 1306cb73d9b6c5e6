import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage

/// `focus task show PATH [--json]`.
package struct TaskShowCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a task or subtask in detail, with its blocks and sessions.",
        discussion: """
            Lists the planned blocks (upcoming ones soonest first, then earlier ones latest first, \
            \(TaskRenderer.shownBlocks) of each at most) and the sessions, newest first (the \
            newest \(TaskRenderer.shownSessions), and how many more there are); for a task, those \
            of all its subtasks. --json gives all of them: "blocks" by start (as `focus plan \
            --json`) and "sessions" newest first (as `focus log --json`).
            """)

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"), completion: Completions.paths)
    var path: String
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let target = try db.catalog().resolve(path)
        let now = env.now()
        // Recurring work shows each series once, as its current instance (README, "Planning").
        guard let overview = RecurringWork.fold(tasks: try db.overview(all: true, only: target.taskID), now: now, calendar: env.calendar).first else {
            throw FocusError.notFound(path: path, suggestions: [])
        }
        let blocks = try db.blocks(of: target)
        // The text shows the newest sessions and counts the rest; JSON has them all.
        let sessions = try db.sessions(of: target, limit: json ? nil : TaskRenderer.shownSessions)
        let renderer = TaskRenderer(now: now, calendar: env.calendar, width: env.console.width, color: env.console.allowsColor,
                                    defaultSpanSeconds: env.config.workSeconds)
        if let sid = target.subtaskID, let sub = overview.subtasks.first(where: { $0.subtask.id == sid }) {
            if json {
                env.console.line(TaskRenderer.showJSON(subtask: sub, of: overview.task, blocks: blocks, sessions: sessions, calendar: env.calendar, now: now))
            } else {
                env.console.show(renderer.show(subtask: sub, of: overview.task, blocks: blocks, sessions: sessions))
            }
            return
        }
        if json {
            env.console.line(TaskRenderer.showJSON(task: overview, blocks: blocks, sessions: sessions, calendar: env.calendar, now: now))
        } else {
            env.console.show(renderer.show(task: overview, blocks: blocks, sessions: sessions))
        }
    }
}
