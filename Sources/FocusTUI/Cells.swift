import FocusCore
import FocusRendering
import FocusText
import FoundationEssentials

/// Pieces the layouts share: lines cut and padded to columns, panes side by side, wrapped text,
/// bars, and a task's colour.
package enum Cells {
    /// `line` cut to `width` columns (ending in `…` when cut) and padded with spaces to it,
    /// its styles kept: a pane's row, ready to have another pane's row beside it.
    package static func fit(_ line: StyledLine, _ width: Int) -> StyledLine {
        var out = StyledLine()
        var used = 0
        let total = line.runs.reduce(0) { $0 + TerminalText.width($1.0) }
        let room = total <= width ? width : width - 1
        for (text, style) in line.runs {
            let w = TerminalText.width(text)
            if used + w <= room {
                out.add(DisplayText(trusted: text), style)
                used += w
                continue
            }
            var part = ""
            for character in text {
                let cw = TerminalText.width(of: character)
                if used + cw > room { break }
                part.append(character)
                used += cw
            }
            out.add(DisplayText(trusted: part + "…"), style)
            used += 1
            break
        }
        if used < width { out.add(.spaces(width - used)) }
        return out
    }

    /// Two panes side by side, `left` cut to `leftWidth`, a rule between them: heavy (`┃`) when
    /// the right pane has the keys.
    package static func beside(_ left: [StyledLine], _ right: [StyledLine], leftWidth: Int, height: Int,
                               rightFocused: Bool = false) -> [StyledLine] {
        (0..<height).map { index in
            var row = fit(index < left.count ? left[index] : StyledLine(), leftWidth)
            row.add(rightFocused ? " ┃ " : " │ ", rightFocused ? .boldCyan : .dim)
            if index < right.count { row.add(right[index]) }
            return row
        }
    }

    /// `text` broken into lines of at most `width` columns at spaces (a word longer than a line
    /// is cut by the line it is drawn on).
    package static func wrap(_ text: String, width: Int, style: StyledLine.Style = .plain) -> [StyledLine] {
        var lines: [StyledLine] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TerminalText.width(candidate) > width, !current.isEmpty {
                lines.append(StyledLine(DisplayText(current), style))
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(StyledLine(DisplayText(current), style)) }
        return lines
    }

    /// A bar of `width` cells filled in proportion to `value` of `total` (`████░░░░`).
    package static func bar(_ value: Int, of total: Int, width: Int) -> String {
        guard width > 0 else { return "" }
        let filled = total > 0 ? min(width, Int((Double(value) / Double(total) * Double(width)).rounded())) : 0
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// The colours a task's blocks and bars take: one per title, the same from run to run
    /// (the title's hash, as the HTML report's colours are chosen).
    package static let palette: [StyledLine.Style] = [.cyan, .yellow, .green, .magenta, .blue]

    package static func style(forTask title: String) -> StyledLine.Style {
        palette[Int(TaskColors.hash(title) % UInt32(palette.count))]
    }

    /// `1 block`, `2 blocks`.
    package static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `09:00` in the view's zone.
    package static func time(_ date: Date, _ calendar: LocalCalendar) -> String { calendar.timeOfDay(of: date).description }

    /// `1h 30m`.
    package static func duration(_ seconds: Int) -> String { TerminalText.duration(seconds) }

    /// The slot length (minutes) that fits `minutes` in at most `rows` rows.
    package static func slot(for minutes: Int, rows: Int) -> Int {
        for slot in [15, 30, 60, 120, 180, 240, 360] where (minutes + slot - 1) / slot <= max(1, rows) { return slot }
        return 720
    }
}
