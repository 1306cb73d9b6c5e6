import FocusCore
import FocusText
import Testing

/// `DisplayText(json)` takes JSON as it is, trusting that JSON writes every control, line
/// break and bidirectional control inside a string as an escape. This holds it to that.
@Suite struct JSONDisplayTextTests {
    @Test(arguments: [
        "csi\u{1B}[2J", "osc52\u{1B}]52;c;ZXZpbA==\u{7}", "c1\u{9B}31m\u{9D}0;t\u{9C}\u{85}",
        "bidi\u{202E}x\u{2066}y\u{2069}\u{200E}\u{200F}\u{061C}", "nul\u{0}del\u{7F}\r\n\t\u{2028}\u{2029}",
    ])
    func jsonShownAsItIsDrivesNoTerminal(evil: String) {
        let shown = DisplayText(JSON.object([("title", .string(evil)), ("tags", .array([.string(evil)]))])).string
        let unsafe = shown.unicodeScalars.filter { DisplayText.isUnsafe($0) || DisplayText.isBreak($0) }
        #expect(unsafe.isEmpty, "\(unsafe.map { String($0.value, radix: 16) })")
        // And the text is kept exact, escaped, not replaced.
        #expect(!shown.contains("\u{FFFD}"))
    }
}
