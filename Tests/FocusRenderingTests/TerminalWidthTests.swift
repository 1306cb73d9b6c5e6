import FocusCoreTestSupport
import FocusText
import Testing

@Suite struct TerminalWidthTests {
    /// Scalars the scalar-by-scalar measure takes as their own grapheme clusters.
    static let ownClusterRanges: [ClosedRange<UInt32>] = [0x80...0x2FF, 0x2010...0x2027, 0x2030...0x205F, 0x2070...0x20CF, 0x2100...0x2BFF]

    @Test func everyScalarMeasuredAloneIsItsOwnClusterBesideAnyOther() {
        let scalars = Self.ownClusterRanges.flatMap { $0 }.compactMap(Unicode.Scalar.init) + (0x20...0x7E).compactMap(Unicode.Scalar.init)
        let neighbours: [Unicode.Scalar] = ["a", " ", "\n", "\u{00E9}", "\u{2588}", "\u{2615}", "\u{2714}", "\u{00AD}", "\u{2100}"]
        var joined: [String] = []
        for u in scalars {
            for n in neighbours {
                var view = String.UnicodeScalarView()
                view.append(n)
                view.append(u)
                view.append(n)
                view.append(u)
                if String(view).count != 4 { joined.append(String(u.value, radix: 16)) }
            }
        }
        #expect(joined.isEmpty, "U+\(Set(joined).sorted().prefix(20).joined(separator: ", U+"))")
    }

    @Test func measuresEveryStringAsItsClustersDo() {
        // Own-cluster scalars mixed with those that join: marks, joiners, variation selectors,
        // regional indicators, Hangul, CR LF, wide and emoji scalars.
        let pool: [Unicode.Scalar] = [
            "a", "Z", " ", "\t", "\r", "\n", "\u{00E9}", "\u{00AD}", "\u{0301}", "\u{0308}", "\u{20E3}", "\u{200D}", "\u{FE0F}",
            "\u{2588}", "\u{258F}", "\u{2713}", "\u{2717}", "\u{00B7}", "\u{25C2}", "\u{2615}", "\u{231A}", "\u{2764}",
            "\u{1F469}", "\u{1F4BB}", "\u{1F1E9}", "\u{1F1EA}", "\u{1100}", "\u{1161}", "\u{AC00}", "\u{4E2D}", "\u{FF21}",
            "\u{0E33}", "\u{0903}", "\u{0600}", "\u{2028}", "\u{2060}", "\u{3000}", "\u{1F3FB}",
        ]
        var rng = SeededRandom(seed: 2026)
        var mismatches: [String] = []
        for _ in 0..<4000 {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &rng) { view.append(pool.randomElement(using: &rng)!) }
            let s = String(view)
            if TerminalText.width(s) != TerminalText.clusterWidth(s) {
                mismatches.append(s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(TerminalText.width("Thesis ███▏ 2h 05m ✓ 3 ✗ 1") == 26)
        #expect(TerminalText.width("中文 👩‍💻 e\u{0301}") == 9)
    }

    @Test func widthsMeasuredScalarByScalarAddUpSideBySide() {
        // StyledLine measures a line as the sum of its runs when each run is measured scalar by
        // scalar: that must be the width of the runs joined, which the terminal shows.
        let pool: [Unicode.Scalar] = [
            "a", " ", "\r", "\n", "\u{00E9}", "\u{0301}", "\u{200D}", "\u{FE0F}", "\u{2588}", "\u{00B7}", "\u{2615}",
            "\u{1F469}", "\u{1F1E9}", "\u{1100}", "\u{1161}", "\u{4E2D}", "\u{0600}", "\u{0903}",
            // The bars, read as bytes, and their neighbours in UTF-8.
            "\u{2500}", "\u{253F}", "\u{2540}", "\u{257F}", "\u{2580}", "\u{259F}", "\u{24FF}", "\u{25A0}", "\u{25FF}",
        ]
        var rng = SeededRandom(seed: 31)
        var wrong: [String] = []
        for _ in 0..<4000 {
            var a = String.UnicodeScalarView(), b = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...4, using: &rng) { a.append(pool.randomElement(using: &rng)!) }
            for _ in 0..<Int.random(in: 0...4, using: &rng) { b.append(pool.randomElement(using: &rng)!) }
            let left = String(a), right = String(b)
            guard let l = TerminalText.scalarWidth(left), let r = TerminalText.scalarWidth(right) else { continue }
            if l + r != TerminalText.clusterWidth(left + right) {
                wrong.append((left + right).unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(TerminalText.scalarWidth("e\u{0301}") == nil)
        #expect(TerminalText.scalarWidth("a\r") == nil)
        #expect(TerminalText.scalarWidth("Thesis ███▏ 2h") == 14)
    }
}
