import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// One thing on the day's timeline.
package enum TodayItem {
    case event(BusyEvent)
    case block(BlockView)
    case session(SessionEntry)

    package var start: Date {
        switch self {
        case let .event(e): e.start
        case let .block(b): b.start
        case let .session(s): s.log.startedAt
        }
    }

    package var end: Date {
        switch self {
        case let .event(e): max(e.start, e.end)
        case let .block(b): b.end
        case let .session(s): s.log.endedAt
        }
    }

    /// What stays the same across reloads: the row's id, or its times and name.
    package var key: String {
        switch self {
        case let .event(e): "event \(e.start.timeIntervalSince1970) \(e.summary)"
        case let .block(b): b.id.map { "block \($0)" } ?? "block \(b.start.timeIntervalSince1970) \(b.subtaskID)"
        case let .session(s): s.log.id.map { "session \($0)" } ?? "session \(s.log.startedAt.timeIntervalSince1970)"
        }
    }

    /// Sessions over blocks over busy time, where they share a row.
    var rank: Int {
        switch self {
        case .session: 0
        case .block: 1
        case .event: 2
        }
    }
}

/// Today: the day's timeline (busy time, blocks, sessions, a now-line) beside the selected
/// item's details.
package enum TodayLayout {
    /// The day's items by start (all-day events are in the heading, not here).
    package static func items(_ day: AgendaDay) -> [TodayItem] {
        let all = day.events.filter { !$0.allDay }.map(TodayItem.event) + day.blocks.map(TodayItem.block)
            + day.sessions.map(TodayItem.session)
        return all.enumerated().sorted { a, b in
            if a.element.start != b.element.start { return a.element.start < b.element.start }
            if a.element.rank != b.element.rank { return a.element.rank < b.element.rank }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// `Mon 7 Dec 2026 · 3h 20m free · due: Thesis/Chapter 2`.
    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        let day = data.day
        var line = StyledLine(DisplayText(RelativeTime.shortDay(day.day) + " \(day.day.year)"), .bold)
        if day.day == s.today { line.add(" (today)") }
        line.add(day.hours == nil ? " · day off" : " · \(Cells.duration(day.freeSeconds)) free")
        let allDay = day.events.filter(\.allDay)
        if !allDay.isEmpty { line.add(" · all day: \(shown: allDay.map(\.summary).joined(separator: ", "), columns: 60)") }
        if !day.due.isEmpty { line.add(" · due: \(shown: day.due.map { "\($0.task)/\($0.subtask)" }.joined(separator: ", "), columns: 60)", .yellow) }
        return line
    }

    static func body(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        let leftWidth = max(34, width * 55 / 100)
        let items = items(data.day)
        let selected = items.isEmpty ? nil : min(s.selected(.today), items.count - 1)
        let left = timeline(s, data, items: items, selected: selected, rows: height, width: leftWidth)
        let right = detailLines(s, data)
        let first = min(s.paneCursor[.today] ?? 0, max(0, right.count - 1))
        return Cells.beside(left, Array(right.dropFirst(first)), leftWidth: leftWidth, height: height,
                            rightFocused: s.otherPane.contains(.today))
    }

    /// The selected item's details, as wide as the right pane (what h/l and j/k move through).
    static func detailLines(_ s: UIState, _ data: UIData) -> [StyledLine] {
        let leftWidth = max(34, s.width * 55 / 100)
        let items = items(data.day)
        guard !items.isEmpty else { return [StyledLine("Nothing planned or recorded on this day.", .dim)] }
        return details(items[min(s.selected(.today), items.count - 1)], s, data, width: s.width - leftWidth - 3)
    }

    /// The minutes of the day the timeline covers: the working hours, widened to the items.
    static func range(_ s: UIState, _ day: AgendaDay, items: [TodayItem]) -> (start: Int, end: Int) {
        var start = day.hours?.start.minutes ?? 8 * 60
        var end = day.hours.map { $0.end.minutes <= $0.start.minutes ? 1440 : $0.end.minutes } ?? 18 * 60
        let dayStart = s.calendar.startOfDay(day.day)
        for item in items {
            let a = max(0, Int(item.start.timeIntervalSince(dayStart) / 60))
            let b = min(1440, Int((item.end.timeIntervalSince(dayStart) / 60).rounded(.up)))
            start = min(start, a)
            end = max(end, b)
        }
        return (start / 60 * 60, min(1440, (end + 59) / 60 * 60))
    }

    static func timeline(_ s: UIState, _ data: UIData, items: [TodayItem], selected: Int?, rows: Int, width: Int) -> [StyledLine] {
        let (first, last) = range(s, data.day, items: items)
        let slot = Cells.slot(for: last - first, rows: rows - 1)
        let dayStart = s.calendar.startOfDay(data.day.day)
        var lines: [StyledLine] = []
        var shown = Set<Int>()
        for minute in stride(from: first, to: last, by: slot) {
            let a = dayStart.addingTimeInterval(Double(minute * 60))
            let b = dayStart.addingTimeInterval(Double(min(last, minute + slot) * 60))
            let here = items.indices.filter { items[$0].start < b && (items[$0].end > a || items[$0].start >= a) }
            // The selected item, else one that starts here (its name is news), else the one on top.
            let starting = here.filter { !shown.contains($0) }
            let pick = here.first { $0 == selected } ?? (starting.isEmpty ? here : starting).min { items[$0].rank < items[$1].rank }
            var line = row(at: a, pick.map { (items[$0], $0 == selected, !shown.contains($0)) }, calendar: s.calendar)
            // Items that share the slot with the one drawn: counted, and reached with j/k.
            if here.count > 1 { line.add(DisplayText(trusted: " +\(here.count - 1)"), .dim) }
            lines.append(line)
            if let pick { shown.insert(pick) }
            if s.now >= a, s.now < b { lines.append(nowLine(s, width: width)) }
        }
        return lines
    }

    /// `──── 10:40 now ─────…` across the timeline.
    static func nowLine(_ s: UIState, width: Int) -> StyledLine {
        let text = "──── \(Cells.time(s.now, s.calendar)) now "
        return StyledLine(DisplayText(trusted: text + String(repeating: "─", count: max(0, width - TerminalText.width(text)))), .boldRed)
    }

    /// `▶09:00 █ Thesis/Chapter 2 09:00–10:30`: the slot's time, the item's mark, and its name
    /// on the first row it takes.
    static func row(at time: Date, _ item: (TodayItem, Bool, Bool)?, calendar: LocalCalendar) -> StyledLine {
        var line = StyledLine(item?.1 == true ? "▶" : " ", .boldCyan)
        line.add(DisplayText(Cells.time(time, calendar) + " "), .dim)
        guard let item else { return line }
        let (entry, _, first) = item
        let when = "\(Cells.time(entry.start, calendar))–\(Cells.time(entry.end, calendar))"
        switch entry {
        case let .event(e):
            line.add("░ ", .dim)
            if first { line.add("\(shown: e.summary) \(when)", .dim) }
        case let .block(b):
            let style = Cells.style(forTask: b.task)
            line.add("█ ", style)
            if first { line.add("\(shown: b.path) \(when)\(b.status == .planned ? "" : " \(b.status.rawValue)")", style) }
        case let .session(e):
            let mark = SessionMark.of(e.log.status)
            line.add(DisplayText(trusted: first ? mark + " " : "│ "), e.log.status == .completed ? .green : e.log.status == .open ? .yellow : .red)
            if first { line.add("\(shown: e.path) \(when) \(Cells.duration(e.log.focusedSeconds))") }
        }
        return line
    }

    /// The selected item: what and when, and for work its due date, logged time against the
    /// estimate and, when it does not fit, the planner's own sentence.
    static func details(_ item: TodayItem, _ s: UIState, _ data: UIData, width: Int) -> [StyledLine] {
        let when = "\(Cells.time(item.start, s.calendar))–\(Cells.time(item.end, s.calendar))"
        var lines: [StyledLine] = []
        switch item {
        case let .event(e):
            lines.append(StyledLine("Busy", .bold))
            lines += Cells.wrap(e.summary, width: width)
            lines.append(StyledLine("\(when) · \(shown: e.calendar, columns: 40)"))
        case let .block(b):
            lines.append(StyledLine("Planned block · \(b.status.rawValue)", .bold))
            lines += Cells.wrap(b.path, width: width, style: Cells.style(forTask: b.task))
            lines.append(StyledLine(DisplayText(when + " · " + Cells.duration(Int(b.end.timeIntervalSince(b.start))))))
            lines += work(b.subtaskID, s, data, width: width)
            if b.status == .planned, let found = data.tasks.lazy.flatMap(\.subtasks).first(where: { $0.subtask.id == b.subtaskID }) {
                lines += Cells.wrap(placement(b, found.subtask, s), width: width, style: .dim)
            }
        case let .session(e):
            lines.append(StyledLine(DisplayText(trusted: "Session \(SessionMark.of(e.log.status)) \(e.log.status.rawValue)"), .bold))
            lines += Cells.wrap(e.path, width: width)
            lines.append(StyledLine(DisplayText("\(when) · \(Cells.duration(e.log.focusedSeconds)) focused")))
            if let note = e.log.note { lines += Cells.wrap("“\(note)”", width: width, style: .dim) }
            if let id = e.log.subtaskID { lines += work(id, s, data, width: width) }
        }
        return lines
    }

    /// Why a planned block is where it is, from the values the planner placed it by (README,
    /// "Planning"): a pinned block stays where it was moved; any other is in the earliest free
    /// time the planner found before the due date, not before the subtask's start date and
    /// earliest time of day.
    static func placement(_ b: BlockView, _ sub: Subtask, _ s: UIState) -> String {
        if b.pinnedUID != nil { return "Here because it is pinned: it was moved in your calendar, and the planner leaves it where it was put." }
        var text = "Here because it is the earliest free time"
        if let due = sub.due { text += " before its due date, \(RelativeTime.shortDateTime(due, calendar: s.calendar, now: s.now))" }
        var after: [String] = []
        if let start = sub.startDate { after.append("its start date, \(start)") }
        if let earliest = sub.earliest { after.append("its earliest time, \(earliest)") }
        if !after.isEmpty { text += ", after " + after.joined(separator: " and ") }
        if let span = sub.spanSeconds { text += "; at most \(Cells.duration(span)) a sitting (its span)" }
        return text + "."
    }

    /// A subtask's due date, logged time against its estimate, and its risk.
    static func work(_ subtaskID: Int64, _ s: UIState, _ data: UIData, width: Int) -> [StyledLine] {
        var lines: [StyledLine] = [StyledLine()]
        let found = data.tasks.lazy.flatMap(\.subtasks).first { $0.subtask.id == subtaskID }
        if let found {
            if let due = found.subtask.due {
                lines.append(StyledLine(DisplayText("Due \(RelativeTime.shortDateTime(due, calendar: s.calendar, now: s.now)) "
                                                    + "(\(RelativeTime.due(due, now: s.now, calendar: s.calendar)))")))
            }
            let estimate = found.subtask.estimateSeconds
            var logged = StyledLine(DisplayText("Logged \(Cells.duration(found.loggedSeconds))"
                                                + (estimate.map { " of \(Cells.duration($0))" } ?? "")))
            if let estimate { logged.add(DisplayText(" " + Cells.bar(found.loggedSeconds, of: estimate, width: 8)), .green) }
            lines.append(logged)
        }
        let risks = data.risks.filter { $0.subtaskID == subtaskID }
        if !risks.isEmpty {
            let sentence = PlanRenderer.riskLines(risks, calendar: s.calendar, now: s.now).string
                .split(separator: "\n").dropFirst().map { String($0).trimmingSpaces() }.joined(separator: " ")
            lines += Cells.wrap("At risk: " + sentence, width: width, style: .boldRed)
        }
        return lines
    }
}
