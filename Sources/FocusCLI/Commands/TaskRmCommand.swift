import FocusText
import ArgumentParser
import FocusCore
import FocusStorage

/// `focus task rm PATH [--force]`.
package struct TaskRmCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a task or subtask (with --force when it has logged sessions).")

    @Argument(help: ArgumentHelp("Task, Task/Subtask, or #ID (exact name; prefixes are not enough to delete).", valueName: "path"), completion: Completions.paths)
    var path: String
    @Flag(help: "Delete it with its logged sessions.")
    var force = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let catalog = try db.catalog()
        // Deleting by a mere prefix is too easy to get wrong: the whole name (or #ID) is needed.
        let target = try catalog.resolveWhole(path)
        let shown = catalog.path(of: target)
        if case let .subtask(taskID, id) = target, try db.isStandIn(subtaskID: id) {
            throw StandInEdits.removing(path: shown, task: catalog.path(of: .task(id: taskID)))
        }
        let sessions = try db.sessionCount(target)
        if sessions > 0, !force { throw FocusError.hasHistory(path: shown, sessions: sessions) }
        // Never from under a running session: its record would then fail, and status say idle.
        if let (session, owner) = try db.remove(target, isRunning: { SessionLock.owner(database: db.path) }) {
            let running = DisplayText((try? db.path(taskID: session.taskID, subtaskID: session.subtaskID)) ?? shown).string
            let pid = owner.provenPID.map { " (pid \($0))" } ?? ""
            throw FocusError.unavailable("the running session on \(running)\(pid) records into '\(DisplayText(shown).string)'; nothing was deleted. Stop it with `focus stop` first, then delete it.")
        }
        let what = sessions > 0 ? " and its \(sessions) session\(sessions == 1 ? "" : "s")" : ""
        env.console.line("Deleted \(shown)\(what).")
    }
}
