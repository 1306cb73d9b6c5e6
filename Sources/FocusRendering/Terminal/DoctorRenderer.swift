import FocusCore
import FocusText
import FoundationEssentials

/// `focus doctor`: the report's lines, labels padded to one column, and how many problems it
/// found; and the words of the findings about the database's contents. Pure.
package enum DoctorRenderer {
    /// Every finding on a line of its own, then `N problems found.` after an empty line when
    /// there is one.
    package static func text(_ findings: [DoctorFinding]) -> DisplayText {
        var out: DisplayText = ""
        for finding in findings { out += "\(TerminalText.pad(finding.label, 15))\(finding.value)\n" }
        let problems = findings.filter(\.problem).count
        if problems > 0 { out += "\n\(problems) problem\(problems == 1 ? "" : "s") found.\n" }
        return out
    }

    /// Stored numbers out of range: one problem, then the values listed (marked, not counted).
    package static func values(total n: Int, listed: [String]) -> [DoctorFinding] {
        guard n > 0 else { return [DoctorFinding(label: "values", value: "every stored number is within its range")] }
        var lines = [DoctorFinding.problem("values", "\(n) stored value\(n == 1 ? " is" : "s are") out of range (focus reads \(n == 1 ? "it" : "them") clamped; fix with sqlite3 or `focus restore` a backup):")]
        for value in listed { lines.append(DoctorFinding(label: "", value: "✗ " + value)) }
        if n > listed.count { lines.append(DoctorFinding(label: "", value: "✗ ... and \(n - listed.count) more")) }
        return lines
    }

    /// Live calendars: how old each copy is; a failed last refresh is a problem, a copy that is
    /// only old is said, not counted (without `focus daemon`, calendars are as fresh as the last
    /// refresh by hand).
    package static func calendars(_ calendars: [CalendarSummary], refreshSeconds: Int?, calendar: LocalCalendar, now: Date) -> [DoctorFinding] {
        var lines: [DoctorFinding] = []
        for feed in calendars where feed.connected || CalendarFeed.isFeed(source: feed.source) {
            let state = FeedState.decode(feed.feedState)
            let fetched = state.fetchedAt ?? feed.importedAt
            let kind = feed.connected ? "caldav" : "feed"
            if let stale = CalendarStaleness.note(name: feed.name, state: state, importedAt: feed.importedAt, refreshSeconds: refreshSeconds, now: now) {
                let failed = state.lastError != nil && (state.lastErrorAt ?? .distantPast) >= fetched
                lines.append(failed ? .problem(kind, stale) : DoctorFinding(label: kind, value: stale))
            } else {
                lines.append(DoctorFinding(label: kind, value: "'\(feed.name)' fetched \(RelativeTime.moment(fetched, calendar: calendar, now: now)) (\(CalendarStaleness.ageText(now.timeIntervalSince(fetched))) ago)"))
            }
        }
        return lines
    }

    /// What waits for the person, each a problem: a live calendar whose empty answer was kept
    /// aside (README, "Your real calendar").
    package static func keptAside(_ calendars: [CalendarSummary], calendar: LocalCalendar, now: Date) -> [DoctorFinding] {
        var lines: [DoctorFinding] = []
        for feed in calendars where feed.connected || CalendarFeed.isFeed(source: feed.source) {
            let state = FeedState.decode(feed.feedState)
            guard let aside = state.emptyKeptAsideAt, aside >= (state.fetchedAt ?? feed.importedAt) else { continue }
            let name = DisplayText(feed.name).string
            lines.append(.problem(feed.connected ? "caldav" : "feed",
                                  "'\(name)' came back with no events \(RelativeTime.moment(aside, calendar: calendar, now: now)); the copy of "
                                  + "\(feed.eventCount) event\(feed.eventCount == 1 ? "" : "s") is kept and used "
                                  + "(`focus calendar refresh '\(name)' --accept-empty` takes the empty one)"))
        }
        return lines
    }

    /// A publication of the plan that failed and waits to be tried again (README, "Publishing"):
    /// a problem, as a failed sync is.
    package static func publishWaiting(calendar name: String, lastError error: String) -> DoctorFinding {
        .problem("publish", "the plan waits to be published to '\(DisplayText(name).string)': the last try failed: "
                 + "\(DisplayText(error).string) (the next command that changes the plan, or `focus daemon`, tries again)")
    }

    /// An account or feed of the database (README, "What focus promises"): one not set up by
    /// this user on this machine is a problem until they say yes to it.
    package static func storedSetting(_ summary: String, trusted: Bool) -> DoctorFinding {
        trusted ? DoctorFinding(label: "stored", value: summary + " (set up on this machine)")
            : .problem("stored", summary + ": not set up by you on this machine; focus asks before using it (`focus calendar refresh` at a terminal)")
    }

    /// Sync (README, "Two machines"): a failed last sync is a problem; otherwise when it last ran.
    package static func sync(calendar: String, syncedAt: Date?, lastError: String?, lastErrorAt: Date?, zone: LocalCalendar, now: Date) -> DoctorFinding {
        let name = DisplayText(calendar).string
        if let error = lastError, let at = lastErrorAt, at >= (syncedAt ?? .distantPast) {
            return .problem("sync", "the last sync with '\(name)' failed \(CalendarStaleness.ageText(now.timeIntervalSince(at))) ago: \(DisplayText(error).string)")
        } else if let synced = syncedAt {
            return DoctorFinding(label: "sync", value: "'\(name)' synced \(RelativeTime.moment(synced, calendar: zone, now: now)) (\(CalendarStaleness.ageText(now.timeIntervalSince(synced))) ago)")
        }
        return DoctorFinding(label: "sync", value: "'\(name)' not synced yet (`focus sync`)")
    }
}
