import FocusCore
import FocusStorage
import Foundation

/// `focus plan`: blocks by local day and the at-risk list, as text or JSON. Pure builders.
enum PlanRenderer {
    static func blockJSON(_ b: BlockView) -> JSON {
        .object([
            ("id", .optional(b.id)), ("task", .string(b.task)), ("subtask", .string(b.subtask)),
            ("start", .string(Timestamp.utc(b.start))), ("end", .string(Timestamp.utc(b.end))), ("status", .string(b.status.rawValue)),
        ])
    }

    static func riskJSON(_ r: RiskView) -> JSON {
        .object([
            ("task", .string(r.task)), ("subtask", .string(r.subtask)), ("due", .string(Timestamp.utc(r.due))),
            ("needed_seconds", .int(r.neededSeconds)), ("free_seconds", .int(r.freeSeconds)),
            ("competitors", .array(r.competitors.map(JSON.string))),
        ])
    }

    /// `{"blocks": [...], "at_risk": [...]}`.
    static func json(blocks: [BlockView], atRisk: [RiskView]) -> [(String, JSON)] {
        [("blocks", .array(blocks.map(blockJSON))), ("at_risk", .array(atRisk.map(riskJSON)))]
    }

    /// `  09:00–09:25  Thesis/Chapter 2  planned  #12`.
    static func blockLine(_ b: BlockView, calendar: LocalCalendar) -> String {
        var s = "  \(calendar.timeOfDay(of: b.start))–\(calendar.timeOfDay(of: b.end))  \(Sanitized.shown(b.path))  \(b.status.rawValue)"
        if let id = b.id { s += "  #\(id)" }
        return s
    }

    /// Blocks grouped under `Mon 23 Nov 2026` headings.
    static func blocksByDay(_ blocks: [BlockView], calendar: LocalCalendar) -> String {
        var out = ""
        var current: LocalDate?
        for b in blocks {
            let day = calendar.day(of: b.start)
            if day != current {
                if current != nil { out += "\n" }
                out += "\(RelativeTime.shortDay(day)) \(day.year)\n"
                current = day
            }
            out += blockLine(b, calendar: calendar) + "\n"
        }
        return out
    }

    static func riskLines(_ risks: [RiskView], calendar: LocalCalendar, now: Date? = nil) -> String {
        guard !risks.isEmpty else { return "" }
        var out = "At risk (\(risks.count)):\n"
        for r in risks {
            out += "  \(Sanitized.shown("\(r.task)/\(r.subtask)"))  due \(RelativeTime.shortDateTime(r.due, calendar: calendar, now: now))"
            out += "  needs \(DurationParser.format(r.neededSeconds)), \(DurationParser.format(r.freeSeconds)) free"
            if !r.competitors.isEmpty { out += " · competing: " + r.competitors.map(Sanitized.terminal).joined(separator: ", ") }
            out += "\n"
        }
        return out
    }

    static func text(_ outcome: PlanOutcome, dryRun: Bool, calendar: LocalCalendar, now: Date? = nil) -> String {
        var out = dryRun ? "Dry run: nothing saved.\n\n" : ""
        if outcome.blocks.isEmpty {
            out += outcome.result.items.isEmpty
                ? "Nothing to plan. Give a subtask an estimate and a due date: `focus task add 'Thesis/Chapter 2' --estimate 6h --due 2026-11-27`.\n"
                : "No blocks from today on.\n"
        } else {
            out += blocksByDay(outcome.blocks, calendar: calendar)
        }
        let risks = riskLines(outcome.atRisk, calendar: calendar, now: now)
        if !risks.isEmpty { out += "\n" + risks }
        return out
    }

    /// `Plan: 12 blocks ahead, 1 subtask at risk (see `focus plan`).`
    static func summary(_ outcome: PlanOutcome) -> String {
        let ahead = outcome.result.schedule.blocks.count
        var s = "Plan: \(ahead) block\(ahead == 1 ? "" : "s") ahead"
        let risk = outcome.atRisk.count
        if risk > 0 { s += ", \(risk) subtask\(risk == 1 ? "" : "s") at risk" }
        return s + " (see `focus plan`)."
    }
}
