import FocusRendering
import FocusServices
import FocusText
import ArgumentParser
import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials
import Glibc

/// `focus calendar import FILE.ics [--name NAME] [--strict]`.
package struct CalendarImportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import an .ics file as busy time (re-importing a name replaces it).",
        discussion: """
            The whole file is read first (at most 32 MB). An event that does not parse is dropped with \
            a warning naming its line, UID and summary, and the rest is imported; with --strict the \
            whole file is refused instead. A file that is not iCalendar, or whose every event is \
            broken, is refused. The name defaults to the file's X-WR-CALNAME, else its base name.
            """)

    @Argument(help: ArgumentHelp("An iCalendar file.", valueName: "file.ics"), completion: .file(extensions: ["ics", "ical", "ifb", "icalendar"]))
    var file: String
    @Option(help: ArgumentHelp("The calendar's name (default: the name inside the file, else the file name).", valueName: "name"))
    var name: String?
    @Flag(help: "Refuse the whole file when any event does not parse (nothing is stored).")
    var strict = false
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let progress = ProgressTicker("Reading the calendar", quiet: quiet, environment: env.environment)
        defer { progress.finish() }
        let data = try CalendarFile.read(file)
        progress.phase("Reading its events")
        let now = env.now()
        let horizon = DateInterval(start: now.addingTimeInterval(-Double(CalendarFile.daysBack * 86_400)),
                                   end: now.addingTimeInterval(Double(CalendarFile.daysAhead * 86_400)))
        // The parsed document is the largest thing an import holds: it lives only inside this
        // call, so its memory is given back before the occurrences are written.
        // The person's addresses include those of connected accounts, stored in the database
        // (when there is one: a first import creates it only once the file has been read).
        let existing = env.databaseExists() ? try env.openDatabase() : nil
        var declined: [(start: Date, end: Date, summary: String)] = []
        let (calendarName, events, occurrences) = try CalendarFile.expand(data, file: file, name: name, horizon: horizon, local: env.calendar,
                                                                  strict: strict, attendance: .current(env.services, existing),
                                                                  declined: { declined = $0.map { ($0.start, $0.end, $0.summary) } },
                                                                  warn: { progress.clear(); env.console.note(DisplayText($0)) })
        progress.phase("Storing \(ProgressLine.grouped(occurrences.count)) busy times")
        let source = URL(fileURLWithPath: file).standardizedFileURL.path
        let db = try existing ?? env.openDatabase()
        let replaced = try db.importCalendar(
            CalendarImport(name: calendarName, source: source, content: data,
                           timeZone: env.calendar.identifier, horizon: horizon, eventCount: events, importedAt: now),
            occurrences: occurrences, occurrence: { ($0.start, $0.end, $0.summary, $0.allDay, $0.uid) })
        try db.replaceDeclined(calendarNamed: calendarName, declined)
        progress.phase("Planning again")
        let outcome = Planning.replanIfStale(env.services, db)
        progress.finish()
        var line: DisplayText = "\(replaced ? "Replaced" : "Imported") calendar \(calendarName): \(events) event\(events == 1 ? "" : "s"), "
        line += "\(occurrences.count) busy time\(occurrences.count == 1 ? "" : "s") stored from \(env.calendar.day(of: horizon.start)) to \(env.calendar.day(of: horizon.end))."
        if let outcome, !outcome.result.items.isEmpty {
            line += " \(PlanRenderer.summary(outcome))"
        }
        env.console.line(line)
    }
}
