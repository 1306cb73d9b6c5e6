import FocusText
import FoundationEssentials

/// The one rule for text from people and files (task names, notes, calendar summaries, file
/// names, values echoed in error messages) on its way to a terminal, a report or a notice:
///
/// - tab, line feed, carriage return and the other line breaks (VT, FF, NEL, U+2028, U+2029)
///   become one space, so the text stays on its line;
/// - every other C0 control (ESC and NUL included), DEL, every C1 control (CSI U+009B and
///   OSC U+009D included) and every bidirectional control (U+061C, U+200E, U+200F,
///   U+202A–U+202E, U+2066–U+2069) becomes U+FFFD `�`: no escape sequence (colours, cursor
///   moves, OSC 52 clipboard writes, OSC 8 links) and no reordering reaches the terminal,
///   and what was neutralised stays visible;
/// - everything else is kept as it is.
///
/// Invalid UTF-8 never gets this far: bytes become Swift strings through a decoding that
/// repairs them to U+FFFD. JSON output does not use this rule: JSON escapes controls itself
/// and keeps the text exact.
package enum Sanitized {
    /// `s` made safe for a terminal by the rule above (returned as is when already safe).
    package static func terminal(_ s: String) -> String {
        var clean = true
        for scalar in s.unicodeScalars where isUnsafe(scalar) || isBreak(scalar) { clean = false; break }
        if clean { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if isBreak(scalar) {
                out.append(" ")
            } else if isUnsafe(scalar) {
                out.append("\u{FFFD}")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The widest free text (a summary, a note, a name) a terminal view shows, in display columns.
    package static let maximumColumns = 200

    /// `s` made safe (`terminal`) and cut to `columns` display columns, ending in `…` when cut:
    /// a 30 MB calendar SUMMARY is one line of a view, not the whole screen. Only the first
    /// `columns + 1` characters are ever looked at, so a huge value costs no more than a short one.
    package static func shown(_ s: String, columns: Int = maximumColumns) -> String {
        var head = Substring(s)
        var cut = false
        // No character is wider than its UTF-8 bytes (a two-column one takes three or four),
        // so text of no more bytes than columns is never cut here.
        if s.utf8.count > columns {
            let prefix = s.prefix(columns + 1)
            if prefix.endIndex != s.endIndex {
                head = prefix
                cut = true
            }
        }
        let safe = terminal(String(head))
        if !cut { return TerminalText.truncated(safe, to: columns) }
        var out = ""
        var used = 0
        for c in safe {
            let w = TerminalText.width(of: c)
            if used + w > columns - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// A character that drives a terminal or reorders text: C0 controls, DEL, C1 controls and
    /// the bidirectional controls (line breaks included; see `isBreak`).
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// Characters that separate words or lines and become a space: tab, LF, VT, FF, CR, NEL
    /// and the Unicode line and paragraph separators.
    package static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
