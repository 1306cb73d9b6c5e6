import FocusRendering
import FocusText
import FocusTUI
import Testing

struct FrameAndKeyTests {
    @Test func theDiffRewritesOnlyTheRowsThatChangedInsideSynchronizedOutput() throws {
        let bytes = try #require(LineDiff.bytes(from: ["a", "b", "c"], to: ["a", "B", "c"]))
        #expect(bytes.hasPrefix("\u{1B}[?2026h"))
        #expect(bytes.hasSuffix("\u{1B}[?2026l"))
        #expect(bytes.contains("\u{1B}[2;1H"))
        #expect(!bytes.contains("\u{1B}[1;1H") && !bytes.contains("\u{1B}[3;1H"))
        #expect(LineDiff.bytes(from: ["a", "b"], to: ["a", "b"]) == nil)
    }

    @Test func aFirstFrameClearsTheScreenAndWritesEveryRowWithText() throws {
        let bytes = try #require(LineDiff.bytes(from: nil, to: ["top", "", "bottom"]))
        #expect(bytes.contains("\u{1B}[2J"))
        #expect(bytes.contains("\u{1B}[1;1H\u{1B}[0mtop"))
        #expect(bytes.contains("\u{1B}[3;1H\u{1B}[0mbottom"))
        #expect(!bytes.contains("\u{1B}[2;1H"))
    }

    @Test func rowsAreCutByTerminalColumnsNotCharacters() {
        let wide = StyledLine("論文の第二章を書く📚と見直し")
        let frame = Frame(width: 10, height: 2, rows: [wide])
        #expect(frame.line(0) == "論文の第…")
        #expect(frame.lines(color: false).count == 2)
    }

    @Test(arguments: [
        ([UInt8]("j".utf8), [Key.char("j")]),
        ([0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x42], [Key.up, .down]),
        ([0x1B], [Key.escape]),
        ([0x0D, 0x09, 0x1B, 0x5B, 0x5A], [Key.enter, .tab, .backTab]),
        ([UInt8]("é?".utf8), [Key.char("é"), .char("?")]),
        ([0x03], [Key.ctrl("c")]),
    ])
    func keysAreDecodedFromTerminalBytes(bytes: [UInt8], keys: [Key]) {
        #expect(KeyDecoder.decode(bytes) == keys)
    }

    @Test func theKeyLineAndTheHelpComeFromTheKeyTable() {
        let line = KeyTable.keyLine(for: .week).rendered(width: 200, color: false).string
        #expect(line.contains("h/l day"))
        #expect(line.contains("[ ] week"))
        #expect(line.contains("Enter open day"))
        #expect(line.contains("q quit"))
        #expect(!line.contains("j/k"))
        let help = KeyTable.helpLines(for: .today).map { $0.rendered(width: 200, color: false).string }
        // Every binding that works on Today is in its help, and it does what the help says.
        for binding in KeyTable.bindings where binding.context == .screen && binding.screens?.contains(.today) ?? true {
            #expect(help.contains { $0.contains(binding.label) && $0.contains(binding.help) })
            for (key, action) in binding.keys { #expect(KeyTable.action(for: key, on: .today) == action) }
        }
    }
}
