import FoundationEssentials

/// The planner's refusal of a subtask that cannot fit before its due date (`task add`/`task edit`
/// without `--force`): which subtasks a change leaves without enough time, and the sentence
/// that says so.
package enum PlanRefusal {
    /// At-risk items a change is to blame for: the changed item itself when it does not fit,
    /// then every other item that does not fit now but did without the change (`before`, asked
    /// only when needed), in the plan's priority order.
    package static func problems<E: Error>(after: Schedule, target: Int64, before: () throws(E) -> Schedule) throws(E) -> [AtRiskItem] {
        let own = after.atRisk.filter { $0.itemID == target }
        let others = after.atRisk.filter { $0.itemID != target }
        guard !others.isEmpty else { return own }
        let wasAtRisk = Set(try before().atRisk.map(\.itemID))
        return own + others.filter { !wasAtRisk.contains($0.itemID) }
    }

    /// One sentence (exit 65): how much work, how much free time before the due date, who competes.
    /// `label` names the subtask added or changed.
    package static func message(_ problems: [AtRiskItem], label: String, calendar: LocalCalendar, now: Date? = nil) -> String {
        guard let first = problems.first else { return "" }
        var text: String
        if first.label == label {
            text = "'\(first.label)' does not fit before its due date, \(RelativeTime.shortDateTime(first.due, calendar: calendar, now: now)): "
                + "it needs \(DurationParser.format(first.neededSeconds)) of work and "
        } else {
            text = "'\(label)' would push '\(first.label)' past its due date, \(RelativeTime.shortDateTime(first.due, calendar: calendar, now: now)): "
                + "'\(first.label)' needs \(DurationParser.format(first.neededSeconds)) of work and "
        }
        text += first.freeSeconds <= 0
            ? "there is no free time left before then"
            : "there is only \(DurationParser.format(first.freeSeconds)) of free time before then"
        if let cap = first.capSeconds {
            text += " at \(DurationParser.format(cap)) a day (its daily cap; raise it with --max-per-day)"
        }
        if !first.competitors.isEmpty {
            text += ", with " + list(first.competitors) + " competing for it"
        }
        text += "."
        let more = problems.dropFirst().filter { $0.label != label }.map(\.label)
        if !more.isEmpty {
            text += " It would also push out " + list(more) + "."
        }
        text += " Move the due date, lower the estimate, or add --force to save it marked at risk."
        return text
    }

    /// The `--force` warning: what was saved although it does not fit.
    package static func warning(_ problems: [AtRiskItem]) -> String {
        let parts = problems.map {
            "'\($0.label)' needs \(DurationParser.format($0.neededSeconds)), \(DurationParser.format($0.freeSeconds)) free before its due date"
        }
        return "warning: saved although it does not fit: " + parts.joined(separator: "; ") + ". Marked at risk; see `focus plan`."
    }

    /// `'A'`, `'A' and 'B'`, `'A', 'B' and 'C'`.
    static func list(_ labels: [String]) -> String {
        let quoted = labels.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
    }
}
