// Text handling FoundationEssentials leaves out (focus links no FoundationInternationalization
// and no ICU: docs/ARCHITECTURE.md, "Where things are").
extension StringProtocol {
    /// The text without leading and trailing white space as Foundation's
    /// `CharacterSet.whitespaces` defines it (tab, the Unicode space separators and, as
    /// Foundation still counts it, U+200B ZERO WIDTH SPACE; a test holds the two equal over
    /// every scalar), without
    /// Foundation: its character sets are built from Unicode tables on first use, which cost
    /// a one-shot command more than the rest of reading its arguments.
    package func trimmingSpaces() -> String { trimming(Self.isSpace) }

    /// As `trimmingSpaces()`, also dropping line breaks (`CharacterSet.whitespacesAndNewlines`).
    package func trimmingSpacesAndNewlines() -> String {
        trimming { Self.isSpace($0) || Self.isNewline($0) }
    }

    /// The text without leading and trailing scalars of `set` (`CharacterSet(charactersIn:)`).
    package func trimming(_ set: Set<Unicode.Scalar>) -> String { trimming { set.contains($0) } }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) }) ?? start
        // The usual case, nothing to trim, copies nothing (a String's own storage is shared).
        if start == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[start...last]))
    }

    private static func isSpace(_ u: Unicode.Scalar) -> Bool {
        u == " " || u == "\t" || (!u.isASCII && (u.properties.generalCategory == .spaceSeparator || u.value == 0x200B))
    }

    private static func isNewline(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
