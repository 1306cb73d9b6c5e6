import ArgumentParser
import FocusCore

/// `focus task done PATH [--undo]`.
package struct TaskDoneCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark a subtask done, or archive a task (hidden from lists, history kept).")

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"))
    var path: String
    @Flag(help: "Reopen it instead.")
    var undo = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let catalog = try db.catalog()
        let target = try catalog.resolve(path)
        let shown = Sanitized.terminal(catalog.path(of: target))
        switch target {
        case let .task(id):
            guard var task = try db.task(id: id) else { throw FocusError.notFound(path: path, suggestions: []) }
            task.archived = !undo
            try db.updateTask(task)
            Planning.replanQuietly(env, db)
            env.console.line(undo ? "Reopened task \(shown)." : "Archived task \(shown); its history stays in stats. `focus task done \(Quoted.shell(shown)) --undo` reopens it.")
        case let .subtask(_, id):
            guard var subtask = try db.subtask(id: id) else { throw FocusError.notFound(path: path, suggestions: []) }
            subtask.done = !undo
            try db.updateSubtask(subtask)
            Planning.replanQuietly(env, db)
            if undo {
                env.console.line("Reopened \(shown).")
            } else {
                let logged = try db.overview(all: true, only: subtask.taskID).first?.subtasks.first { $0.subtask.id == id }?.loggedSeconds ?? 0
                var line = "Done: \(shown) · \(DurationParser.format(logged)) logged"
                if let e = subtask.estimateSeconds { line += " of \(DurationParser.format(e)) estimated" }
                env.console.line(line + ".")
            }
        }
    }
}
