import FocusText
import FoundationEssentials

/// A line of terminal output made of styled runs, cut to a width before styles are applied:
/// the one styled-text type of every terminal view (stats, tasks, the countdown). Runs are
/// `DisplayText`, so no foreign text joins a line unsanitised; `rendered` adds the only escapes.
package struct StyledLine: Sendable {
    package enum Style: Sendable {
        case plain, bold, dim, green, red, cyan, yellow, boldYellow, boldRed, boldGreen, boldCyan, blue, magenta

        package var sgr: String? {
            switch self {
            case .plain: return nil
            case .bold: return "1"
            case .dim: return "2"
            case .green: return "32"
            case .red: return "31"
            case .cyan: return "36"
            case .yellow: return "33"
            case .boldYellow: return "1;33"
            case .boldRed: return "1;31"
            case .boldGreen: return "1;32"
            case .boldCyan: return "1;36"
            case .blue: return "34"
            case .magenta: return "35"
            }
        }

        /// `text` in this style (SGR escapes, ECMA-48) when `color` is on, else as it is.
        package func apply(_ text: DisplayText, color: Bool) -> DisplayText {
            DisplayText(trusted: apply(text.string, color: color))
        }

        fileprivate func apply(_ text: String, color: Bool) -> String {
            guard color, let code = sgr else { return text }
            return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
        }
    }

    /// The runs' text, each made safe on its way in (`add`).
    package private(set) var runs: [(String, Style)] = []

    package init() {}
    package init(_ text: DisplayText, _ style: Style = .plain) { runs = [(text.string, style)] }

    package mutating func add(_ text: DisplayText, _ style: Style = .plain) { runs.append((text.string, style)) }

    /// Another line's runs after these.
    package mutating func add(_ line: StyledLine) { runs += line.runs }

    /// The line cut to `width` columns (with `…`), trailing spaces removed, styled with SGR
    /// escapes when `color` is on.
    package func rendered(width: Int, color: Bool) -> DisplayText {
        var kept: [(String, Style)] = []
        if columns <= width {
            kept = runs
        } else {
            var remaining = width - 1
            for (text, style) in runs {
                let w = TerminalText.width(text)
                if w <= remaining {
                    kept.append((text, style))
                    remaining -= w
                } else {
                    var part = ""
                    for c in text {
                        let cw = TerminalText.width(of: c)
                        if cw > remaining { break }
                        part.append(c)
                        remaining -= cw
                    }
                    kept.append((part + "…", style))
                    break
                }
            }
        }
        // Drop trailing spaces, run by run from the end.
        while let last = kept.last {
            let text = StyledLine.droppingTrailingSpaces(last.0)
            if text.isEmpty {
                kept.removeLast()
            } else {
                kept[kept.count - 1].0 = text
                break
            }
        }
        var out = ""
        for (text, style) in kept {
            // Bytes, not characters: only U+0020 is a space cluster, and it is one byte.
            if text.utf8.contains(where: { $0 != UInt8(ascii: " ") }) {
                out += style.apply(text, color: color)
            } else {
                out += text
            }
        }
        return DisplayText(trusted: out)
    }

    /// The columns the runs take side by side: the sum of theirs when widths add up
    /// (`TerminalText.scalarWidth`), else the width of the joined text.
    var columns: Int {
        var total = 0
        for (text, _) in runs {
            guard let w = TerminalText.scalarWidth(text) else { return TerminalText.width(runs.map(\.0).joined()) }
            total += w
        }
        return total
    }

    /// `text` without its trailing space characters. Spaces after ASCII (or making up the whole
    /// text) are cut as bytes; otherwise character by character, since a space may end a
    /// cluster that began before it.
    static func droppingTrailingSpaces(_ text: String) -> String {
        let bytes = text.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        if end == bytes.endIndex { return text }
        if end == bytes.startIndex || bytes[bytes.index(before: end)] < 0x80 {
            return String(text[..<end])
        }
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
