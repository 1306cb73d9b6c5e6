import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// `focus log ...`: the time log.
package struct LogCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "log", abstract: "List, add, edit and remove recorded sessions.",
        subcommands: [LogListCommand.self, LogAddCommand.self, LogEditCommand.self, LogRmCommand.self],
        defaultSubcommand: LogListCommand.self)
    package init() {}

    static func json(_ e: SessionEntry) -> JSON {
        .object([
            ("id", .optional(e.log.id)),
            ("task", .string(e.task)),
            ("subtask", .optional(e.subtask)),
            ("start", .string(Timestamp.utc(e.log.startedAt))),
            ("end", .string(Timestamp.utc(e.log.endedAt))),
            ("focused_seconds", .int(e.log.focusedSeconds)),
            ("planned_seconds", .int(e.log.plannedSeconds)),
            ("status", .string(e.log.status.rawValue)),
            ("block_id", .optional(e.log.blockID)),
            ("note", .optional(e.log.note)),
        ])
    }

    /// `#12  09:00–09:25  25m  ✓  Thesis/Chapter 2  "note"`.
    static func line(_ e: SessionEntry, calendar: LocalCalendar) -> String {
        let mark = e.log.status == .completed ? "✓" : "✗"
        let from = calendar.timeOfDay(of: e.log.startedAt)
        var to = "\(calendar.timeOfDay(of: e.log.endedAt))"
        // A session longer than a day (a forgotten timer) says on which later day it ended.
        if e.log.endedAt.timeIntervalSince(e.log.startedAt) > Double(SessionRecord.dayLengthSeconds) {
            to += " (+\(calendar.day(of: e.log.endedAt).dayNumber - calendar.day(of: e.log.startedAt).dayNumber)d)"
        }
        var s = "#\(e.log.id ?? 0)  \(from)–\(to)  \(TerminalText.pad(DurationParser.format(e.log.focusedSeconds), 7)) \(mark)  \(Sanitized.shown(e.path))"
        if let note = e.log.note { s += "  “\(Sanitized.shown(note))”" }
        return s
    }
}

package struct LogListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "list", abstract: "List recent sessions, newest first.")
    @Option(help: ArgumentHelp("How many local days back, today included.", valueName: "n")) var last: Int = 7
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        guard last >= 1, last <= WindowOptions.maximumDays else {
            throw FocusError.invalidValue(what: "--last", value: String(last), expected: "a number of days from 1 to \(WindowOptions.maximumDays)")
        }
        let db = try env.openDatabase()
        let today = env.today
        let from = env.calendar.startOfDay(today.adding(days: -(last - 1)))
        let to = env.calendar.startOfDay(today.adding(days: 1))
        let entries = try db.sessions(overlapping: from, to).filter { $0.log.startedAt >= from }.reversed()
        if json {
            env.console.line(JSON.array(entries.map(LogCommand.json)).rendered())
            return
        }
        if entries.isEmpty {
            env.console.line("No sessions in the last \(last) day\(last == 1 ? "" : "s"). Start one with `focus start \"Thesis/Chapter 2\"`.")
            return
        }
        env.console.out(LogListCommand.text(Array(entries), calendar: env.calendar))
    }

    /// Sessions (newest first) under one heading per local day with its total: two passes over
    /// the entries, one for the totals and one for the lines, whatever the number of days.
    static func text(_ entries: [SessionEntry], calendar: LocalCalendar) -> String {
        let days = entries.map { calendar.day(of: $0.log.startedAt) }
        var totals: [LocalDate: Int] = [:]
        for (e, day) in zip(entries, days) { totals[day, default: 0] += e.log.focusedSeconds }
        var out = ""
        var currentDay: LocalDate?
        for (e, day) in zip(entries, days) {
            if day != currentDay {
                let total = totals[day] ?? 0
                if currentDay != nil { out += "\n" }
                out += "\(RelativeTime.shortDay(day)) \(day.year)  ·  \(DurationParser.format(total))\n"
                currentDay = day
            }
            out += "  " + LogCommand.line(e, calendar: calendar) + "\n"
        }
        return out
    }
}

