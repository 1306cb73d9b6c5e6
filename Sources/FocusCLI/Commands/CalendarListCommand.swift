import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials
import FocusStorage

/// `focus calendar list [--json]`.
package struct CalendarListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "list", abstract: "List imported and subscribed calendars (for a feed: when it was last fetched, and the last error).")

    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let calendars = try db.calendars()
        if json {
            env.console.line(CalendarRenderer.json(calendars, refreshSeconds: env.config.calendarRefreshSeconds, now: env.now()))
            return
        }
        if calendars.isEmpty {
            env.console.line("No calendars. Import one with `focus calendar import FILE.ics`, or subscribe to one with `focus calendar subscribe URL`.")
            return
        }
        var out = CalendarRenderer.list(calendars, calendar: env.calendar, now: env.now())
        out += CalendarRenderer.accountChanges(try db.accounts().map { ($0.url, $0.lastChange, $0.lastChangeAt) }, calendar: env.calendar, now: env.now())
        env.console.show(out)
    }

    /// `45 s`, `12 min`, `3 h`, `2 days`.
    static func age(_ seconds: Double) -> String { CalendarStaleness.ageText(seconds) }
}
