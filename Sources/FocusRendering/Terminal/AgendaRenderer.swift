import FocusText
import FocusCore
import FoundationEssentials

/// `focus agenda` and `focus calendar busy` as text. Pure builders.
package enum AgendaRenderer {
    /// `  09:00–10:30  Math 101 · Classes`, or `  all day      Holiday · Classes`.
    package static func eventLine(_ e: BusyEvent, calendar: LocalCalendar) -> DisplayText {
        let when = e.allDay ? "all day    " : "\(calendar.timeOfDay(of: e.start))–\(calendar.timeOfDay(of: e.end))"
        return "  \(when)  \(shown: e.summary) · \(shown: e.calendar)"
    }

    /// Busy time grouped under `Mon 23 Nov 2026` headings (an event spanning days under each).
    /// One pass over the events (sorted by start, then end): each is filed under the days it
    /// covers within the window, so the work grows with the events and the lines printed, never
    /// with days × events.
    package static func busy(_ events: [BusyEvent], from: LocalDate, to: LocalDate, calendar: LocalCalendar) -> DisplayText {
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
        var out: DisplayText = ""
        for n in byDay.keys.sorted() {
            let day = LocalDate(dayNumber: n)
            let bounds = DateInterval(start: calendar.startOfDay(day), end: calendar.startOfDay(day.adding(days: 1)))
            if !out.isEmpty { out += "\n" }
            out += "\(RelativeTime.shortDay(day)) \(day.year)\n"
            // By when each covers this day: an event from the night before comes first.
            let today = (byDay[n] ?? []).sorted {
                let a = max(events[$0].start, bounds.start), b = max(events[$1].start, bounds.start)
                return a != b ? a < b : $0 < $1
            }
            for i in today { out += "\(eventLine(events[i], on: bounds, calendar: calendar))\n" }
        }
        return out
    }

    /// An event as one day of the agenda shows it: `  23:00–(01:30)  Night shift · Work` on the
    /// day it starts, `  (23:00)–01:30  …` on the day it ends (the times in parentheses are on
    /// another day), and `  12:00 · Release branch cut · Work` for a moment (no length).
    package static func eventLine(_ e: BusyEvent, on day: DateInterval, calendar: LocalCalendar) -> DisplayText {
        if e.allDay { return eventLine(e, calendar: calendar) }
        if e.end <= e.start {
            return "  \(time(e.start, outside: e.start < day.start, calendar)) · \(shown: e.summary) · \(shown: e.calendar)"
        }
        return "  \(span(e.start, e.end, on: day, calendar))  \(shown: e.summary) · \(shown: e.calendar)"
    }

    /// `09:00–10:30`, a time on another day than `day` in parentheses: `23:00–(01:30)`.
    package static func span(_ start: Date, _ end: Date, on day: DateInterval, _ calendar: LocalCalendar) -> String {
        "\(time(start, outside: start < day.start, calendar))–\(time(end, outside: end > day.end, calendar))"
    }

    private static func time(_ t: Date, outside: Bool, _ calendar: LocalCalendar) -> String {
        outside ? "(\(calendar.timeOfDay(of: t)))" : "\(calendar.timeOfDay(of: t))"
    }

    /// A session as one day of the agenda shows it: `  09:00–09:25  ✓ Thesis/Chapter 2  25m focused`;
    /// one that crosses midnight (or a forgotten timer over several days) is on every day it
    /// covers, its times on another day in parentheses as for events, with that day's share of
    /// its focus (spread in proportion to wall time, as the stats count it).
    package static func sessionLine(_ log: TimeLog, path: DisplayText, on day: DateInterval, calendar: LocalCalendar) -> DisplayText {
        let mark = SessionMark.of(log.status)
        let focused = DurationParser.format(log.focusedSeconds)
        var said = "\(focused) focused"
        if log.startedAt < day.start || log.endedAt > day.end {
            let share = StatsMath.seconds(StatsMath.focusInside(focused: log.focusedSeconds, start: log.startedAt, end: log.endedAt,
                                                                from: day.start, to: day.end))
            said = "\(DurationParser.format(share)) of \(focused) focused this day"
        }
        return "  \(span(log.startedAt, log.endedAt, on: day, calendar))  \(mark) \(path)  \(said)"
    }

    /// `focus agenda` for one day or more: a note for each live calendar whose copy is too old
    /// (the days' free time may not be true), the days an empty line apart, then the work
    /// overdue and at risk.
    package static func text(_ days: [AgendaDay], staleNotes: [String], overdue: [OverdueView], atRisk: [RiskView], now: Date,
                             calendar: LocalCalendar) -> DisplayText {
        var out = DisplayText.joined(staleNotes.map { "Note: \($0).\n" })
        out += DisplayText.joined(days.map { text($0, now: now, calendar: calendar) }, separator: "\n")
        for section in [PlanRenderer.overdueLines(overdue, calendar: calendar, now: now),
                        PlanRenderer.riskLines(atRisk, calendar: calendar, now: now)] where !section.isEmpty {
            out += "\n\(section)"
        }
        return out
    }

    package static func text(_ a: AgendaDay, now: Date, calendar: LocalCalendar) -> DisplayText {
        var out: DisplayText = "\(RelativeTime.shortDay(a.day)) \(a.day.year)\n"
        // One timeline: events, blocks and sessions by when they cover this day.
        let day = DateInterval(start: calendar.startOfDay(a.day), end: calendar.startOfDay(a.day.adding(days: 1)))
        var lines: [(Date, Int, DisplayText)] = []
        for e in a.events { lines.append((e.allDay ? .distantPast : max(e.start, day.start), 0, eventLine(e, on: day, calendar: calendar))) }
        for e in a.declined { lines.append((max(e.start, day.start), 0, "\(eventLine(e, on: day, calendar: calendar))  (declined: free)")) }
        for b in a.blocks { lines.append((b.start, 1, PlanRenderer.blockLine(b, calendar: calendar))) }
        for s in a.sessions { lines.append((max(s.log.startedAt, day.start), 2, sessionLine(s.log, path: DisplayText(shown: s.path), on: day, calendar: calendar))) }
        lines.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        if lines.isEmpty { out += "  Nothing scheduled.\n" }
        for line in lines { out += "\(line.2)\n" }
        for d in a.due {
            out += "  Due \(DueText.time(of: d.due, on: a.day, calendar: calendar)): \(shown: "\(d.task)/\(d.subtask)")"
            if let e = d.estimateSeconds { out += "  \(DurationParser.format(d.loggedSeconds)) / \(DurationParser.format(e))" }
            out += d.done ? "  done\n" : "\n"
        }
        if a.hours == nil {
            out += "Day off: nothing is planned.\n"
        } else {
            out += "Free in working hours: \(DurationParser.format(a.freeSeconds))\(calendar.day(of: now) == a.day ? " left" : "").\n"
        }
        return out
    }
}
