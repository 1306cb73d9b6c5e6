import FocusText
import Testing

/// `DisplayText`: the one way foreign text reaches a terminal. Each hostile class is
/// neutralised on the way in from a `String`; literals are trusted, interpolated strings are not.
@Suite struct DisplayTextTests {
    @Test(arguments: [
        // C0 controls: ESC starting a CSI sequence (colours, clearing the screen), NUL, BEL, BS.
        ("a\u{1B}[2Jb", "a\u{FFFD}[2Jb"),
        ("nul\u{0}bel\u{7}bs\u{8}", "nul\u{FFFD}bel\u{FFFD}bs\u{FFFD}"),
        // OSC 52 (a clipboard write) and OSC 8 (a link), each ended by BEL or ST.
        ("x\u{1B}]52;c;ZXZpbA==\u{7}", "x\u{FFFD}]52;c;ZXZpbA==\u{FFFD}"),
        ("\u{1B}]8;;https://evil.example/\u{1B}\\", "\u{FFFD}]8;;https://evil.example/\u{FFFD}\\"),
        // DEL and the C1 controls (CSI U+009B, OSC U+009D, ST U+009C).
        ("del\u{7F}", "del\u{FFFD}"),
        ("c1\u{9B}31m\u{9D}0;t\u{9C}", "c1\u{FFFD}31m\u{FFFD}0;t\u{FFFD}"),
        // Bidirectional controls: overrides, isolates, marks.
        ("\u{202E}gnp.exe\u{2066}x\u{2069}\u{200E}\u{200F}\u{061C}", "\u{FFFD}gnp.exe\u{FFFD}x\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        // Line breaks and tabs become one space each: the text stays on its line.
        ("one\ntwo\rthree\tfour\u{0B}\u{0C}\u{85}\u{2028}\u{2029}end", "one two three four     end"),
        // Everything else is kept as it is.
        ("Thesis/Chapter 2 · 界 é 🙂 <b>&", "Thesis/Chapter 2 · 界 é 🙂 <b>&"),
    ])
    func eachHostileClassIsNeutralised(raw: String, shown: String) {
        #expect(DisplayText(raw).string == shown)
        #expect(DisplayText(shown: raw).string == shown)
    }

    /// Issue #39: a character that takes no room made `Thes\u{200B}is` look like `Thesis`; it is
    /// shown, as a bidirectional control is. A joiner inside an emoji (👩‍💻, ❤️‍🔥) is kept.
    @Test(arguments: [
        ("Thes\u{200B}is", "Thes\u{FFFD}is"),
        ("a\u{200C}b\u{200D}c\u{2060}d\u{FEFF}e", "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e"),
        ("\u{FEFF}Thesis\u{200D}", "\u{FFFD}Thesis\u{FFFD}"),
        ("1\u{200D}2", "1\u{FFFD}2"),
        ("👩\u{200D}💻 Coding", "👩\u{200D}💻 Coding"),
        ("❤\u{FE0F}\u{200D}🔥", "❤\u{FE0F}\u{200D}🔥"),
        ("👩\u{200B}💻", "👩\u{FFFD}💻"),
    ])
    func zeroWidthCharactersAreShown(text: String, shown: String) {
        #expect(DisplayText(text).string == shown)
        #expect(DisplayText.isShownAsIs(text) == (text == shown))
        #expect(DisplayText(shown: text).string == shown)
    }

    @Test func interpolatedStringsAreMadeSafeAndLiteralsAreKept() {
        let title = "T\u{1B}[31m\nx"
        let line: DisplayText = "Added task \(title) (#\(12)).\n"
        #expect(line.string == "Added task T\u{FFFD}[31m x (#12).\n")
        // A literal is the program's own text: its line feed and its escape stay.
        let styled: DisplayText = "\u{1B}[1mbold\u{1B}[0m\n"
        #expect(styled.string == "\u{1B}[1mbold\u{1B}[0m\n")
    }

    @Test func everyKindOfInterpolatedValueIsMadeSafe() {
        let sub: Substring = "a\u{7}b"[...]
        let character: Character = "\u{9B}"
        let raw = "x\u{1B}y"
        let already = DisplayText(raw)
        let line: DisplayText = "\(sub) \(character) \(already) \(3.5) \(Int64(-7))"
        #expect(line.string == "a\u{FFFD}b \u{FFFD} x\u{FFFD}y 3.5 -7")
        // Text already made safe is not changed again.
        let twice: DisplayText = "\(already)"
        #expect(twice == already)
    }

    @Test func shownTextIsCutToItsColumns() {
        let long = String(repeating: "x", count: 300) + "\u{1B}"
        let line: DisplayText = "[\(shown: long)]"
        #expect(line.string == "[" + String(repeating: "x", count: 199) + "…]")
        #expect(DisplayText(shown: "abcdef", columns: 4).string == "abc…")
        #expect(DisplayText(shown: "界界界", columns: 4).string == "界…")
    }

    private func takesString<R>(_ f: (String) -> R) -> Bool { true }
    private func takesString<T, R>(_ f: (T) -> R) -> Bool { false }

    /// A literal is trusted because only source text can be one: the literal initializer takes
    /// a `StaticString`, so no `String` value comes in through it unsanitised.
    @Test func onlySourceTextIsTakenAsALiteral() {
        #expect(!takesString(DisplayText.init(stringLiteral:)))
        #expect(takesString(DisplayText.init(_:) as (String) -> DisplayText))
        let foreign = "\u{1B}[2J"
        #expect(DisplayText(foreign).string == "\u{FFFD}[2J")
    }

    @Test func theEscapeHatchKeepsTextAsItIs() {
        let clear = "\u{1B}[2J"
        #expect(DisplayText(trusted: clear).string == clear)
        #expect(DisplayText(clear).string == "\u{FFFD}[2J")
        // `DisplayText("…")` with a literal is that literal (SE-0213): the program's own text.
        #expect(DisplayText("\u{1B}[2J").string == clear)
    }

    @Test func piecesJoinWithoutLosingTheirSafety() {
        let escape = "\u{1B}"
        var out: DisplayText = "a"
        out += "\(escape)\n"
        let bell = "\u{7}"
        out += DisplayText.joined(["b", DisplayText(bell)], separator: ", ")
        #expect(out.string == "a\u{FFFD}\nb, \u{FFFD}")
        #expect(out.description == out.string)
        #expect(DisplayText("").isEmpty)
    }

    /// Printable ASCII is kept without decoding scalars; every other ASCII character, in a small
    /// string and in a long (heap) one, at its start, middle and end, is still replaced by the rule.
    @Test func everyASCIICharacterFollowsTheRuleInShortAndLongText() {
        let long = String(repeating: "Thesis/Chapter 2 ", count: 8)
        for v: UInt32 in 0...0x7F {
            let c = String(Unicode.Scalar(v)!)
            let rule = DisplayText.isBreak(Unicode.Scalar(v)!) ? " " : DisplayText.isUnsafe(Unicode.Scalar(v)!) ? "\u{FFFD}" : c
            for (raw, shown) in [(c, rule), ("a\(c)b", "a\(rule)b"), (long + c, long + rule), (c + long, rule + long)] {
                #expect(DisplayText(raw).string == shown, "U+\(String(v, radix: 16))")
            }
        }
        #expect(DisplayText.joined(["a", "b", "c"], separator: ", ").string == "a, b, c")
        #expect(DisplayText.joined([DisplayText](), separator: ", ").isEmpty)
    }

    @Test func theRuleClassifiesScalars() {
        for v: UInt32 in [0x00, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x200E, 0x202E, 0x2066, 0x2069, 0x061C] {
            #expect(DisplayText.isUnsafe(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))")
        }
        for v: UInt32 in [0x20, 0x41, 0xA0, 0xE9, 0x200D, 0x754C] {
            #expect(!DisplayText.isUnsafe(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))")
        }
        #expect(DisplayText.isBreak("\n") && DisplayText.isBreak("\t") && DisplayText.isBreak("\u{2029}"))
        #expect(!DisplayText.isBreak(" "))
    }
}
