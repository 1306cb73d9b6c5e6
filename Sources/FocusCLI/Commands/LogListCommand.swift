import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
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
            env.console.line(SessionRenderer.json(list: Array(entries)))
            return
        }
        if entries.isEmpty {
            let tagged = tag.map { " tagged '\(shown: $0)'" as DisplayText } ?? ""
            env.console.line("No sessions\(tagged) in the last \(last) day\(last == 1 ? "" : "s"). Start one with `focus start \"Thesis/Chapter 2\"`.")
            return
        }
        env.console.show(SessionRenderer.list(Array(entries), calendar: env.calendar))
    }
}
