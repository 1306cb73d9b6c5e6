import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FoundationEssentials

/// `focus log add PATH --start DATETIME (--end DATETIME | --duration DUR)`.
package struct LogAddCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Record a session you forgot to time.",
        discussion: """
            50 minutes from 09:00 on 22 November:
            `focus log add "Thesis/Chapter 2" --start "2026-11-22 09:00" --duration 50m`
            """)
    @Argument(help: ArgumentHelp("Task or Task/Subtask.", valueName: "path"), completion: Completions.paths) var path: String
    @Option(help: ArgumentHelp("When it started ('2026-11-20 09:00', 'yesterday 9am').", valueName: "datetime")) var start: String
    @Option(help: ArgumentHelp("When it ended (17:00, 'yesterday 5pm').", valueName: "datetime")) var end: String?
    @Option(help: ArgumentHelp("How long it lasted.", valueName: "duration")) var duration: String?
    @Flag(help: "Record it as interrupted (left early).") var interrupted = false
    @Option(help: ArgumentHelp("A note.", valueName: "text")) var note: String?
    @Option(name: .customLong("tag"), help: ArgumentHelp("File it under this tag (repeatable).", valueName: "name")) var tags: [String] = []
    @Flag(help: "Record it even if it ends after now.") var allowFuture = false
    @Flag(help: "Record it even if it lasts more than a day (up to 31 days: a forgotten timer).") var allowLong = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let tags = try SessionTags.names(self.tags)
        let (s, e) = try LogTimes.resolve(start: start, end: end, duration: duration, allowLong: allowLong, env: env)
        try SessionTimes.checkEnded(end: e, now: env.now(), calendar: env.calendar, allowFuture: allowFuture)
        let db = try env.openDatabase()
        let names = try db.catalog()
        let named = try names.resolve(path)
        let (target, seriesNote) = try SeriesTarget.resolve(named, shown: names.path(of: named), db: db, env: env, sessionAt: s)
        if let seriesNote { env.console.note(DisplayText(seriesNote)) }
        // A series' instance may be new: the catalog read again names it.
        let catalog = target == named ? names : try db.catalog()
        let seconds = Int(e.timeIntervalSince(s))
        let overlaps = try db.overlappingCount(s, e)
        let id: Int64
        do {
            id = try db.recordSession(TimeLog(taskID: target.taskID, subtaskID: target.subtaskID, startedAt: s, endedAt: e,
                                              plannedSeconds: seconds, focusedSeconds: seconds,
                                              status: interrupted ? .interrupted : .completed, note: note, tags: tags),
                                       now: env.now())
        } catch FocusError.duplicateSession {
            throw FocusError.duplicateSession(path: DisplayText(shown: catalog.path(of: target)).string, start: SessionTimes.local(s, env.calendar))
        }
        if overlaps > 0 { env.console.note("warning: this overlaps \(overlaps) recorded session\(overlaps == 1 ? "" : "s").") }
        env.console.line("Recorded #\(id): \(shown: catalog.path(of: target)) \(RelativeTime.moment(s, calendar: env.calendar, now: env.now())), \(DurationParser.format(seconds))\(interrupted ? " (interrupted)" : "")\(SessionRenderer.tagText(tags)).")
    }
}

/// Start and end of a manual entry from the flags.
private enum LogTimes {
    static func resolve(start: String, end: String?, duration: String?, allowLong: Bool, env: FocusEnvironment) throws(FocusError) -> (Date, Date) {
        let s = DateParser.resolve(try DateParser.moment(start, today: env.today, what: "start"), in: env.calendar, warn: { env.console.note(DisplayText($0)) })
        let e: Date
        switch (end, duration) {
        case let (end?, nil):
            e = DateParser.resolve(try DateParser.dateTime(end, today: env.today, what: "end"), in: env.calendar, warn: { env.console.note(DisplayText($0)) })
        case let (nil, d?):
            e = s.addingTimeInterval(Double(try DurationParser.seconds(d)))
        default:
            throw .usage("give the end of the session with either --end or --duration.")
        }
        try SessionTimes.checkLength(s, e, endText: end ?? duration.map { "start + \($0)" }, allowLong: allowLong, calendar: env.calendar)
        return (s, e)
    }
}
