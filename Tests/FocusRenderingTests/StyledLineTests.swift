import FocusRendering
import FocusText
import Testing

@Suite struct StyledLineTests {
    func line(_ runs: [String]) -> StyledLine {
        var line = StyledLine()
        for run in runs { line.add(DisplayText(run), .bold) }
        return line
    }

    @Test func dropsTrailingSpacesRunByRunFromTheEnd() {
        #expect(line(["Thesis   ", "  ", " "]).rendered(width: 80, color: false) == "Thesis")
        #expect(line(["Thesis ", "  ", " "]).rendered(width: 80, color: true) == "\u{1B}[1mThesis\u{1B}[0m")
        #expect(line(["Café  ", "   "]).rendered(width: 80, color: false) == "Café")
        #expect(line(["   "]).rendered(width: 80, color: false).isEmpty)
    }

    @Test func keepsASpaceThatEndsACharacterBegunBeforeIt() {
        // U+0600 (Arabic number sign) takes the space after it into its own character: that
        // character is not a space, so the line ends with it.
        #expect(line(["1 \u{0600} ", "  "]).rendered(width: 80, color: false) == "1 \u{0600} ")
    }

    @Test func styleSpacesOnlyWhenARunHasMoreThanSpaces() {
        var l = StyledLine("  ", .red)
        l.add("ok", .green)
        #expect(l.rendered(width: 80, color: true) == "  \u{1B}[32mok\u{1B}[0m")
    }

    @Test func cutsAtTheWidthOfTheRunsSideBySide() {
        // "e" and a combining accent in two runs are one column: the line fits in 3.
        #expect(line(["ab", "e", "\u{0301}"]).rendered(width: 3, color: false) == "abe\u{0301}")
        #expect(line(["ab", "cd"]).rendered(width: 3, color: false) == "ab…")
        #expect(line(["███", "▏x"]).rendered(width: 5, color: false) == "███▏x")
    }
}
