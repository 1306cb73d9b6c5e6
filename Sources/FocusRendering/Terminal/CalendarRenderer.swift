import FocusCore
import FocusText
import FoundationEssentials

/// `focus calendar list`, as text and as JSON, and the stale calendars `agenda --json` names. Pure.
package enum CalendarRenderer {
    /// `calendar list --json`: one object per calendar, for scripts; a live calendar says whether
    /// its copy is stale after `refreshSeconds` (the `calendar_refresh` setting).
    package static func json(_ calendars: [CalendarSummary], refreshSeconds: Int?, now: Date) -> JSON {
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
                                                           refreshSeconds: refreshSeconds, now: now) != nil)),
                ]
            } else {
                fields.append(("kind", .string("file")))
            }
            return .object(fields)
        })
    }

    /// One line per calendar (a file: when it was imported; a feed or CalDAV calendar: when it
    /// was fetched, and its last failed refresh or empty answer kept aside), names and counts
    /// padded to their widest so the columns stay in line.
    package static func list(_ calendars: [CalendarSummary], calendar: LocalCalendar, now: Date) -> DisplayText {
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
                out += "\(events)  imported \(RelativeTime.moment(c.importedAt, calendar: calendar, now: now))  \(shown: c.source)\n"
                continue
            }
            let state = FeedState.decode(c.feedState)
            let fetched = state.fetchedAt ?? c.importedAt
            out += state.notFetchedYet(eventCount: c.eventCount)
                ? "\(events)  not fetched yet (`focus calendar refresh` fetches it)"
                : "\(events)  fetched \(RelativeTime.moment(fetched, calendar: calendar, now: now)) (\(CalendarStaleness.ageText(now.timeIntervalSince(fetched))) ago)"
            out += "  \(shown: CalendarFeed.shownAddress(c.source))\(c.connected ? " (CalDAV)" : "")\n"
            if let error = state.lastError, let at = state.lastErrorAt, at >= fetched {
                out += "\(TerminalText.spaces(width))  last refresh failed \(RelativeTime.moment(at, calendar: calendar, now: now)): \(shown: error)\n"
            }
            if let aside = state.emptyKeptAsideAt, aside >= fetched {
                out += "\(TerminalText.spaces(width))  came back empty \(RelativeTime.moment(aside, calendar: calendar, now: now)); the copy above is kept (`focus calendar refresh NAME --accept-empty` takes it)\n"
            }
        }
        return out
    }

    /// What the last refresh of each connected account added and removed (README, "A CalDAV
    /// account"), one line each: `Account at https://host/…, refreshed Thu 26 Nov 23:50: added
    /// Travel; removed Old.` `changes` are the account's stored entries (`+ NAME`, `- NAME`).
    package static func accountChanges(_ accounts: [(address: String, changes: [String], at: Date?)], calendar: LocalCalendar, now: Date) -> DisplayText {
        var out: DisplayText = ""
        for account in accounts where !account.changes.isEmpty {
            let added = account.changes.filter { $0.hasPrefix("+ ") }.map { DisplayText(shown: String($0.dropFirst(2))).string }
            let removed = account.changes.filter { $0.hasPrefix("- ") }.map { DisplayText(shown: String($0.dropFirst(2))).string }
            let parts = (added.isEmpty ? [] : ["added " + added.joined(separator: ", ")]) + (removed.isEmpty ? [] : ["removed " + removed.joined(separator: ", ")])
            let when = account.at.map { ", refreshed \(RelativeTime.moment($0, calendar: calendar, now: now))" } ?? ""
            out += "Account at \(shown: CalendarFeed.shownAddress(account.address))\(when): \(parts.joined(separator: "; ")).\n"
        }
        return out
    }

    /// `[{"name", "fetched_at", "last_error"}]` for the live calendars whose copy is stale.
    package static func staleJSON(_ stale: [CalendarSummary]) -> JSON {
        .array(stale.map { c in
            let state = FeedState.decode(c.feedState)
            return .object([("name", .string(c.name)), ("fetched_at", .string(Timestamp.utc(state.fetchedAt ?? c.importedAt))),
                            ("last_error", state.lastError.map { .string($0) } ?? .null)])
        })
    }
}
