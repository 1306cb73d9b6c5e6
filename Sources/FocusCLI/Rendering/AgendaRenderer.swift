import FocusCore
import FocusStorage
import Foundation

/// Everything on one local day: what `focus agenda` shows.
struct AgendaDay {
    var day: LocalDate
    var events: [BusyEvent]
    var blocks: [BlockView]
    var sessions: [SessionEntry]
    var freeSeconds: Int
    var due: [DueView]
    var atRisk: [RiskView]
}

/// `focus agenda` and `focus calendar busy` as text. Pure builders.
enum AgendaRenderer {
    /// `  09:00–10:30  Math 101 · Classes`, or `  all day      Holiday · Classes`.
    static func eventLine(_ e: BusyEvent, calendar: LocalCalendar) -> String {
        let when = e.allDay ? "all day    " : "\(calendar.timeOfDay(of: e.start))–\(calendar.timeOfDay(of: e.end))"
        return "  \(when)  \(Sanitized.shown(e.summary)) · \(Sanitized.shown(e.calendar))"
    }

    /// Busy time grouped under `Mon 23 Nov 2026` headings (an event spanning days under each).
    /// One pass over the events (sorted by start, then end): each is filed under the days it
    /// covers within the window, so the work grows with the events and the lines printed, never
    /// with days × events.
    static func busy(_ events: [BusyEvent], from: LocalDate, to: LocalDate, calendar: LocalCalendar) -> String {
        if events.isEmpty { return "No busy time from \(from) to \(to).\n" }
        var byDay: [Int: [Int]] = [:]
        for (i, e) in events.enumerated() {
            var first = calendar.day(of: e.start)
            var last = first
            if e.end > e.start {
                // The day holding the event's last instant: an end at midnight ends the day before.
                last = calendar.day(of: e.end)
                if calendar.startOfDay(last) >= e.end { last = last.adding(days: -1) }
            }
            first = max(first, from)
            last = min(last, to)
            guard first <= last else { continue }
            for n in first.dayNumber...last.dayNumber { byDay[n, default: []].append(i) }
        }
        if byDay.isEmpty { return "No busy time from \(from) to \(to).\n" }
        var out = ""
        for n in byDay.keys.sorted() {
            let day = LocalDate(dayNumber: n)
            if !out.isEmpty { out += "\n" }
            out += "\(RelativeTime.shortDay(day)) \(day.year)\n"
            for i in byDay[n] ?? [] { out += eventLine(events[i], calendar: calendar) + "\n" }
        }
        return out
    }

    static func text(_ a: AgendaDay, now: Date, calendar: LocalCalendar) -> String {
        var out = "\(RelativeTime.shortDay(a.day)) \(a.day.year)\n"
        // One timeline: events, blocks and sessions by start.
        var lines: [(Date, Int, String)] = []
        for e in a.events { lines.append((e.allDay ? .distantPast : e.start, 0, eventLine(e, calendar: calendar))) }
        for b in a.blocks { lines.append((b.start, 1, PlanRenderer.blockLine(b, calendar: calendar))) }
        for s in a.sessions {
            let mark = s.log.status == .completed ? "✓" : "✗"
            lines.append((s.log.startedAt, 2, "  \(calendar.timeOfDay(of: s.log.startedAt))–\(calendar.timeOfDay(of: s.log.endedAt))  \(mark) \(Sanitized.shown(s.path))  \(DurationParser.format(s.log.focusedSeconds)) focused"))
        }
        lines.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        if lines.isEmpty { out += "  Nothing scheduled.\n" }
        for line in lines { out += line.2 + "\n" }
        for d in a.due {
            out += "  Due \(calendar.timeOfDay(of: d.due)): \(Sanitized.shown("\(d.task)/\(d.subtask)"))"
            if let e = d.estimateSeconds { out += "  \(DurationParser.format(d.loggedSeconds)) / \(DurationParser.format(e))" }
            out += d.done ? "  done\n" : "\n"
        }
        out += "Free in working hours: \(DurationParser.format(a.freeSeconds))\(calendar.day(of: now) == a.day ? " left" : "").\n"
        let risks = PlanRenderer.riskLines(a.atRisk, calendar: calendar, now: now)
        if !risks.isEmpty { out += "\n" + risks }
        return out
    }
}
