import FoundationEssentials

/// Text measured for a terminal: widths in display columns, cutting and padding. (Durations
/// as people write them are FocusCore's `TerminalText.duration`; making text safe is
/// `DisplayText`'s one rule.)
package enum TerminalText {
    /// `n` spaces (none for n ≤ 0). Padding is on every line of every table, and
    /// `String(repeating:count:)` cost thousands of instructions a call: short runs come from
    /// a table made once.
    package static func spaces(_ n: Int) -> String {
        guard n > 0 else { return "" }
        return n < padding.count ? padding[n] : String(repeating: " ", count: n)
    }

    private static let padding: [String] = {
        var table = [""]
        var s = ""
        for _ in 1..<96 {
            s.append(" ")
            table.append(s)
        }
        return table
    }()

    /// Display columns: East Asian wide characters and emoji count 2, combining marks and
    /// format characters 0, everything else (box drawing, ✓ ✗ █ ▏ · ◂ included) 1.
    ///
    /// Measured scalar by scalar while every scalar is one whose grapheme cluster is itself
    /// whatever its neighbours (ASCII but CR, Latin, punctuation, symbols, box drawing: the
    /// text of every table and chart); anything else (combining marks, joiners, emoji
    /// sequences, Hangul, a CR before LF) measures the string cluster by cluster. Walking
    /// clusters cost a 30-day terminal report 17M instructions, most of the rendering.
    package static func width(_ s: String) -> Int {
        scalarWidth(s) ?? clusterWidth(s)
    }

    /// The width of `s` when every scalar of it is its own grapheme cluster whatever its
    /// neighbours (see `width`), else nil. Such widths add up: the width of strings side by
    /// side is the sum of theirs.
    package static func scalarWidth(_ s: String) -> Int? {
        if let columns = barWidth(s.utf8) { return columns }
        var total = 0
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x80, v != 0x0D {
                total += 1
            } else if v >= 0x2500, v <= 0x259F {
                total += 1  // box drawing and block elements: the bars
            } else if isOwnCluster(v) {
                total += width(of: Character(u))
            } else {
                return nil
            }
        }
        return total
    }

    /// The width of text made of ASCII (but CR) and box drawing and block elements (U+2500 to
    /// U+259F, the bars), one column each, read as bytes rather than decoded scalars: the text of
    /// most lines of a table or chart. Nil for any other text.
    private static func barWidth(_ bytes: String.UTF8View) -> Int? {
        let columns = bytes.withContiguousStorageIfAvailable { buffer -> Int? in
            var columns = 0
            var i = 0
            let n = buffer.count
            while i < n {
                let b = buffer[i]
                if b < 0x80 {
                    guard b != 0x0D else { return nil }
                    i += 1
                } else {
                    // U+2500...U+259F is E2 94 80 ... E2 96 9F in UTF-8.
                    guard b == 0xE2, i + 2 < n, (0x94...0x96).contains(buffer[i + 1]),
                          buffer[i + 1] != 0x96 || buffer[i + 2] <= 0x9F else { return nil }
                    i += 3
                }
                columns += 1
            }
            return columns
        }
        return columns ?? nil
    }

    /// Whether a scalar is never joined to its neighbours into one grapheme cluster (its
    /// Grapheme_Cluster_Break property is Other or Control, and it is not CR): Latin-1 and
    /// Latin Extended, spacing modifiers, general punctuation without the joiners and
    /// directional formats, and the symbol blocks from superscripts to U+2BFF without the
    /// combining marks for symbols.
    private static func isOwnCluster(_ v: UInt32) -> Bool {
        switch v {
        case 0x80...0x2FF, 0x2010...0x2027, 0x2030...0x205F, 0x2070...0x20CF, 0x2100...0x2BFF: return true
        default: return false
        }
    }

    /// Display columns counted one grapheme cluster at a time.
    package static func clusterWidth(_ s: String) -> Int {
        var total = 0
        for c in s { total += width(of: c) }
        return total
    }

    package static func width(of c: Character) -> Int {
        if c.isASCII { return 1 }
        guard let first = c.unicodeScalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if isWide(first) { return 2 }
        if c.unicodeScalars.contains("\u{FE0F}"), first.properties.isEmoji { return 2 }
        return 1
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return scalar.properties.isEmojiPresentation
        }
    }

    /// The text cut to at most `columns` display columns, ending in `…` when it was cut.
    package static func truncated(_ s: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if width(s) <= columns { return s }
        var out = ""
        var used = 0
        for c in s {
            let w = width(of: c)
            if used + w > columns - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    /// Display columns of text that may hold colour escapes (`ESC [ … m`), which take none;
    /// the rest is measured by `width`.
    package static func displayWidth(_ s: String) -> Int {
        // Plain ASCII without escapes (most lines): one column per byte.
        if !s.utf8.contains(where: { $0 >= 0x80 || $0 == 0x1B }) { return s.utf8.count }
        guard s.utf8.contains(0x1B) else { return width(s) }
        var visible = ""
        var inEscape = false
        for scalar in s.unicodeScalars {
            if inEscape { if scalar == "m" { inEscape = false }; continue }
            if scalar == "\u{1B}" { inEscape = true; continue }
            visible.unicodeScalars.append(scalar)
        }
        return width(visible)
    }

    /// `s` (escapes allowed) with spaces added on the right up to `n` columns; never cut.
    package static func pad(_ s: String, _ n: Int) -> String {
        let w = displayWidth(s)
        return w >= n ? s : s + spaces(n - w)
    }

    /// `s` cut to `n` columns (with `…`) when it is wider.
    package static func truncate(_ s: String, _ n: Int) -> String {
        displayWidth(s) > n ? truncated(s, to: n) : s
    }

    /// `s` padded with spaces on the right to `columns` display columns (cut when longer).
    package static func padRight(_ s: String, _ columns: Int) -> String {
        let t = truncated(s, to: columns)
        return t + spaces(columns - width(t))
    }

    /// `s` padded with spaces on the left to `columns` display columns.
    package static func padLeft(_ s: String, _ columns: Int) -> String {
        spaces(columns - width(s)) + s
    }
}
