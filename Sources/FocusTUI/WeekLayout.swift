import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// Week: seven days side by side on a time grid: working hours (`·`), busy time (`░`),
/// planned blocks in their task's colour (at-risk work in red), due markers (`!`).
package enum WeekLayout {
    static let gutter = 6

    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        let last = s.weekStart.adding(days: 6)
        var line = StyledLine(DisplayText("Week of \(RelativeTime.shortDay(s.weekStart)) – \(RelativeTime.shortDay(last)) \(last.year)"), .bold)
        let atRisk = Set(data.risks.map(\.subtaskID))
        let risky = data.week.flatMap(\.blocks).filter { atRisk.contains($0.subtaskID) }.count
        if !data.risks.isEmpty { line.add(" · \(data.risks.count) at risk\(risky > 0 ? " (\(Cells.count(risky, "block")))" : "")", .boldRed) }
        let free = data.week.reduce(0) { $0 + $1.freeSeconds }
        line.add(" · \(Cells.duration(free)) free")
        return line
    }

    static func body(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        let column = max(4, (width - gutter) / 7)
        var lines = [header(s, data, column: column)]
        let (first, last) = range(s, data)
        let slot = Cells.slot(for: last - first, rows: height - 3)
        let atRisk = Set(data.risks.map(\.subtaskID))
        for minute in stride(from: first, to: last, by: slot) {
            var line = StyledLine(DisplayText(TimeOfDay(minutes: minute).description + " "), .dim)
            for (index, day) in data.week.prefix(7).enumerated() {
                line.add(Cells.fit(cell(day, s, from: minute, slot: slot, atRisk: atRisk, width: column - 1), column - 1))
                line.add(index == 6 ? "" : " ")
            }
            lines.append(line)
        }
        lines.append(StyledLine())
        lines.append(footer(s, data, width: width))
        return lines
    }

    /// `Mon 7`, the selected day in brackets, today marked.
    static func header(_ s: UIState, _ data: UIData, column: Int) -> StyledLine {
        var line = StyledLine(.spaces(gutter))
        for offset in 0..<7 {
            let day = s.weekStart.adding(days: offset)
            // `Mon 23`, or `Mo 23` where a column is too narrow for it in brackets.
            let parts = RelativeTime.shortDay(day).split(separator: " ")
            let name = (column >= 9 ? String(parts[0]) : String(parts[0].prefix(2))) + " " + parts[1]
            let selected = offset == s.weekDay
            let text = selected ? "[\(name)]" : " \(name)\(day == s.today ? "*" : "")"
            line.add(Cells.fit(StyledLine(DisplayText(text), selected ? .boldCyan : day == s.today ? .bold : .plain), column))
        }
        return line
    }

    /// The minutes of the day the grid covers: the widest working hours of the week, widened
    /// to its blocks and timed events.
    static func range(_ s: UIState, _ data: UIData) -> (Int, Int) {
        var start = 24 * 60, end = 0
        for day in data.week {
            let items = TodayLayout.items(day)
            let r = TodayLayout.range(s, day, items: items)
            start = min(start, r.start)
            end = max(end, r.end)
        }
        return start < end ? (start, end) : (8 * 60, 18 * 60)
    }

    /// What one day shows in one slot: a due marker, a block, busy time, free working time.
    static func cell(_ day: AgendaDay, _ s: UIState, from minute: Int, slot: Int, atRisk: Set<Int64>, width: Int) -> StyledLine {
        let start = s.calendar.startOfDay(day.day)
        let a = start.addingTimeInterval(Double(minute * 60)), b = start.addingTimeInterval(Double((minute + slot) * 60))
        if let due = day.due.first(where: { $0.due > a && $0.due <= b }) {
            return StyledLine("! \(shown: due.subtask, columns: 40)", .boldRed)
        }
        if let block = day.blocks.first(where: { $0.start < b && $0.end > a }) {
            let style = atRisk.contains(block.subtaskID) ? StyledLine.Style.boldRed : Cells.style(forTask: block.task)
            if block.start >= a || minute == 0 { return StyledLine("\(shown: block.subtask, columns: 40)", style) }
            return StyledLine(DisplayText(trusted: String(repeating: "█", count: width)), style)
        }
        if let event = day.events.first(where: { !$0.allDay && $0.start < b && $0.end > a }) {
            if event.start >= a { return StyledLine("\(shown: event.summary, columns: 40)", .dim) }
            return StyledLine(DisplayText(trusted: String(repeating: "░", count: width)), .dim)
        }
        if let hours = day.hours, minute >= hours.start.minutes, minute < (hours.end.minutes <= hours.start.minutes ? 1440 : hours.end.minutes) {
            return StyledLine("·", .dim)
        }
        return StyledLine()
    }

    /// The selected day: its blocks, busy time, free time and what is due.
    static func footer(_ s: UIState, _ data: UIData, width: Int) -> StyledLine {
        guard data.week.indices.contains(s.weekDay) else { return StyledLine() }
        let day = data.week[s.weekDay]
        var line = StyledLine(DisplayText(RelativeTime.shortDay(day.day) + ": "), .bold)
        line.add(DisplayText("\(Cells.count(day.blocks.count, "block")) · \(Cells.count(day.events.count, "event")) · "
                             + (day.hours == nil ? "day off" : "\(Cells.duration(day.freeSeconds)) free")))
        if !day.due.isEmpty { line.add(" · due: \(shown: day.due.map(\.subtask).joined(separator: ", "), columns: 60)", .yellow) }
        return line
    }
}
