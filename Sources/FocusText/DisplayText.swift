import FoundationEssentials

/// Text made safe to show on a terminal (or in a report or a notice): the one way text from
/// people and files (task names, notes, tags, calendar summaries and names, file names, server
/// replies, hook output, values echoed in error messages) reaches a person.
///
/// The only way in from a `String` applies the one rule:
///
/// - tab, line feed, carriage return and the other line breaks (VT, FF, NEL, U+2028, U+2029)
///   become one space, so the text stays on its line;
/// - every other C0 control (ESC and NUL included), DEL, every C1 control (CSI U+009B and
///   OSC U+009D included) and every bidirectional control (U+061C, U+200E, U+200F,
///   U+202A–U+202E, U+2066–U+2069) becomes U+FFFD `�`: no escape sequence (ECMA-48 colours,
///   cursor moves, OSC 52 clipboard writes, OSC 8 links) and no reordering (Unicode Standard
///   Annex #9) reaches the terminal, and what was neutralised stays visible;
/// - so does every character that takes no room (U+200B–U+200D, U+2060, U+FEFF: `Thes\u{200B}is`
///   would look like `Thesis`), except a zero-width joiner between two emoji, which is part of
///   the one emoji they make (Unicode Technical Standard #51, ZWJ sequences: 👩‍💻);
/// - everything else is kept as it is.
///
/// A string literal is trusted (it is the program's own text, line feeds and styling escapes
/// included; its segments come in as `StaticString`, so only source text can be one); every
/// `String` interpolated into one is made safe, so
/// `"Added task \(title) (#\(id))."` is safe by construction. `\(shown:)` also cuts the text to
/// `maximumColumns`. Text that is already safe and is not a literal (a line a renderer styled
/// with colour escapes) comes in through `init(trusted:)`, named so a reviewer sees it.
/// (`DisplayText("…")` with a literal argument is that literal, trusted, as Swift reads a
/// literal given to a type's initializer as the literal of that type: SE-0213.)
///
/// Invalid UTF-8 never gets this far: bytes become Swift strings through a decoding that
/// repairs them to U+FFFD. JSON, CSV and iCalendar output do not use this type: each escapes
/// for its own format and keeps the text exact (the HTML report applies the rule, then escapes
/// markup).
package struct DisplayText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The safe text, to write out or to measure (`TerminalText`).
    package private(set) var string: String

    /// `foreign` made safe by the rule above.
    package init(_ foreign: String) { string = Self.sanitized(foreign) }

    /// `foreign` made safe and cut to `columns` display columns, ending in `…` when cut: a 30 MB
    /// calendar SUMMARY is one line of a view, not the whole screen. Only the first
    /// `columns + 1` characters are ever looked at, so a huge value costs no more than a short one.
    package init(shown foreign: String, columns: Int = maximumColumns) { string = Self.cut(foreign, columns: columns) }

    /// Text that is already safe: the escape hatch, for a renderer's own output (which may hold
    /// styling escapes) and text a `DisplayText` was made from. Never for foreign text.
    package init(trusted text: String) { string = text }

    /// A literal: `StaticString`, so only text written in the program's source comes in here.
    package init(stringLiteral value: StaticString) { string = value.description }

    package init(stringInterpolation: StringInterpolation) { string = stringInterpolation.string }

    package var description: String { string }

    package var isEmpty: Bool { string.isEmpty }

    package static func += (a: inout DisplayText, b: DisplayText) { a.string += b.string }

    /// Safe pieces joined by a safe separator.
    package static func joined(_ parts: some Sequence<DisplayText>, separator: DisplayText = "") -> DisplayText {
        var out = ""
        var first = true
        for part in parts {
            if !first { out += separator.string }
            out += part.string
            first = false
        }
        return DisplayText(trusted: out)
    }

    /// `n` spaces (none for n ≤ 0).
    package static func spaces(_ n: Int) -> DisplayText { DisplayText(trusted: TerminalText.spaces(n)) }

    /// Display columns (`TerminalText.displayWidth`: colour escapes take none).
    package var columns: Int { TerminalText.displayWidth(string) }

    /// Cut to `columns` display columns (ending in `…`) and padded with spaces up to them.
    /// Spaces and `…` keep safe text safe.
    package func paddedRight(_ columns: Int) -> DisplayText { DisplayText(trusted: TerminalText.padRight(string, columns)) }

    /// Cut to at most `columns` display columns, ending in `…` when it was cut.
    package func truncated(to columns: Int) -> DisplayText { DisplayText(trusted: TerminalText.truncated(string, to: columns)) }

    /// Literals as they are; interpolated strings (and the descriptions of other values) made safe.
    package struct StringInterpolation: StringInterpolationProtocol {
        var string = ""

        /// Room as the standard library's interpolation reserves it: a short result stays a
        /// small string (no allocation), where 16 bytes an interpolation made every one a heap string.
        package init(literalCapacity: Int, interpolationCount: Int) {
            string.reserveCapacity(literalCapacity + 2 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: StaticString) { string += literal.description }

        /// Foreign text, made safe.
        package mutating func appendInterpolation(_ text: String) { string += DisplayText.sanitized(text) }

        package mutating func appendInterpolation(_ text: Substring) { string += DisplayText.sanitized(String(text)) }

        /// Foreign text, made safe and cut to `columns` (see `init(shown:columns:)`).
        package mutating func appendInterpolation(shown text: String, columns: Int = DisplayText.maximumColumns) {
            string += DisplayText.cut(text, columns: columns)
        }

        /// Text already made safe, as it is.
        package mutating func appendInterpolation(_ text: DisplayText) { string += text.string }

        /// A number: its digits.
        package mutating func appendInterpolation(_ n: some BinaryInteger) { string += n.description }

        /// Any other value: its description, made safe.
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            string += DisplayText.sanitized(value.description)
        }
    }

    /// The widest free text (a summary, a note, a name) a terminal view shows, in display columns.
    package static let maximumColumns = 200

    /// A character that drives a terminal or reorders text: C0 controls, DEL, C1 controls and
    /// the bidirectional controls (line breaks included; see `isBreak`). Names that must hold
    /// none (titles, tags) are checked with it.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// A character that takes no room on screen and would hide inside a name: zero width space,
    /// non-joiner and joiner (U+200B–U+200D), word joiner (U+2060), zero width no-break space
    /// (U+FEFF). Shown as U+FFFD (`isShownEscaped`), except a joiner inside an emoji.
    package static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// Whether `scalar`, between `previous` and `next`, is shown as U+FFFD: the one rule of
    /// "characters shown escaped" (controls, bidirectional controls, zero-width characters).
    package static func isShownEscaped(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
        if isUnsafe(scalar) { return true }
        guard isZeroWidth(scalar) else { return false }
        guard scalar.value == 0x200D, let previous, let next else { return true }
        return !(isEmojiPart(previous) && isEmojiPart(next))
    }

    /// A scalar that can stand on either side of an emoji's joiner: a pictograph (not the
    /// ASCII digits, `#` and `*` that Unicode also counts as emoji), variation selector 16, a
    /// skin tone.
    private static func isEmojiPart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (scalar.value > 0x7F && (scalar.properties.isEmoji || scalar.properties.isEmojiModifier))
    }

    /// `body` for each scalar of `s`, with whether the rule shows it escaped.
    package static func forEachScalar(of s: String, _ body: (Unicode.Scalar, _ escaped: Bool) -> Void) {
        var previous: Unicode.Scalar?
        var iterator = s.unicodeScalars.makeIterator()
        var current = iterator.next()
        while let scalar = current {
            let next = iterator.next()
            body(scalar, isShownEscaped(scalar, after: previous, before: next))
            previous = scalar
            current = next
        }
    }

    /// Whether the rule shows `s` exactly as it is (no line break, nothing escaped): a shell
    /// completion candidate must be, as it is typed back as it is shown.
    package static func isShownAsIs(_ s: String) -> Bool {
        if isPrintableASCII(s) { return true }
        var asIs = true
        forEachScalar(of: s) { scalar, escaped in
            if escaped || isBreak(scalar) { asIs = false }
        }
        return asIs
    }

    /// Characters that separate words or lines and become a space: tab, LF, VT, FF, CR, NEL
    /// and the Unicode line and paragraph separators.
    package static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `s` made safe by the rule (returned as is when already safe).
    private static func sanitized(_ s: String) -> String {
        if isShownAsIs(s) { return s }
        var out = String.UnicodeScalarView()
        forEachScalar(of: s) { scalar, escaped in
            if isBreak(scalar) {
                out.append(" ")
            } else if escaped {
                out.append("\u{FFFD}")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether every byte of `s` is printable ASCII (U+0020 to U+007E), which the rule keeps as
    /// it is: most text, told by its bytes without decoding a scalar.
    private static func isPrintableASCII(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 &- 0x20 < 0x5F }
        } ?? false
    }

    /// `s` made safe and cut to `columns` display columns (see `init(shown:columns:)`).
    private static func cut(_ s: String, columns: Int) -> String {
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
        let safe = sanitized(String(head))
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
}
