import FocusCore
import FocusText
import FoundationEssentials

/// The terminal charts of `focus stats` by task (README, "Stats"): each day's bar drawn in
/// segments, one per task, and a share-by-task bar chart, as the HTML report's stacked bars
/// and share chart. With colour each task has a colour and the legend shows it; without colour
/// (NO_COLOR, TERM=dumb, not a terminal) each task has a letter, drawn in its segments.
///
/// The first `StatsTaskChart.named` tasks with focus (in the report's order: most time first)
/// have a mark of their own; the others share one (`+`, "other"). Pure: strings for a width.
package struct StatsTaskChart: Sendable {
    /// One mark of the chart: a task, or the tasks beyond the named ones.
    package struct Group: Sendable, Equatable {
        package var name: String
        package var letter: String
        package var style: StyledLine.Style
        package var seconds: Int
    }

    /// Tasks with a mark of their own.
    package static let named = 6
    private static let palette: [StyledLine.Style] = [.cyan, .magenta, .yellow, .blue, .green, .red]
    private static let letters = ["A", "B", "C", "D", "E", "F"]
    /// Eighths of a cell, from one eighth to seven.
    private static let partialBlocks = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    package let color: Bool
    package private(set) var groups: [Group] = []
    /// The group of each task title.
    private var groupOf: [String: Int] = [:]

    package init(_ report: StatsReport, color: Bool) {
        self.color = color
        var other = Group(name: "other", letter: "+", style: .dim, seconds: 0)
        for task in report.tasks where task.focusedSeconds > 0 {
            if groups.count < Self.named {
                groupOf[task.task] = groups.count
                groups.append(Group(name: task.task, letter: Self.letters[groups.count], style: Self.palette[groups.count],
                                    seconds: task.focusedSeconds))
            } else {
                groupOf[task.task] = Self.named
                other.seconds += task.focusedSeconds
            }
        }
        if other.seconds > 0 { groups.append(other) }
    }

    /// The cells of a group in a bar: a block in its colour, or its letter without colour.
    private func cells(_ group: Group, _ count: Int) -> DisplayText {
        DisplayText(String(repeating: color ? "█" : group.letter, count: count))
    }

    /// A day's bar of `cells` whole cells, cut into the day's tasks in proportion to their time
    /// (largest remainders get the leftover cells), in the order of the legend.
    package func dayBar(_ day: StatsDay, cells total: Int) -> StyledLine {
        var seconds = [Int](repeating: 0, count: groups.count)
        for slice in day.taskSeconds {
            if let g = groupOf[slice.task] { seconds[g] += slice.focusedSeconds }
        }
        let sum = seconds.reduce(0, +)
        var line = StyledLine()
        guard sum > 0, total > 0 else { return line }
        let exact = seconds.map { Double($0) * Double(total) / Double(sum) }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { a, b in
            let ra = exact[a] - Double(counts[a]), rb = exact[b] - Double(counts[b])
            return ra != rb ? ra > rb : a < b
        }
        for g in order.prefix(total - counts.reduce(0, +)) { counts[g] += 1 }
        for (g, count) in counts.enumerated() where count > 0 { line.add(cells(groups[g], count), groups[g].style) }
        return line
    }

    /// The legend under the day bars: `A Thesis · B Reading` (`█ Thesis  █ Reading` in
    /// colour), wrapped to `width` columns, each line indented by `indent`.
    package func legend(width: Int, indent: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        var line = StyledLine(.spaces(indent))
        var used = indent
        let room = max(8, width - indent)
        for group in groups {
            let name = DisplayText(group.name).truncated(to: max(4, room - 2))
            let entry = 2 + TerminalText.width(name.string)
            let separator = used > indent ? 3 : 0
            if used > indent, used + separator + entry > width {
                lines.append(line)
                line = StyledLine(.spaces(indent))
                used = indent
            }
            if used > indent { line.add(color ? "   " : " · ") }
            line.add(color ? "█" : DisplayText(group.letter), group.style)
            line.add(" \(name)")
            used += (used > indent ? 3 : 0) + entry
        }
        if used > indent { lines.append(line) }
        return lines
    }

    /// The share-by-task chart: a heading, then one bar a task (the widest 100%), with its
    /// share of the window's focus. Fits `width` columns.
    package func shareChart(total: Int, width: Int) -> [StyledLine] {
        guard total > 0, !groups.isEmpty else { return [] }
        let names: [DisplayText] = groups.map { "\(color ? "" : $0.letter + " ")\($0.name)" }
        let nameWidth = min(names.map { TerminalText.width($0.string) }.max() ?? 4, max(8, width / 3))
        let percents = groups.map { "\(StatsMath.percent($0.seconds, of: total) ?? 0)%" }
        let percentWidth = 4
        let bar = max(1, width - nameWidth - 2 - 2 - percentWidth)
        let widest = groups.map(\.seconds).max() ?? 1
        var lines = [StyledLine("Share by task", .bold)]
        for (k, group) in groups.enumerated() {
            var line = StyledLine()
            line.add(names[k].truncated(to: nameWidth).paddedRight(nameWidth))
            line.add("  ")
            let eighths = max(1, min(bar * 8, Int((Double(group.seconds) / Double(widest) * Double(bar * 8)).rounded())))
            var blocks = String(repeating: "█", count: eighths / 8)
            if eighths % 8 > 0 { blocks += Self.partialBlocks[eighths % 8 - 1] }
            line.add(DisplayText(blocks), group.style)
            line.add(.spaces(bar - TerminalText.width(blocks)))
            line.add("  \(TerminalText.padLeft(percents[k], percentWidth))")
            lines.append(line)
        }
        return lines
    }
}
