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
        out += try Self.accountChanges(db, env)
        env.console.show(out)
    }

    /// What the last refresh of each connected account added and removed (README, "A CalDAV
    /// account"): `Account at https://host/…, refreshed 2026-11-26 23:50: added Travel; removed Old.`
    static func accountChanges(_ db: AppDatabase, _ env: FocusEnvironment) throws -> DisplayText {
        var out: DisplayText = ""
        for account in try db.accounts() where !account.lastChange.isEmpty {
            let added = account.lastChange.filter { $0.hasPrefix("+ ") }.map { DisplayText(shown: String($0.dropFirst(2))).string }
            let removed = account.lastChange.filter { $0.hasPrefix("- ") }.map { DisplayText(shown: String($0.dropFirst(2))).string }
            let parts = (added.isEmpty ? [] : ["added " + added.joined(separator: ", ")]) + (removed.isEmpty ? [] : ["removed " + removed.joined(separator: ", ")])
            let when = account.lastChangeAt.map { ", refreshed \(RelativeTime.moment($0, calendar: env.calendar, now: env.now()))" } ?? ""
            out += "Account at \(shown: CalendarFeed.shownAddress(account.url))\(when): \(parts.joined(separator: "; ")).\n"
        }
        return out
    }

    /// `45 s`, `12 min`, `3 h`, `2 days`.
    static func age(_ seconds: Double) -> String { CalendarStaleness.ageText(seconds) }
}
