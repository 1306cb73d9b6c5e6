import ArgumentParser
import FocusCore
import FocusStorage

/// `focus task done PATH [--undo]`.
package struct TaskDoneCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark a subtask done, or archive a task (hidden from lists, history kept).")

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"), completion: Completions.paths)
    var path: String
    @Flag(help: "Reopen it instead.")
    var undo = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let work = try NamedWork.open(path, in: env)
        let db = work.db
        let shown = Sanitized.terminal(work.shown)
        switch work.target {
        case .task:
            var task = try work.task()
            task.archived = !undo
            try db.updateTask(task)
            env.console.line(undo ? "Reopened task \(shown)." : "Archived task \(shown); its history stays in stats. `focus task done \(Quoted.shell(shown)) --undo` reopens it.")
        case let .subtask(_, id):
            guard var subtask = try work.subtask() else { return }
            subtask.done = !undo
            try db.updateSubtask(subtask)
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