/// Start and end of a manual entry from the flags.
struct LogTimes {
    static func resolve(start: String, end: String?, duration: String?, allowLong: Bool, env: FocusEnvironment) throws(FocusError) -> (Date, Date) {
        let s = DateParser.resolve(try DateParser.dateTime(start, today: env.today, what: "start"), in: env.calendar, warn: env.console.note)
        let e: Date
        switch (end, duration) {
        case let (end?, nil):
            e = DateParser.resolve(try DateParser.dateTime(end, today: env.today, what: "end"), in: env.calendar, warn: env.console.note)
        case let (nil, d?):
            e = s.addingTimeInterval(Double(try DurationParser.seconds(d)))
        default:
            throw .usage("give the end of the session with either --end or --duration.")
        }
        try check(s, e, endText: end ?? duration.map { "start + \($0)" }, allowLong: allowLong, calendar: env.calendar)
        return (s, e)
    }

    /// The end after the start; the length at most a day, or with `allowLong` (`--allow-long`: a
    /// forgotten timer, README "Sessions longer than a day") at most 31 days. Values echoed as the
    /// person wrote them (`endText`) or as local wall-clock time, never converted to UTC.
    static func check(_ s: Date, _ e: Date, endText: String?, allowLong: Bool, keepsLength: Bool = false, calendar: LocalCalendar) throws(FocusError) {
        guard e > s else {
            throw .invalidValue(what: "end", value: endText ?? SessionTimes.local(e, calendar), expected: "a time after the start (\(SessionTimes.local(s, calendar)))")
        }
        // A length kept as it was (a move, a new note) was accepted when it was recorded.
        if keepsLength { return }
        let length = e.timeIntervalSince(s)
        let shown = length < 1e12 ? DurationParser.format(Int(length)) : "more than a century"
        guard length <= Double(SessionRecord.maximumLengthSeconds) else {
            throw .invalidValue(what: "session length", value: shown, expected: "at most 31 days; check the start and end")
        }
        guard allowLong || length <= Double(SessionRecord.dayLengthSeconds) else {
            throw .usage("the session would last \(shown), more than a day. If a timer ran on (a forgotten timer), pass --allow-long to record it as one session; otherwise check the start and end.")
        }
    }
}

package struct LogAddCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Record a session you forgot to time.",
        discussion: """
            50 minutes from 09:00 on 22 November:
            `focus log add "Thesis/Chapter 2" --start "2026-11-22 09:00" --duration 50m`
            """)
    @Argument(help: ArgumentHelp("Task or Task/Subtask.", valueName: "path"), completion: Completions.paths) var path: String
    @Option(help: ArgumentHelp("When it started.", valueName: "datetime")) var start: String
    @Option(help: ArgumentHelp("When it ended.", valueName: "datetime")) var end: String?
    @Option(help: ArgumentHelp("How long it lasted.", valueName: "duration")) var duration: String?
    @Flag(help: "Record it as interrupted (left early).") var interrupted = false
    @Option(help: ArgumentHelp("A note.", valueName: "text")) var note: String?
    @Flag(help: "Record it even if it ends after now.") var allowFuture = false
    @Flag(help: "Record it even if it lasts more than a day (up to 31 days: a forgotten timer).") var allowLong = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let (s, e) = try LogTimes.resolve(start: start, end: end, duration: duration, allowLong: allowLong, env: env)
        try SessionTimes.checkEnded(end: e, now: env.now(), calendar: env.calendar, allowFuture: allowFuture)
        let db = try env.openDatabase()
        let catalog = try db.catalog()
        let target = try catalog.resolve(path)
        let seconds = Int(e.timeIntervalSince(s))
        let overlaps = try db.overlappingCount(s, e)
        let id: Int64
        do {
            id = try db.recordSession(TimeLog(taskID: target.taskID, subtaskID: target.subtaskID, startedAt: s, endedAt: e,
                                              plannedSeconds: seconds, focusedSeconds: seconds,
                                              status: interrupted ? .interrupted : .completed, note: note), now: env.now())
        } catch FocusError.duplicateSession {
            throw FocusError.duplicateSession(path: Sanitized.shown(catalog.path(of: target)), start: SessionTimes.local(s, env.calendar))
        }
        if overlaps > 0 { env.console.note("warning: this overlaps \(overlaps) recorded session\(overlaps == 1 ? "" : "s").") }
        env.console.line("Recorded #\(id): \(Sanitized.shown(catalog.path(of: target))) \(env.calendar.wallClockText(s)), \(DurationParser.format(seconds))\(interrupted ? " (interrupted)" : "").")
    }
}

