import FocusCore
import FocusRendering
import FocusText
import FoundationEssentials

/// Stats: focus per day as stacked bars (each task in its colour) and the share by task, for
/// the last 7, 14 or 30 days, from the report `focus stats --last N` prints.
package enum StatsLayout {
    static let eighths = ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        let r = data.stats
        let days = s.statsRange != nil && data.statsProblem == nil ? "\(r.days.count) days" : "Last \(r.days.count) days"
        var line = StyledLine(DisplayText("\(days) · \(RelativeTime.shortDay(r.window.from)) – \(RelativeTime.shortDay(r.window.to))"), .bold)
        line.add(DisplayText(trusted: " · \(Cells.duration(r.totals.focusedSeconds)) focused · \(r.totals.completed) ✓ \(r.totals.interrupted) ✗"))
        return line
    }

    static func body(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        // A task drilled into (Enter) is named first, with the way back.
        var said: [StyledLine] = []
        if let task = data.stats.taskFilter {
            var line = StyledLine(DisplayText("\(shown: task)"), .boldCyan)
            line.add(" · its days and subtasks · Esc: all tasks", .dim)
            said.append(Cells.fit(line, width))
        }
        // A range (or a task) that could not be read says why above what is shown instead.
        if let problem = data.statsProblem { said += Cells.wrap(problem, width: width, style: .boldRed) }
        return said + window(s, data, width: width, height: max(1, height - said.count))
    }

    /// The rows of the share list: the tasks, or inside one task's stats (`stats --task`) its
    /// subtasks (the task's own sessions count in its bars only, as in `focus stats`).
    package static func shares(_ report: StatsReport) -> [TaskStats] {
        guard report.taskFilter != nil else { return report.tasks }
        return report.tasks.flatMap { task in
            task.subtasks.map { TaskStats(task: $0.subtask, focusedSeconds: $0.focusedSeconds, completed: $0.completed,
                                          interrupted: $0.interrupted, subtasks: []) }
        }
    }

    static func window(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        let report = data.stats
        if report.isEmpty { return [StyledLine("No sessions in these days. Start one with `focus start`.", .dim)] }
        let chartHeight = max(3, min(10, height / 2 - 2))
        var lines = chart(report, width: width, height: chartHeight)
        if s.otherPane.contains(.stats), !report.days.isEmpty {
            // The bars have the keys: the day picked, its focus and the tasks in it.
            let day = report.days[min(s.paneCursor[.stats] ?? report.days.count - 1, report.days.count - 1)]
            lines.append(StyledLine("▶ \(RelativeTime.shortDay(day.date)): \(Cells.duration(day.focusedSeconds)) focus", .boldCyan))
        } else {
            lines.append(StyledLine())
        }
        let drilled = report.taskFilter != nil
        lines.append(StyledLine(drilled ? "Share by subtask" : "Share by task", s.otherPane.contains(.stats) ? .dim : .bold))
        let rows = shares(report)
        if rows.isEmpty { lines.append(Cells.fit(StyledLine("  No subtask has time in these days; the task's own are in the bars.", .dim), width)) }
        let room = max(1, height - lines.count)
        let selected = min(s.selected(.stats), max(0, rows.count - 1))
        let first = max(0, selected - room + 1)
        for (index, task) in rows.enumerated().dropFirst(first).prefix(room) {
            lines.append(share(task, total: report.totals.focusedSeconds, selected: index == selected, width: width))
        }
        return lines
    }

    /// One column of bars per day, stacked by task from the bottom; the tallest day's focus on
    /// the axis; the days' numbers under them.
    static func chart(_ report: StatsReport, width: Int, height: Int) -> [StyledLine] {
        let axis = 8
        let column = max(1, min(4, (width - axis) / max(1, report.days.count)))
        let top = max(1, report.days.map(\.focusedSeconds).max() ?? 1)
        var lines: [StyledLine] = []
        for level in (0..<height).reversed() {
            let label = level == height - 1 ? Cells.duration(top) : level == 0 ? "0" : ""
            var line = StyledLine(DisplayText(TerminalText.padLeft(label, axis - 2) + " │"), .dim)
            for day in report.days {
                line.add(cell(day, level: level, height: height, top: top, width: max(1, column - 1)))
                if column > 1 { line.add(" ") }
            }
            lines.append(line)
        }
        var labels = StyledLine(DisplayText(TerminalText.spaces(axis - 1) + "└"), .dim)
        for (index, day) in report.days.enumerated() {
            let text = column >= 3 || index % 7 == 0 ? String(day.date.day) : ""
            labels.add(Cells.fit(StyledLine(DisplayText(text), .dim), column))
        }
        lines.append(labels)
        return lines
    }

    /// The cell of `day`'s bar at `level` (0 at the bottom): whole, an eighth-block top, or empty,
    /// in the colour of the task whose time reaches that height.
    static func cell(_ day: StatsDay, level: Int, height: Int, top: Int, width: Int) -> StyledLine {
        let eighthsTall = Int((Double(day.focusedSeconds) / Double(top) * Double(height * 8)).rounded())
        let here = eighthsTall - level * 8
        guard here > 0 else { return StyledLine(.spaces(width)) }
        let glyph = eighths[min(8, here)]
        // The task at this height: the slices stacked in report order.
        let middle = (Double(level) + 0.5) / Double(height) * Double(top)
        var reach = 0.0
        var task = day.taskSeconds.last?.task ?? ""
        for slice in day.taskSeconds {
            reach += Double(slice.focusedSeconds)
            if reach >= middle { task = slice.task; break }
        }
        return StyledLine(DisplayText(trusted: String(repeating: glyph, count: width)), Cells.style(forTask: task))
    }

    /// `▶ Thesis        ███████░░░░░  62%  7h 45m  5 ✓ 1 ✗`.
    static func share(_ task: TaskStats, total: Int, selected: Bool, width: Int) -> StyledLine {
        var line = StyledLine(selected ? "▶ " : "  ", .boldCyan)
        let name = max(10, min(24, width / 4))
        line.add(Cells.fit(StyledLine("\(shown: task.task)", selected ? .boldCyan : .plain), name))
        let percent = total > 0 ? Int((Double(task.focusedSeconds) * 100 / Double(total)).rounded()) : 0
        line.add(DisplayText(" " + Cells.bar(task.focusedSeconds, of: total, width: 12)), Cells.style(forTask: task.task))
        line.add(DisplayText(trusted: " " + TerminalText.padLeft("\(percent)%", 4) + "  " + TerminalText.padRight(Cells.duration(task.focusedSeconds), 8)
                             + " \(task.completed) ✓ \(task.interrupted) ✗"))
        return line
    }
}
