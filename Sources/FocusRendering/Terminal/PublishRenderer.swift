import FocusCore
import FocusText
import FoundationEssentials

/// What publishing the plan said (`calendar publish`, `plan`, `calendar refresh`, every command
/// that changed the plan, the daemon's log), one line per `PublishReport`. Pure.
package enum PublishRenderer {
    /// The line of `report`, notes and warnings with their `note: ` or `warning: ` (without the
    /// `focus: ` the console puts before them).
    package static func line(_ report: PublishReport) -> DisplayText {
        switch report {
        case let .published(plan):
            return published(plan)
        case let .note(text):
            return "note: \(text)"
        case let .warning(text):
            return "warning: \(text)"
        case let .gaveUp(calendar, blocksThere, host, deleted):
            var text: DisplayText = "warning: \(PublishReport.otherPlan(calendar: calendar, blocksThere: blocksThere, host: host)) "
            text += "This machine stopped publishing there (\(deleted) of its own block\(deleted == 1 ? "" : "s") ahead deleted)."
            return text
        case let .failed(calendar, reason):
            return "warning: the plan was not published to \(calendar) (it will be when the server answers): \(reason)"
        }
    }

    /// Says `report` on `console`: the publication on standard output, notes and warnings on
    /// standard error.
    package static func say(_ report: PublishReport, on console: any Console) {
        if report.isWarning { console.note(line(report)) } else { console.line(line(report)) }
    }

    /// `Published 3 planned blocks and 2 sessions to Focus (1 new, 2 updated).`
    private static func published(_ plan: PublishedPlan) -> DisplayText {
        var what = "\(plan.blocks) planned block\(plan.blocks == 1 ? "" : "s")"
        if plan.sessions > 0 { what += " and \(plan.sessions) session\(plan.sessions == 1 ? "" : "s")" }
        var changes: [String] = []
        if plan.created > 0 { changes.append("\(plan.created) new") }
        if plan.restored > 0 { changes.append("\(plan.restored) written again") }
        if plan.updated > 0 { changes.append("\(plan.updated) updated") }
        if plan.deleted > 0 { changes.append("\(plan.deleted) removed") }
        let detail = changes.isEmpty ? "nothing changed" : changes.joined(separator: ", ")
        return "Published \(what) to \(plan.calendar) (\(detail))."
    }
}
