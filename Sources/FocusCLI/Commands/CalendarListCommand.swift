import ArgumentParser
import FocusCore
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
            env.console.line(Self.json(calendars, env: env))
            return
        }
        if calendars.isEmpty {
            env.console.line("No calendars. Import one with `focus calendar import FILE.ics`, or subscribe to one with `focus calendar subscribe URL`.")
            return
        }
        let width = calendars.map { DisplayText(shown: $0.name).string.count }.max() ?? 0
        // The count column padded to its widest, so "1 event" keeps the next column in line.
        let counts = calendars.map { "\($0.eventCount) event\($0.eventCount == 1 ? "" : "s")" }
        let countWidth = counts.map(\.count).max() ?? 0
        var out: DisplayText = ""
        for (c, count) in zip(calendars, counts) {
            let name = DisplayText(shown: c.name)
            out += "\(name)\(TerminalText.spaces(width - name.string.count))"
            let events = "  " + count + TerminalText.spaces(countWidth - count.count)
            guard CalendarFeed.isFeed(source: c.source) else {
                out += "\(events)  imported \(RelativeTime.moment(c.importedAt, calendar: env.calendar, now: env.now()))  \(shown: c.source)\n"
                continue
            }
            let state = FeedState.decode(c.feedState)
            let fetched = state.fetchedAt ?? c.importedAt
            out += state.notFetchedYet(eventCount: c.eventCount)
                ? "\(events)  not fetched yet (`focus calendar refresh` fetches it)"
                : "\(events)  fetched \(RelativeTime.moment(fetched, calendar: env.calendar, now: env.now())) (\(Self.age(env.now().timeIntervalSince(fetched))) ago)"
            out += "  \(shown: CalendarFeed.shownAddress(c.source))\(c.connected ? " (CalDAV)" : "")\n"
            if let error = state.lastError, let at = state.lastErrorAt, at >= fetched {
                out += "\(TerminalText.spaces(width))  last refresh failed \(RelativeTime.moment(at, calendar: env.calendar, now: env.now())): \(shown: error)\n"
            }
            if let aside = state.emptyKeptAsideAt, aside >= fetched {
                out += "\(TerminalText.spaces(width))  came back empty \(RelativeTime.moment(aside, calendar: env.calendar, now: env.now())); the copy above is kept (`focus calendar refresh NAME --accept-empty` takes it)\n"
            }
        }
        out += try Self.accountChanges(db, env)
        env.console.show(out)
    }

    /// `--json`: one object per calendar, for scripts.
    static func json(_ calendars: [CalendarSummary], env: FocusEnvironment) -> JSON {
        JSON.array(calendars.map { c in
            var fields: [(String, JSON)] = [
                ("name", .string(c.name)), ("source", .string(c.source)), ("events", .int(c.eventCount)),
                ("imported_at", .string(Timestamp.utc(c.importedAt))), ("busy_times", .int(c.occurrenceCount)),
                ("timezone", .string(c.timeZone)),
            ]
            if CalendarFeed.isFeed(source: c.source) {
                let state = FeedState.decode(c.feedState)
                let instant = { (date: Date?) -> JSON in date.map { .string(Timestamp.utc($0)) } ?? .null }
                fields += [
                    ("kind", .string(c.connected ? "caldav" : "feed")), ("fetched_at", instant(state.fetchedAt ?? c.importedAt)),
                    ("last_error", state.lastError.map { .string($0) } ?? .null), ("last_error_at", instant(state.lastErrorAt)),
                    ("empty_kept_aside_at", instant(state.emptyKeptAsideAt)),
                    ("stale", .bool(CalendarStaleness.note(name: c.name, state: state, importedAt: c.importedAt,
                                                           refreshSeconds: env.config.calendarRefreshSeconds, now: env.now()) != nil)),
                ]
            } else {
                fields.append(("kind", .string("file")))
            }
            return .object(fields)
        })
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
