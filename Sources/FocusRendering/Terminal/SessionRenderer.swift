import FocusCore
import FocusText
import FoundationEssentials

/// Recorded sessions as `focus log` lists them and as every `--json` that holds sessions writes
/// them (`log --json`, `agenda --json`, `task show --json`). Pure.
package enum SessionRenderer {
    /// `log --json`: the sessions listed.
    package static func json(list entries: [SessionEntry]) -> JSON { .array(entries.map(json)) }

    /// One session: the contract's shape.
    package static func json(_ e: SessionEntry) -> JSON {
        .object([
            ("id", .optional(e.log.id)),
            ("task", .string(e.task)),
            ("subtask", .optional(e.subtask)),
            ("start", .string(Timestamp.utc(e.log.startedAt))),
            ("end", .string(Timestamp.utc(e.log.endedAt))),
            ("focused_seconds", .int(e.log.focusedSeconds)),
            // An open session had no planned length (README, "Open sessions").
            ("planned_seconds", e.log.status == .open ? .null : .int(e.log.plannedSeconds)),
            ("status", .string(e.log.status.rawValue)),
            ("block_id", .optional(e.log.blockID)),
            ("note", .optional(e.log.note)),
            ("tags", .array(e.log.tags.map { .string($0) })),
        ])
    }

    /// ` +deep +reading` (nothing when there are none): tags after a session, as Watson shows them.
    package static func tagText(_ tags: [String]) -> DisplayText {
        DisplayText.joined(tags.map { " +\(shown: $0)" })
    }

    /// `#12  09:00–09:25  25m  ✓  Thesis/Chapter 2  "note"`.
    /// `idWidth`: the ids padded to the widest in a listing (`#9 ` under `#12`), so the times
    /// stay in one column.
    package static func line(_ e: SessionEntry, calendar: LocalCalendar, idWidth: Int = 0) -> DisplayText {
        let mark = SessionMark.of(e.log.status)
        let from = calendar.timeOfDay(of: e.log.startedAt)
        var to = "\(calendar.timeOfDay(of: e.log.endedAt))"
        // A session longer than a day (a forgotten timer) says on which later day it ended.
        if e.log.endedAt.timeIntervalSince(e.log.startedAt) > Double(SessionRecord.dayLengthSeconds) {
            to += " (+\(calendar.day(of: e.log.endedAt).dayNumber - calendar.day(of: e.log.startedAt).dayNumber)d)"
        }
        let id = "#\(e.log.id ?? 0)"
        var s: DisplayText = "\(TerminalText.pad(id, idWidth))  \(from)–\(to)  \(TerminalText.pad(DurationParser.format(e.log.focusedSeconds), 7)) \(mark)  \(shown: e.path)"
        if !e.log.tags.isEmpty { s += " \(tagText(e.log.tags))" }
        if let note = e.log.note { s += "  “\(shown: note)”" }
        return s
    }

    /// `focus log`: sessions (newest first) under one heading per local day with its total: two
    /// passes over the entries, one for the totals and one for the lines, whatever the number of days.
    package static func list(_ entries: [SessionEntry], calendar: LocalCalendar) -> DisplayText {
        let days = entries.map { calendar.day(of: $0.log.startedAt) }
        var totals: [LocalDate: Int] = [:]
        for (e, day) in zip(entries, days) { totals[day, default: 0] += e.log.focusedSeconds }
        let idWidth = entries.map { "#\($0.log.id ?? 0)".count }.max() ?? 0
        var out: DisplayText = ""
        var currentDay: LocalDate?
        for (e, day) in zip(entries, days) {
            if day != currentDay {
                let total = totals[day] ?? 0
                if currentDay != nil { out += "\n" }
                out += "\(RelativeTime.shortDay(day)) \(day.year)  ·  \(DurationParser.format(total))\n"
                currentDay = day
            }
            out += "  \(line(e, calendar: calendar, idWidth: idWidth))\n"
        }
        return out
    }
}
