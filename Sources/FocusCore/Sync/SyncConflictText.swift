import FocusText
import FocusTime
import FoundationEssentials

/// A line of `focus sync status` for a field changed on both machines, its values shown as
/// the rest of focus shows them (dates as local date-times, durations as `1h 30m`), and for
/// the items a sync kept or could not apply.
package enum SyncConflictText {
    package static func line(_ stored: (label: String, conflict: SyncConflict), calendar: LocalCalendar) -> String {
        let c = stored.conflict
        let label = DisplayText(stored.label).string
        switch c.field {
        case "deleted":
            let path = stored.label.hasPrefix("session of ") ? "" : " (to delete it again: \(DisplayText(Quoted.command("focus task rm", stored.label, then: "--force")).string))"
            return c.chosen == .local
                ? "\(label) · deleted on another machine, kept: it holds work recorded here\(path)"
                : "\(label) · deleted here, back: another machine recorded work in it\(path)"
        case "deleted elsewhere":
            return "\(label) · deleted in another app: archived here with its sessions (focus task list --all; to delete it with them: focus task rm '\(label)' --force)"
        case "not applied":
            // The reason is the label too (`SyncEngine` records refusals so): said once.
            return c.remote == stored.label ? label : "\(label) · not applied: \(DisplayText(c.remote).string)"
        default:
            let kept = c.chosen == .local ? c.local : c.remote
            let other = c.chosen == .local ? c.remote : c.local
            return "\(label) · \(c.field): kept \(value(kept, field: c.field, calendar)), other \(value(other, field: c.field, calendar))"
        }
    }

    /// A field's value as text (`SyncItem.fields`: instants in Unix seconds, durations in
    /// seconds, the earliest time in minutes after midnight, a priority by name).
    static func value(_ text: String, field: String, _ calendar: LocalCalendar) -> String {
        if field == "priority" { return text.isEmpty ? "normal" : text }
        guard !text.isEmpty else { return "(none)" }
        switch field {
        case "due", "start", "end":
            guard let seconds = Int64(text) else { break }
            return RelativeTime.moment(Date(timeIntervalSince1970: Double(seconds)), calendar: calendar)
        case "estimate", "span", "planned", "focused", "max_per_day":
            guard let seconds = Int(text) else { break }
            return TerminalText.duration(seconds)
        case "earliest":
            guard let minutes = Int(text) else { break }
            return Digits.two(minutes / 60) + ":" + Digits.two(minutes % 60)
        case "task", "subtask":
            return "another \(field)"
        default:
            break
        }
        return "\"\(DisplayText(text).string)\""
    }
}
