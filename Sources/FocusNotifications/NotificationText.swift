import FocusText
import FocusCore

/// Text clean-up shared by every way a notice is shown: what a notification server
/// or a terminal may safely be handed. Controls follow `DisplayText`'s one rule (a control,
/// bidirectional override or zero-width character becomes U+FFFD); only the handling of line
/// breaks differs.
package enum NotificationText {
    /// The text on one line: a run of tabs and line breaks becomes one space, every other
    /// control character (C0, DEL, C1 — an ESC that could start a terminal escape sequence,
    /// a NUL, a bell) and bidirectional control becomes U+FFFD, and surrounding spaces are
    /// trimmed.
    package static func singleLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasBreak = false
        DisplayText.forEachScalar(of: text) { scalar, escaped in
            if DisplayText.isBreak(scalar) {
                if !lastWasBreak { scalars.append(" ") }
                lastWasBreak = true
            } else if escaped {
                scalars.append("\u{FFFD}")
                lastWasBreak = false
            } else {
                scalars.append(scalar)
                lastWasBreak = false
            }
        }
        return trimmingSpaces(String(scalars))
    }

    /// The text with its line breaks kept as `\n` (`\r\n` and a lone `\r` become `\n`, the
    /// Unicode line and paragraph separators are kept), tabs as one space, and every other
    /// control character and bidirectional control replaced by U+FFFD.
    package static func multiLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        DisplayText.forEachScalar(of: text) { scalar, escaped in
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n":
                if !previousWasCarriageReturn { scalars.append("\n") }
            case "\r":
                scalars.append("\n")
            case "\t":
                scalars.append(" ")
            default:
                scalars.append(escaped ? "\u{FFFD}" : scalar)
            }
        }
        return String(scalars)
    }

    /// Escapes the three characters that libnotify's body markup (a subset of Pango markup)
    /// would otherwise read as markup, so `R&D <draft>` is shown literally.
    package static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
              let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}
