import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// `focus log edit ID ...`: the rules of an edit are `SessionEdit`'s (FocusCore).
package struct LogEditCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a recorded session.")
    @Argument(help: ArgumentHelp("The session id (see `focus log`).", valueName: "id"), completion: Completions.sessionIDs) var id: Int64
    @Option(help: ArgumentHelp("Move it to another task or subtask.", valueName: "path"), completion: Completions.paths) var task: String?
    @Option(help: ArgumentHelp("New start ('2026-11-20 09:00', 9:30, 'yesterday 9am').", valueName: "datetime")) var start: String?
    @Option(help: ArgumentHelp("New end.", valueName: "datetime")) var end: String?
    @Option(help: ArgumentHelp("New length (from the start).", valueName: "duration")) var duration: String?
    @Option(help: ArgumentHelp("New focused time (pauses excluded).", valueName: "duration")) var focused: String?
    @Option(help: ArgumentHelp("completed, interrupted or open.", valueName: "status")) var status: String?
    @Option(help: ArgumentHelp("A note (empty to clear).", valueName: "text")) var note: String?
    @Option(name: .customLong("tag"), help: ArgumentHelp("Add this tag (repeatable).", valueName: "name")) var tags: [String] = []
    @Option(name: .customLong("untag"), help: ArgumentHelp("Remove this tag (repeatable).", valueName: "name")) var untags: [String] = []
    @Flag(help: "Allow new times that end after now.") var allowFuture = false
    @Flag(help: "Allow a new length of more than a day (up to 31 days: a forgotten timer).") var allowLong = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let added = try SessionTags.names(tags)
        let db = try env.openDatabase()
        guard var entry = try db.session(id: id) else { throw FocusError.noSuchLog(id: id) }
        var edit = SessionEdit()
        if let task {
            // Moved to a series of recurring work, a session goes to its current instance.
            let catalog = try db.catalog(), named = try catalog.resolve(task)
            edit.target = try SeriesTarget.resolve(named, shown: catalog.path(of: named), db: db, env: env)
        }
        if let start { edit.start = DateParser.resolve(try DateParser.dateTime(start, today: env.today, what: "start"), in: env.calendar, warn: { env.console.note(DisplayText($0)) }) }
        if let end { edit.end = DateParser.resolve(try DateParser.dateTime(end, today: env.today, what: "end"), in: env.calendar, warn: { env.console.note(DisplayText($0)) }) }
        if let duration { edit.lengthSeconds = try DurationParser.seconds(duration) }
        if let focused { edit.focused = (try DurationParser.seconds(focused, what: "focused time"), focused) }
        if let status {
            guard let s = SessionStatus(rawValue: status.lowercased()) else {
                throw FocusError.invalidValue(what: "status", value: status, expected: "completed, interrupted or open")
            }
            edit.status = s
        }
        edit.note = note
        edit.endText = end ?? duration.map { "start + \($0)" }
        edit.allowLong = allowLong
        edit.allowFuture = allowFuture
        var log = try edit.applied(to: entry.log, now: env.now(), calendar: env.calendar)
        log.tags = try SessionTags.bounded(SessionTags.edited(log.tags, adding: added, removing: untags))
        let moved = log.startedAt != entry.log.startedAt || log.endedAt != entry.log.endedAt
        let overlaps = moved ? try db.overlappingCount(log.startedAt, log.endedAt, excluding: id) : 0
        try LogEditCommand.update(log, in: db, calendar: env.calendar)
        // The same warning as `log add`: an edit that makes sessions overlap is kept, and said.
        if overlaps > 0 { env.console.note("warning: this overlaps \(overlaps) recorded session\(overlaps == 1 ? "" : "s").") }
        entry = try db.session(id: id) ?? entry
        env.console.line("Updated \(SessionRenderer.line(entry, calendar: env.calendar))")
    }
}

extension LogEditCommand {
    /// Writes the edit; a clash with another session of the same task and start is said with both.
    static func update(_ log: TimeLog, in db: AppDatabase, calendar: LocalCalendar) throws(FocusError) {
        do {
            try db.updateSession(log)
        } catch .duplicateSession {
            let target: PathTarget = log.subtaskID.map { .subtask(taskID: log.taskID, id: $0) } ?? .task(id: log.taskID)
            let path = (try? db.path(taskID: target.taskID, subtaskID: target.subtaskID)) ?? "that task"
            throw .duplicateSession(path: path, start: SessionTimes.local(log.startedAt, calendar))
        } catch {
            throw error
        }
    }
}
