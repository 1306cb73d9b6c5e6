import FocusCore
import FocusText
import FoundationEssentials

/// What fetching live calendars said (`calendar subscribe`, `calendar connect`, `calendar
/// refresh`, `sync`, the daemon's log), one line per `CalendarFetchReport`. Pure.
package enum CalendarFetchRenderer {
    /// The line of `report`: a result for standard output, or a warning for standard error
    /// (`report.isWarning`), without the `focus: ` the console puts before notes.
    package static func line(_ report: CalendarFetchReport) -> DisplayText {
        switch report {
        case let .stored(copy):
            return stored(copy)
        case let .unchanged(name, events):
            return "Calendar \(name) is unchanged (\(count(events, "event")))."
        case let .accountChanged(address, added, removed):
            let parts = added.map { "calendar \(DisplayText($0).string) added" } + removed.map { "calendar \(DisplayText($0).string) removed" }
            return "Account at \(CalendarFeed.shownAddress(address)): \(parts.joined(separator: ", "))."
        case let .readerWarning(text):
            return DisplayText(text)
        case let .keptAside(name, kept):
            var text: DisplayText = "warning: calendar '\(name)' came back with no events while the copy kept has \(kept); the copy is kept and used. "
            text += "If the calendar really is empty now, run `focus calendar refresh '\(name)' --accept-empty`."
            return text
        case let .accountNotListed(address, reason):
            return "warning: the calendars of the account at \(CalendarFeed.shownAddress(address)) were not listed: \(reason)"
        case let .notRead(name, reason):
            return "warning: calendar '\(name)' could not be read: \(reason)"
        case let .notFetchedYet(name, reason):
            return "warning: calendar \(name) is not fetched yet: \(reason)"
        }
    }

    /// Says `report` on `console`: results on standard output, warnings on standard error.
    package static func say(_ report: CalendarFetchReport, on console: any Console) {
        if report.isWarning { console.note(line(report)) } else { console.line(line(report)) }
    }

    /// `calendar connect`: the account connected, then one line per calendar of the account,
    /// used for busy time (✓) or not (·), and why: focus's sync calendar, another machine's
    /// history (`histories`), a calendar not chosen, one that holds no events.
    package static func connected(address: String, user: String?, calendars: [RemoteCalendar], chosen: [RemoteCalendar], histories: Set<String>,
                                  syncURL: String?) -> DisplayText {
        let who = user.map { " as \(DisplayText($0).string)" } ?? ""
        var out: DisplayText = "Connected to \(CalendarFeed.shownAddress(address))\(who): \(count(calendars.count, "calendar")).\n"
        let width = calendars.map { DisplayText($0.displayName).string.count }.max() ?? 0
        for calendar in calendars {
            let busy = chosen.contains { $0.url == calendar.url }
            let kind = calendar.url == syncURL ? "focus sync"
                : histories.contains(calendar.url) ? "focus history of another machine (`focus sync setup` to join it)"
                : calendar.holdsEvents ? (busy ? "busy time" : "not used") : "\(calendar.components.joined(separator: ", ").lowercased()) only"
            let name = DisplayText(calendar.displayName).string
            out += "  \(busy ? "✓" : "·") \(name)\(String(repeating: " ", count: max(0, width - name.count)))  \(kind)\n"
        }
        return out
    }

    /// A calendar of the account connected again that is no longer chosen.
    package static func noLongerBusy(_ name: String) -> DisplayText { "Calendar \(name) no longer counts as busy time (removed)." }

    /// `calendar publish` and `sync setup` made the calendar they write into.
    package static func made(calendar name: String, accountAddress: String) -> DisplayText {
        "Made calendar \(name) in the account at \(CalendarFeed.shownAddress(accountAddress))."
    }

    private static func stored(_ copy: StoredCalendarCopy) -> DisplayText {
        let replacing = copy.verb == .subscribed && copy.replacedSameName ? " (it replaces the calendar of that name)" : ""
        var line: DisplayText = "\(copy.verb.rawValue) calendar \(copy.name)\(replacing): \(count(copy.events, "event")), "
        line += "\(count(copy.occurrences, "busy time")) stored from \(copy.from) to \(copy.to)."
        if let plan = copy.plan, !plan.result.items.isEmpty {
            line += " "
            line += PlanRenderer.summary(plan)
        }
        return line
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
