import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// A row of the task tree.
package enum TaskRow {
    case task(TaskOverview)
    case subtask(TaskOverview, SubtaskOverview)

    package var key: String {
        switch self {
        case let .task(t): "task \(t.task.id ?? 0) \(t.task.title)"
        case let .subtask(_, s): "subtask \(s.subtask.id ?? 0) \(s.subtask.title)"
        }
    }
}

/// Tasks: the task → subtask tree (due, logged against estimate as a bar, priority, at risk)
/// and the selected row's details.
package enum TasksLayout {
    /// Tasks in `task list`'s order, each followed by its subtasks.
    package static func rows(_ tasks: [TaskOverview]) -> [TaskRow] {
        tasks.flatMap { t in [TaskRow.task(t)] + t.subtasks.map { TaskRow.subtask(t, $0) } }
    }

    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        if let search = s.search {
            var line = StyledLine("/", .boldCyan)
            line.add("\(shown: search, columns: 60)")
            if s.searching { line.add("▏", .boldCyan) }
            line.add(DisplayText(" · " + Cells.count(data.tasks.count, "task")), .dim)
            return line
        }
        let open = data.tasks.flatMap(\.subtasks).filter { !$0.subtask.done }.count
        var line = StyledLine(DisplayText(Cells.count(data.tasks.count, "task") + " · " + Cells.count(open, "open subtask")), .bold)
        if !data.risks.isEmpty { line.add(" · \(data.risks.count) at risk", .boldRed) }
        return line
    }

    static func body(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        let rows = rows(data.tasks)
        guard !rows.isEmpty else {
            if s.search != nil { return [StyledLine("No open tasks match.")] }
            return [StyledLine("No open tasks."), StyledLine("Add one with `focus task add \"Thesis/Chapter 2\" --estimate 6h --due fri`.", .dim)]
        }
        let selected = min(s.selected(.tasks), rows.count - 1)
        let risky = Set(data.risks.map(\.subtaskID))
        let sideBySide = width >= 110
        let listWidth = sideBySide ? width * 60 / 100 : width
        let listHeight = sideBySide ? height : max(3, height - 8)
        let first = max(0, selected - listHeight + 1)
        let list = rows[first..<min(rows.count, first + listHeight)].enumerated().map { offset, row in
            line(row, selected: first + offset == selected, risky: risky, s, width: listWidth)
        }
        let all = detailLines(s, data)
        let details = Array(all.dropFirst(min(s.paneCursor[.tasks] ?? 0, max(0, all.count - 1))))
        let focused = s.otherPane.contains(.tasks)
        if sideBySide { return Cells.beside(list, details, leftWidth: listWidth, height: height, rightFocused: focused) }
        let rule = StyledLine(DisplayText(trusted: String(repeating: focused ? "━" : "─", count: width)), focused ? .boldCyan : .dim)
        return list + Array(repeating: StyledLine(), count: listHeight - list.count) + [rule] + details
    }

    /// The selected row's details, as wide as their pane (what h/l and j/k move through).
    static func detailLines(_ s: UIState, _ data: UIData) -> [StyledLine] {
        let rows = rows(data.tasks)
        guard !rows.isEmpty else { return [] }
        let width = s.width >= 110 ? s.width - s.width * 60 / 100 - 3 : s.width
        return details(rows[min(s.selected(.tasks), rows.count - 1)], s, data, width: width)
    }

    /// `▶   Chapter 2      Fri 27 Nov   2h/6h ███░░░░░ high at risk`.
    static func line(_ row: TaskRow, selected: Bool, risky: Set<Int64>, _ s: UIState, width: Int) -> StyledLine {
        var line = StyledLine(selected ? "▶ " : "  ", .boldCyan)
        switch row {
        case let .task(t):
            line.add("\(shown: t.task.title)", selected ? .boldCyan : .bold)
            line.add(DisplayText("  \(Cells.duration(t.loggedSeconds)) logged"), .dim)
        case let .subtask(_, o):
            let sub = o.subtask
            let high = sub.priority != .normal ? " " + sub.priority.name : ""
            let risk = risky.contains(sub.id ?? -1) ? " at risk" : ""
            let columns = 1 + 10 + 1 + 11 + 1 + 8 + TerminalText.width(high + risk)
            let title = Cells.fit(StyledLine("  \(sub.done ? "✓ " : "")\(shown: sub.title)", selected ? .boldCyan : sub.done ? .dim : .plain),
                                  max(8, width - 2 - columns))
            line.add(title)
            let due = sub.due.map { RelativeTime.shortDay(s.calendar.day(of: $0.addingTimeInterval(-1))) } ?? ""
            line.add(DisplayText(" " + TerminalText.padRight(due, 10)), sub.due.map { $0 <= s.now } == true ? .red : .plain)
            let amount = Cells.duration(o.loggedSeconds) + (sub.estimateSeconds.map { "/" + Cells.duration($0) } ?? "")
            line.add(DisplayText(" " + TerminalText.padRight(amount, 11)))
            line.add(DisplayText(" " + (sub.estimateSeconds.map { Cells.bar(o.loggedSeconds, of: $0, width: 8) } ?? "        ")), .green)
            line.add(DisplayText(high), .yellow)
            line.add(DisplayText(risk), .boldRed)
        }
        return line
    }

    static func details(_ row: TaskRow, _ s: UIState, _ data: UIData, width: Int) -> [StyledLine] {
        switch row {
        case let .task(t):
            var lines = [StyledLine("\(shown: t.task.title)", .bold)]
            lines.append(StyledLine(DisplayText("\(Cells.count(t.subtasks.count, "subtask")) · \(Cells.duration(t.loggedSeconds)) logged in "
                                                + Cells.count(t.sessionCount, "session"))))
            if let notes = t.task.notes { lines += Cells.wrap(notes, width: width, style: .dim) }
            return lines
        case let .subtask(t, o):
            var lines = [StyledLine("\(shown: t.task.title)/\(shown: o.subtask.title)", .bold)]
            if let notes = o.subtask.notes { lines += Cells.wrap(notes, width: width, style: .dim) }
            lines += TodayLayout.work(o.subtask.id ?? -1, s, data, width: width).dropFirst()
            let blocks = data.week.flatMap(\.blocks).filter { $0.subtaskID == o.subtask.id && $0.end > s.now }
            if !blocks.isEmpty {
                let next = blocks.prefix(3).map { "\(RelativeTime.shortDay(s.calendar.day(of: $0.start))) \(Cells.time($0.start, s.calendar))" }
                lines.append(StyledLine(DisplayText("Blocks this week: " + next.joined(separator: ", ") + (blocks.count > 3 ? ", …" : ""))))
            }
            return lines
        }
    }
}
