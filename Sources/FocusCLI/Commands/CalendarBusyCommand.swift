import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage

/// `focus calendar busy --from DATE --to DATE [--json]`.
package struct CalendarBusyCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "busy", abstract: "Show busy time from imported calendars over whole local days.")

    @Option(help: ArgumentHelp("First day (2026-11-23, tomorrow, mon).", valueName: "date"))
    var from: String
    @Option(help: ArgumentHelp("Last day, included.", valueName: "date"))
    var to: String
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let first = try DateParser.date(from, today: env.today, what: "--from date")
        let last = try DateParser.date(to, today: env.today, what: "--to date")
        guard first <= last else {
            throw FocusError.invalidValue(what: "--to date", value: to, expected: "a day on or after --from (\(first))")
        }
        // The same cap as `stats`: a century of days.
        guard last.dayNumber - first.dayNumber < WindowOptions.maximumDays else {
            throw FocusError.invalidValue(what: "--to date", value: to, expected: "at most \(WindowOptions.maximumDays) days after --from")
        }
        let start = env.calendar.startOfDay(first)
        let end = env.calendar.startOfDay(last.adding(days: 1))
        // A zero-length event (no DTEND or DURATION) marks a moment: it is not busy time.
        let db = try env.openDatabase()
        let events = try db.busyEvents(from: start, to: end, zone: env.calendar, expand: Planning.expansion(env.services, db))
            .filter { $0.end > $0.start }
        if json {
            env.console.line(AgendaRenderer.busyJSON(list: events))
        } else {
            env.console.show(AgendaRenderer.busy(events, from: first, to: last, calendar: env.calendar))
        }
    }
}
