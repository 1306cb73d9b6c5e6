import FocusText
import FocusCore
import FoundationEssentials

/// `focus plan`: blocks by local day and the at-risk list, as text or JSON. Pure builders.
package enum PlanRenderer {
    /// A block; `"pinned": true` for one the person moved in a calendar app (README, "Your real calendar").
    package static func blockJSON(_ b: BlockView) -> JSON {
        var fields: [(String, JSON)] = [
            ("id", .optional(b.id)), ("task", .string(b.task)), ("subtask", .string(b.subtask)),
            ("start", .string(Timestamp.utc(b.start))), ("end", .string(Timestamp.utc(b.end))), ("status", .string(b.status.rawValue)),
        ]
        if b.pinnedUID != nil, b.status == .planned { fields.append(("pinned", .bool(true))) }
        return .object(fields)
    }

    /// `cap_seconds` only when the daily cap is what keeps the work from fitting.
    package static func riskJSON(_ r: RiskView) -> JSON {
        var fields: [(String, JSON)] = [
            ("task", .string(r.task)), ("subtask", .string(r.subtask)), ("due", .string(Timestamp.utc(r.due))),
            ("needed_seconds", .int(r.neededSeconds)), ("free_seconds", .int(r.freeSeconds)),
            ("competitors", .array(r.competitors.map(JSON.string))),
        ]
        if let cap = r.capSeconds { fields.append(("cap_seconds", .int(cap))) }
        return .object(fields)
    }

    package static func overdueJSON(_ o: OverdueView) -> JSON {
        .object([
            ("task", .string(o.task)), ("subtask", .string(o.subtask)), ("due", .string(Timestamp.utc(o.due))),
            ("needed_seconds", .int(o.remainingSeconds)),
        ])
    }

    package static func undatedJSON(_ u: UndatedView) -> JSON {
        .object([
            ("task", .string(u.task)), ("subtask", .string(u.subtask)), ("reason", .string("no due date")),
            ("needed_seconds", .int(u.remainingSeconds)),
        ])
    }

    /// `plan --json`: the plan made.
    package static func json(_ outcome: PlanOutcome) -> JSON {
        .object(json(blocks: outcome.blocks, atRisk: outcome.atRisk, overdue: outcome.overdue, undated: outcome.undated))
    }

    /// `{"blocks": [...], "at_risk": [...], "overdue": [...], "not_planned": [...]}`.
    package static func json(blocks: [BlockView], atRisk: [RiskView], overdue: [OverdueView], undated: [UndatedView] = []) -> [(String, JSON)] {
        [("blocks", .array(blocks.map(blockJSON))), ("at_risk", .array(atRisk.map(riskJSON))),
         ("overdue", .array(overdue.map(overdueJSON))), ("not_planned", .array(undated.map(undatedJSON)))]
    }

    /// `  09:00–09:25  Thesis/Chapter 2  planned  block 12`: the block's number (its `id` in
    /// `plan --json`, `block_id` in `log --json`), written so that it is never read as a path
    /// (`#12` names task or subtask 12; README, "Commands").
    package static func blockLine(_ b: BlockView, calendar: LocalCalendar) -> DisplayText {
        var s: DisplayText = "  \(calendar.timeOfDay(of: b.start))–\(calendar.timeOfDay(of: b.end))  \(shown: b.path)  \(b.status.rawValue)"
        if b.pinnedUID != nil, b.status == .planned { s += " (pinned)" }
        if let id = b.id { s += "  block \(id)" }
        return s
    }

    /// Blocks grouped under `Mon 23 Nov 2026` headings.
    package static func blocksByDay(_ blocks: [BlockView], calendar: LocalCalendar) -> DisplayText {
        var out: DisplayText = ""
        var current: LocalDate?
        for b in blocks {
            let day = calendar.day(of: b.start)
            if day != current {
                if current != nil { out += "\n" }
                out += "\(RelativeTime.shortDay(day)) \(day.year)\n"
                current = day
            }
            out += "\(blockLine(b, calendar: calendar))\n"
        }
        return out
    }

    package static func riskLines(_ risks: [RiskView], calendar: LocalCalendar, now: Date? = nil) -> DisplayText {
        guard !risks.isEmpty else { return "" }
        var out: DisplayText = "At risk (\(risks.count)):\n"
        for r in risks {
            out += "  \(shown: "\(r.task)/\(r.subtask)")  due \(RelativeTime.shortDateTime(r.due, calendar: calendar, now: now))"
            out += "  needs \(DurationParser.format(r.neededSeconds)), \(DurationParser.format(r.freeSeconds)) free"
            if let cap = r.capSeconds { out += " · held to \(DurationParser.format(cap)) a day by its daily cap" }
            if !r.competitors.isEmpty { out += " · competing: \(r.competitors.joined(separator: ", "))" }
            out += "\n"
        }
        return out
    }

    /// `Overdue (1):` and its lines: work whose due date has passed, never planned.
    package static func overdueLines(_ items: [OverdueView], calendar: LocalCalendar, now: Date? = nil) -> DisplayText {
        guard !items.isEmpty else { return "" }
        var out: DisplayText = "Overdue (\(items.count)):\n"
        for o in items {
            out += "  \("\(o.task)/\(o.subtask)")  was due \(RelativeTime.shortDateTime(o.due, calendar: calendar, now: now))"
            out += "  needs \(DurationParser.format(o.remainingSeconds))\n"
        }
        return out
    }

    /// `Not planned (1):` and its lines: work with an estimate but no due date.
    package static func undatedLines(_ items: [UndatedView]) -> DisplayText {
        guard !items.isEmpty else { return "" }
        var out: DisplayText = "Not planned (\(items.count)):\n"
        for u in items {
            out += "  \("\(u.task)/\(u.subtask)")  not planned: no due date · needs \(DurationParser.format(u.remainingSeconds))\n"
        }
        return out
    }

    package static func text(_ outcome: PlanOutcome, dryRun: Bool, calendar: LocalCalendar, now: Date? = nil) -> DisplayText {
        var out: DisplayText = dryRun ? "Dry run: nothing saved.\n\n" : ""
        let listed = !outcome.overdue.isEmpty || !outcome.undated.isEmpty
        if outcome.blocks.isEmpty {
            if !outcome.result.items.isEmpty || listed {
                out += "No blocks from today on.\n"
            } else {
                out += "Nothing to plan. Give a subtask an estimate and a due date: `focus task add \"Thesis/Chapter 2\" --estimate 6h --due 2026-11-27`.\n"
            }
        } else {
            out += blocksByDay(outcome.blocks, calendar: calendar)
        }
        for section in [overdueLines(outcome.overdue, calendar: calendar, now: now), riskLines(outcome.atRisk, calendar: calendar, now: now),
                        undatedLines(outcome.undated)] where !section.isEmpty {
            out += "\n\(section)"
        }
        return out
    }

    /// `Plan: 12 blocks ahead, 1 subtask at risk (see `focus plan`).`
    package static func summary(_ outcome: PlanOutcome) -> DisplayText {
        let ahead = outcome.result.schedule.blocks.count
        var s: DisplayText = "Plan: \(ahead) block\(ahead == 1 ? "" : "s") ahead"
        let risk = outcome.atRisk.count
        if risk > 0 { s += ", \(risk) subtask\(risk == 1 ? "" : "s") at risk" }
        let overdue = outcome.overdue.count
        if overdue > 0 { s += ", \(overdue) overdue" }
        s += " (see `focus plan`)."
        return s
    }
}
