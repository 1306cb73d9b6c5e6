import FocusCore
import FocusText
import FoundationEssentials

/// What `focus sync` (and `sync setup`, and the daemon's log) says about one sync (README, "Two
/// machines"), from its `SyncSummary`. Pure.
package enum SyncRenderer {
    /// The lines of a sync with `calendar`, in order, each marked when it is a warning (standard
    /// error, with its `warning: `; the console adds `focus: `).
    package static func lines(_ summary: SyncSummary, calendar: String) -> [(line: DisplayText, isWarning: Bool)] {
        var lines: [(line: DisplayText, isWarning: Bool)] = []
        if let backup = summary.backup { lines.append(("Backed up the database to \(backup) first.", false)) }
        var parts: [String] = []
        if summary.received > 0 { parts.append("\(summary.received) received") }
        if summary.sent > 0 { parts.append("\(summary.sent) sent") }
        if summary.deletedHere > 0 { parts.append("\(summary.deletedHere) deleted here") }
        if summary.deletedThere > 0 { parts.append("\(summary.deletedThere) deleted there") }
        lines.append(("Synced with \(calendar): \(parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")).", false))
        let conflicts = summary.conflicts
        if conflicts > 0 {
            lines.append(("\(conflicts) field\(conflicts == 1 ? " was" : "s were") changed on both machines: the newer kept; see `focus sync status`.", false))
        }
        lines += summary.settings.map { (DisplayText($0), false) }
        for label in summary.kept {
            lines.append((joined("warning: '\(label)' was deleted on one machine but holds work the other recorded: kept on both (`focus sync status`). ",
                                 "To delete it again: \(Quoted.command("focus task rm", label, then: "--force"))"), true))
        }
        for label in summary.deletedElsewhere {
            lines.append((joined("'\(label)' was deleted in another app: archived here with its sessions, which still count (`focus task list --all`). ",
                                 "To delete it with them: focus task rm '\(label)' --force"), false))
        }
        for label in summary.seriesTicked {
            lines.append(("'\(label)' was ticked done in another app: this period's work is done here, and the series goes on (to end it: focus task rm '\(label)').", false))
        }
        for label in summary.cameBack {
            lines.append((joined("warning: '\(label)', deleted here, is back: another machine recorded work in it meanwhile (`focus sync status`). ",
                                 "To delete it again: focus task rm '\(label)' --force"), true))
        }
        return lines + summary.warnings.map { ("warning: \($0)", true) }
    }

    private static func joined(_ a: DisplayText, _ b: DisplayText) -> DisplayText {
        var text = a
        text += b
        return text
    }

    /// Says the lines of a sync on `console`: results on standard output, warnings on standard error.
    package static func say(_ summary: SyncSummary, calendar: String, on console: any Console) {
        for (line, isWarning) in lines(summary, calendar: calendar) {
            if isWarning { console.note(line) } else { console.line(line) }
        }
    }
}
