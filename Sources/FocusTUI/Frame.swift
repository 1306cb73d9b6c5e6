import FocusRendering
import FocusText

/// One whole screen of the full-screen view: `height` rows of styled text, each cut to `width`
/// terminal columns (measured by `TerminalText`, never by the locale). A plain value: the
/// layouts build it, tests read it as text, the screen writer draws it.
package struct Frame: Sendable {
    package var width: Int
    package var height: Int
    package private(set) var rows: [StyledLine]

    /// `rows` cut or filled with empty rows to `height`.
    package init(width: Int, height: Int, rows: [StyledLine]) {
        self.width = max(0, width)
        self.height = max(0, height)
        var rows = Array(rows.prefix(self.height))
        while rows.count < self.height { rows.append(StyledLine()) }
        self.rows = rows
    }

    /// Each row as the terminal shows it: cut to the width, styled when `color` is on.
    package func lines(color: Bool) -> [String] {
        rows.map { $0.rendered(width: width, color: color).string }
    }

    /// The frame as plain text, one line per row.
    package var text: String { lines(color: false).joined(separator: "\n") }

    /// The plain text of row `index` (empty past the last row).
    package func line(_ index: Int) -> String {
        rows.indices.contains(index) ? rows[index].rendered(width: width, color: false).string : ""
    }
}

/// The bytes that turn one drawn frame into the next: only the rows that changed are written,
/// each moved to with CUP and ended with EL (ECMA-48 8.3.21, 8.3.41), the whole inside
/// synchronized output (`CSI ? 2026 h` … `CSI ? 2026 l`), so a terminal that supports it shows
/// no half-drawn frame and one that does not ignores the private mode.
package enum LineDiff {
    /// nil when nothing changed. Without `old` (the first frame, after a resize) the screen is
    /// cleared and every row written.
    package static func bytes(from old: [String]?, to new: [String]) -> String? {
        var out = ""
        let full = old == nil || old?.count != new.count
        if full { out += "\u{1B}[H\u{1B}[2J" }
        for (index, line) in new.enumerated() where full || old?[index] != line {
            if full && line.isEmpty { continue }
            out += "\u{1B}[\(index + 1);1H\u{1B}[0m" + line + "\u{1B}[0m\u{1B}[K"
        }
        if out.isEmpty { return nil }
        return "\u{1B}[?2026h" + out + "\u{1B}[?2026l"
    }
}
