/// Text clean-up shared by every way a notice is shown: what a notification server
/// or a terminal may safely be handed.
package enum NotificationText {
    /// The text on one line: tabs and line breaks become one space, every other control
    /// character (C0, DEL, C1 — an ESC that could start a terminal escape sequence, a NUL,
    /// a bell) is removed, and surrounding spaces are trimmed.
    package static func singleLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasBreak = false
        for scalar in text.unicodeScalars {
            if isBreak(scalar) {
                if !lastWasBreak { scalars.append(" ") }
                lastWasBreak = true
            } else if isControl(scalar) {
                continue
            } else {
                scalars.append(scalar)
                lastWasBreak = false
            }
        }
        return trimmingSpaces(String(scalars))
    }

    /// The text with its line breaks kept as `\n` (`\r\n` and a lone `\r` become `\n`, the
    /// Unicode line and paragraph separators are kept), tabs as one space, and every other
    /// control character removed.
    package static func multiLine(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n":
                if !previousWasCarriageReturn { scalars.append("\n") }
            case "\r":
                scalars.append("\n")
            case "\t":
                scalars.append(" ")
            default:
                if !isControl(scalar) { scalars.append(scalar) }
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

    /// Unicode general category Cc: U+0000–U+001F, U+007F and U+0080–U+009F.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Characters that separate words or lines: tab, LF, VT, FF, CR, NEL and the Unicode
    /// line and paragraph separators.
    private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    private static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
              let last = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[first...last])
    }
}
