import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FoundationEssentials

/// `focus log rm ID`, or `focus log rm --subtask PATH --all [--force]`.
package struct LogRmCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Delete a recorded session, or every session of a subtask or task.",
        discussion: """
            Delete session #12:
            `focus log rm 12`
            Delete every session of a subtask (a task's path: of the task and its subtasks) in one \
            transaction, after asking on a terminal; --force deletes without asking (needed without \
            a terminal):
            `focus log rm --subtask "Thesis/Chapter 2" --all --force`
            Refused while a running session records that work. Before it deletes, today's daily \
            backup is made if it is not there yet, so a restore can bring the sessions back.
            """)
    @Argument(help: ArgumentHelp("The session id (see `focus log`).", valueName: "id"), completion: Completions.sessionIDs) var id: Int64?
    @Option(help: ArgumentHelp("With --all: the subtask (or task) whose sessions to delete; the whole name or #ID.", valueName: "path"), completion: Completions.paths)
    var subtask: String?
    @Flag(help: "Delete every session of --subtask PATH.") var all = false
    @Flag(help: "With --all: do not ask first.") var force = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        switch (id, subtask, all) {
        case let (id?, nil, false):
            if force { throw FocusError.usage("--force goes with --subtask PATH --all; deleting one session never asks.") }
            let db = try env.openDatabase()
            guard let entry = try db.session(id: id) else { throw FocusError.noSuchLog(id: id) }
            try db.removeSession(id: id)
            env.console.line("Deleted \(SessionRenderer.line(entry, calendar: env.calendar))")
        case let (nil, path?, true):
            try removeAll(path, env: env)
        case (_?, _?, _), (_?, _, true):
            throw FocusError.usage("give either a session ID or --subtask PATH --all, not both.")
        case let (nil, path?, false):
            throw FocusError.usage("to delete every session of '\(path)', add --all (or give one session's ID: see `focus log`).")
        case (nil, nil, _):
            throw FocusError.usage("give the session ID to delete (see `focus log`), or --subtask PATH --all to delete every session of a subtask.")
        }
    }

    private func removeAll(_ path: String, env: FocusEnvironment) throws {
        let db = try env.openDatabase()
        let catalog = try db.catalog()
        let target = try catalog.resolveWhole(path, toDelete: "its sessions")
        let shown = DisplayText(catalog.path(of: target)).string
        let page = try db.sessions(of: target, limit: 0)
        guard page.count > 0 else {
            env.console.line("No sessions recorded for \(shown); nothing deleted.")
            return
        }
        // Said before asking: a yes would be refused anyway.
        try db.refuseIfRecording(target, isRunning: { SessionLock.owner(database: db.path).isRunning })
        let what = "\(page.count) session\(page.count == 1 ? "" : "s") of \(shown) (\(DurationParser.format(page.focusedSeconds)))"
        if !force {
            guard let ask = env.ask else {
                throw FocusError.usage("not deleting \(what) without asking, and there is no terminal to ask at; add --force to delete them.")
            }
            guard ask("Delete \(what)? [y/N]") else {
                env.console.line("Nothing deleted.")
                return
            }
        }
        // The sessions stay in a backup whatever the day's first write was (README: Backups).
        db.backUpBeforeDeleting()
        let removed = try db.removeSessions(of: target, isRunning: { SessionLock.owner(database: db.path).isRunning })
        env.console.line("Deleted \(removed.count) session\(removed.count == 1 ? "" : "s") of \(shown) (\(DurationParser.format(removed.focusedSeconds))).")
    }
}
