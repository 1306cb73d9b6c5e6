import FocusRendering
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

    /// Occurrences are stored for this window around the import; outside it (and in another
    /// zone) busy time is expanded from the stored file.
    /// (The import budget, 1 s for 20,000 events, allows about 60k stored rows.)
    static let daysBack = 14
    static let daysAhead = 180

    package func run(in env: FocusEnvironment) async throws {
        let progress = ProgressTicker("Reading the calendar", quiet: quiet, environment: env.environment)
        defer { progress.finish() }
        let data = try Self.read(file)
        progress.phase("Reading its events")
        let now = env.now()
        let horizon = DateInterval(start: now.addingTimeInterval(-Double(Self.daysBack * 86_400)),
                                   end: now.addingTimeInterval(Double(Self.daysAhead * 86_400)))
        // The parsed document is the largest thing an import holds: it lives only inside this
        // call, so its memory is given back before the occurrences are written.
        // The person's addresses include those of connected accounts, stored in the database
        // (when there is one: a first import creates it only once the file has been read).
        let existing = env.databaseExists() ? try env.openDatabase() : nil
        var declined: [(start: Date, end: Date, summary: String)] = []
        let (calendarName, events, occurrences) = try Self.expand(data, file: file, name: name, horizon: horizon, local: env.calendar,
                                                                  strict: strict, attendance: .current(env, existing),
                                                                  declined: { declined = $0.map { ($0.start, $0.end, $0.summary) } },
                                                                  warn: { progress.clear(); env.console.note($0) })
        progress.phase("Storing \(ProgressLine.grouped(occurrences.count)) busy times")
        let source = URL(fileURLWithPath: file).standardizedFileURL.path
        let db = try existing ?? env.openDatabase()
        let replaced = try db.importCalendar(
            CalendarImport(name: calendarName, source: source, content: data,
                           timeZone: env.calendar.identifier, horizon: horizon, eventCount: events, importedAt: now),
            occurrences: occurrences, occurrence: { ($0.start, $0.end, $0.summary, $0.allDay, $0.uid) })
        try db.replaceDeclined(calendarNamed: calendarName, declined)
        progress.phase("Planning again")
        let outcome = Planning.replanIfStale(env, db)
        progress.finish()
        var line = "\(replaced ? "Replaced" : "Imported") calendar \(Sanitized.terminal(calendarName)): \(events) event\(events == 1 ? "" : "s"), "
            + "\(occurrences.count) busy time\(occurrences.count == 1 ? "" : "s") stored from \(env.calendar.day(of: horizon.start)) to \(env.calendar.day(of: horizon.end))."
        if let outcome, !outcome.result.items.isEmpty {
            line += " " + PlanRenderer.summary(outcome)
        }
        env.console.line(line)
    }

    /// The calendar's name, its number of events and its occurrences within `horizon`.
    /// Only what busy time needs is read (no DESCRIPTION or LOCATION), and the events focus
    /// published itself are left out, counted nowhere (README: Calendars).
    static func expand(_ data: Data, file: String, name: String?, fallbackName: String? = nil, horizon: DateInterval, local: LocalCalendar,
                       strict: Bool, attendance: AttendancePolicy? = nil, declined: ((BusyTimes) -> Void)? = nil,
                       warn: (String) -> Void) throws -> (String, Int, BusyTimes) {
        let document: ICSDocument
        do {
            document = try ICSReader.parse(data: data, strict: strict, detail: .busyTime)
        } catch {
            throw FocusError.badInput(file: file, line: error.line, reason: error.reason)
        }
        for warning in document.warnings {
            warn("warning: \(file):\(warning.line): \(warning.message)")
        }
        let calendarName = try calendarName(option: name, document: document, file: fallbackName ?? file)
        let isFree = attendance?.isFree
        let occurrences = document.busyTimes(from: horizon.start, to: horizon.end, local: local, isFree: isFree)
        // The meetings left out, for the agenda to show marked.
        if let declined, let isFree { declined(document.freeTimes(from: horizon.start, to: horizon.end, local: local, isFree: isFree)) }
        return (calendarName, document.events.count, occurrences)
    }

    /// The most of one .ics file that is read: a calendar is parsed whole, so a bigger file
    /// (a 100 MB export, or /dev/zero) is refused before it can fill memory.
    static let maximumBytes = 32 << 20

    /// The file's bytes, read in chunks and refused (65) once past `maximumBytes`; a missing or
    /// non-regular file is 66 and an unreadable one 74, as for every input file.
    static func read(_ file: String) throws -> Data {
        var data = Data()
        // Room for the whole file at once: growing by doubling would briefly hold two copies.
        var info = stat()
        if stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            data.reserveCapacity(min(Int(info.st_size), maximumBytes))
        }
        try ChunkedFile.read(file) { chunk in
            guard data.count + chunk.count <= maximumBytes else {
                throw FocusError.badInput(file: file, line: nil, reason: "the file is larger than \(maximumBytes >> 20) MB, the most focus reads from one calendar. Export a shorter range of the calendar, or split it into several files")
            }
            data.append(contentsOf: chunk)
        }
        return data
    }

    /// `--name`, else X-WR-CALNAME, else the file's base name without its extension.
    static func calendarName(option: String?, document: ICSDocument, file: String) throws(FocusError) -> String {
        if let option {
            let trimmed = option.trimmingSpaces()
            guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: Sanitized.isUnsafe) else {
                throw .invalidValue(what: "calendar name", value: option, expected: "a name with visible characters")
            }
            return trimmed
        }
        if let inside = document.name?.trimmingSpaces(), !inside.isEmpty {
            return Sanitized.terminal(inside)
        }
        let base = Paths.removingExtension(Paths.name(of: file))
        return base.isEmpty ? "calendar" : Sanitized.terminal(base)
    }
}

/// Whose meetings are read and how (README, "A CalDAV account"): the person's addresses (config
/// `email` and the connected accounts' own) and `tentative_busy`.
struct AttendancePolicy {
    var addresses: Set<String>
    var tentativeBusy: Bool

    static func current(_ env: FocusEnvironment, _ db: AppDatabase?) -> AttendancePolicy {
        var addresses = Set(env.config.emails.map(Attendance.address))
        for account in (try? db?.accounts()) ?? [] { addresses.formUnion(account.addresses.map(Attendance.address)) }
        return AttendancePolicy(addresses: addresses, tentativeBusy: env.config.tentativeBusy)
    }

    /// The one rule, for every reader of calendar files (import, subscribe, connected calendars
    /// and the planner's expansion past the stored window): whether an event is free time.
    var isFree: @Sendable (ICSEvent) -> Bool {
        let addresses = addresses, tentativeBusy = tentativeBusy
        return { event in
            Attendance.isFree(attendees: event.attendees.map { ($0.address, $0.partstat) }, addresses: addresses, tentativeBusy: tentativeBusy)
        }
    }
}
