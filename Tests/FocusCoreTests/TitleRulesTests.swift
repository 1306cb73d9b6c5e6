import FocusCore
import FocusText
import Testing

/// Titles are stored and compared in NFC and never look like ids; free text is cut in views.
@Suite struct TitleRulesTests {
    @Test(arguments: [
        ("e\u{301}te\u{301}", "\u{E9}t\u{E9}"),
        ("A\u{30A}ngstro\u{308}m", "\u{C5}ngstr\u{F6}m"),
        ("\u{212B}", "\u{C5}"),  // the Angstrom sign is canonically Å
        ("\u{1100}\u{1161}", "\u{AC00}"),  // Hangul jamo compose
        ("plain ascii", "plain ascii"),
        ("\u{FB01}", "\u{FB01}"),  // ﬁ is a compatibility ligature: NFC keeps it
    ])
    func titlesAreNormalizedToNFC(input: String, nfc: String) throws {
        #expect(Array(Titles.normalized(input).unicodeScalars) == Array(nfc.unicodeScalars))
        #expect(Array(try Titles.validate(input, what: "task name").unicodeScalars) == Array(nfc.unicodeScalars))
        #expect(TaskCatalog.key(input) == TaskCatalog.key(nfc))
    }

    @Test func pathsMatchAcrossSpellings() throws {
        let catalog = TaskCatalog(tasks: [.init(id: 1, title: "\u{E9}t\u{E9}", closed: false)], subtasks: [:])
        #expect(try catalog.resolve("E\u{301}TE\u{301}") == .task(id: 1))
        #expect(try catalog.resolve("e\u{301}") == .task(id: 1))
    }

    @Test(arguments: ["#5000", "#0012", " #12 ", "#+3", "#-1"])
    func idLikeTitlesAreRefused(title: String) {
        #expect(throws: FocusError.self) { try Titles.validate(title, what: "task name") }
        #expect(throws: FocusError.self) { try Titles.validateTask(title) }
    }

    @Test(arguments: ["#", "#12a", "# 12", "12", "#99999999999999999999", "C#"])
    func titlesThatNoIdPathShadowsAreKept(title: String) throws {
        #expect(try Titles.validate(title, what: "task name") == title)
    }

    @Test func freeTextIsCutToTwoHundredColumnsInViews() {
        let huge = String(repeating: "x", count: 5_000_000)
        let shown = DisplayText(shown: huge).string
        #expect(shown == String(repeating: "x", count: 199) + "…")
        #expect(DisplayText(shown: "short\tnote").string == "short note")
        let wide = String(repeating: "界", count: 150)
        #expect(TerminalText.width(DisplayText(shown: wide).string) <= 200)
        #expect(DisplayText(shown: wide).string.hasSuffix("…"))
        #expect(DisplayText(shown: String(repeating: "y", count: 200)).string == String(repeating: "y", count: 200))
    }
}
