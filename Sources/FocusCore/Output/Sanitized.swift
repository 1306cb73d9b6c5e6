import Foundation

/// Text from people and files made safe for a terminal: control characters (ESC included, so
/// no escape sequence gets through), C1 controls and bidirectional overrides are replaced.
package enum Sanitized {
    package static func terminal(_ s: String) -> String {
        var clean = true
        for scalar in s.unicodeScalars where isUnsafe(scalar) { clean = false; break }
        if clean { return s }
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if scalar == "\t" || scalar == "\n" { out.append(" ") } else if isUnsafe(scalar) { out.append("\u{FFFD}") } else { out.append(scalar) }
        }
        return String(out)
    }

    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C
    }
}
