import FocusText
import ArgumentParser
import FocusCore
import FocusStorage
import FoundationEssentials

/// `focus log` / `focus log list`: recorded sessions, newest first.
package struct LogListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List recent sessions, newest first.",
        discussion: """
            Each session's mark: ✓ completed (the countdown reached 0:00), ✗ interrupted (left \
            early; its focused time is what was really focused), ↑ open (a stopwatch started with \
            --open, counting up until it is stopped). The countdown's last line marks an open \
            session it recorded with ■.
            """)
    @Option(help: ArgumentHelp("How many local days back, today included.", valueName: "n")) var last: Int = 7
    @Option(name: .customLong("tag"), help: ArgumentHelp("Only the sessions with this tag.", valueName: "name")) var tag: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        guard last >= 1, last <= WindowOptions.maximumDays else {
            throw FocusError.invalidValue(what: "--last", value: String(last), expected: "a number of days from 1 to \(WindowOptions.maximumDays)")
        }
        let tag = try self.tag.map(SessionTags.name)
        let db = try env.openDatabase()
        let today = env.today
        let from = env.calendar.startOfDay(today.adding(days: -(last - 1)))
        let to = env.calendar.startOfDay(today.adding(days: 1))
        let entries = try db.sessions(overlapping: from, to)
            .filter { entry in entry.log.startedAt >= from && (tag.map { SessionTags.contains(entry.log.tags, $0) } ?? true) }.reversed()
        if json {
            env.console.line(JSON.array(entries.map(LogCommand.json)))
            return
        }
        if entries.isEmpty {
            let tagged = tag.map { " tagged '\(shown: $0)'" as DisplayText } ?? ""
            env.console.line("No sessions\(tagged) in the last \(last) day\(last == 1 ? "" : "s"). Start one with `focus start \"Thesis/Chapter 2\"`.")
            return
        }
        env.console.show(LogListCommand.text(Array(entries), calendar: env.calendar))
    }

    /// Sessions (newest first) under one heading per local day with its total: two passes over
    /// the entries, one for the totals and one for the lines, whatever the number of days.
    static func text(_ entries: [SessionEntry], calendar: LocalCalendar) -> DisplayText {
        let days = entries.map { calendar.day(of: $0.log.startedAt) }
        var totals: [LocalDate: Int] = [:]
        for (e, day) in zip(entries, days) { totals[day, default: 0] += e.log.focusedSeconds }
        let idWidth = entries.map { "#\($0.log.id ?? 0)".count }.max() ?? 0
        var out: DisplayText = ""
        var currentDay: LocalDate?
        for (e, day) in zip(entries, days) {
            if day != currentDay {
                let total = totals[day] ?? 0
                if currentDay != nil { out += "\n" }
                out += "\(RelativeTime.shortDay(day)) \(day.year)  ·  \(DurationParser.format(total))\n"
                currentDay = day
            }
            out += "  \(LogCommand.line(e, calendar: calendar, idWidth: idWidth))\n"
        }
        return out
    }
}