package struct LogEditCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a recorded session.")
    @Argument(help: ArgumentHelp("The session id (see `focus log`).", valueName: "id"), completion: Completions.sessionIDs) var id: Int64
    @Option(help: ArgumentHelp("Move it to another task or subtask.", valueName: "path"), completion: Completions.paths) var task: String?
    @Option(help: ArgumentHelp("New start.", valueName: "datetime")) var start: String?
    @Option(help: ArgumentHelp("New end.", valueName: "datetime")) var end: String?
    @Option(help: ArgumentHelp("New length (from the start).", valueName: "duration")) var duration: String?
    @Option(help: ArgumentHelp("New focused time (pauses excluded).", valueName: "duration")) var focused: String?
    @Option(help: ArgumentHelp("completed or interrupted.", valueName: "status")) var status: String?
    @Option(help: ArgumentHelp("A note (empty to clear).", valueName: "text")) var note: String?
    @Flag(help: "Allow new times that end after now.") var allowFuture = false
    @Flag(help: "Allow a new length of more than a day (up to 31 days: a forgotten timer).") var allowLong = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        guard var entry = try db.session(id: id) else { throw FocusError.noSuchLog(id: id) }
        var log = entry.log
        if let task {
            let target = try db.catalog().resolve(task)
            log.taskID = target.taskID
            log.subtaskID = target.subtaskID
        }
        let oldLength = log.endedAt.timeIntervalSince(log.startedAt)
        if let start { log.startedAt = DateParser.resolve(try DateParser.dateTime(start, today: env.today, what: "start"), in: env.calendar, warn: env.console.note) }
        if let end { log.endedAt = DateParser.resolve(try DateParser.dateTime(end, today: env.today, what: "end"), in: env.calendar, warn: env.console.note) }
        if let duration { log.endedAt = log.startedAt.addingTimeInterval(Double(try DurationParser.seconds(duration))) }
        if start != nil, end == nil, duration == nil { log.endedAt = log.startedAt.addingTimeInterval(oldLength) }
        let sameLength = log.endedAt.timeIntervalSince(log.startedAt) == oldLength
        try LogTimes.check(log.startedAt, log.endedAt, endText: end ?? duration.map { "start + \($0)" },
                           allowLong: allowLong, keepsLength: sameLength, calendar: env.calendar)
        if start != nil || end != nil || duration != nil {
            try SessionTimes.checkEnded(end: log.endedAt, now: env.now(), calendar: env.calendar, allowFuture: allowFuture)
        }
        let length = Int(log.endedAt.timeIntervalSince(log.startedAt))
        if let focused {
            let f = try DurationParser.seconds(focused, what: "focused time")
            guard f <= length else { throw FocusError.invalidValue(what: "focused time", value: focused, expected: "at most the session's length (\(DurationParser.format(length)))") }
            log.focusedSeconds = f
        } else {
            log.focusedSeconds = min(log.focusedSeconds == Int(oldLength) ? length : log.focusedSeconds, length)
        }
        if let status {
            guard let s = SessionStatus(rawValue: status.lowercased()) else {
                throw FocusError.invalidValue(what: "status", value: status, expected: "completed or interrupted")
            }
            log.status = s
        }
        if let note { log.note = note.isEmpty ? nil : note }
        let moved = log.startedAt != entry.log.startedAt || log.endedAt != entry.log.endedAt
        var overlaps = 0
        if moved { overlaps = try db.overlappingCount(log.startedAt, log.endedAt, excluding: id) }
        try LogEditCommand.update(log, in: db, calendar: env.calendar)
        // The same warning as `log add`: an edit that makes sessions overlap is kept, and said.
        if overlaps > 0 { env.console.note("warning: this overlaps \(overlaps) recorded session\(overlaps == 1 ? "" : "s").") }
        entry = try db.session(id: id) ?? entry
        env.console.line("Updated " + LogCommand.line(entry, calendar: env.calendar))
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
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        switch (id, subtask, all) {
        case let (id?, nil, false):
            if force { throw FocusError.usage("--force goes with --subtask PATH --all; deleting one session never asks.") }
            let db = try env.openDatabase()
            guard let entry = try db.session(id: id) else { throw FocusError.noSuchLog(id: id) }
            try db.removeSession(id: id)
            env.console.line("Deleted " + LogCommand.line(entry, calendar: env.calendar))
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
        let shown = Sanitized.terminal(catalog.path(of: target))
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
