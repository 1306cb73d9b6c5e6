import FocusText
import Foundation
import Testing

@Suite struct TrimmingTests {
    static let samples = [
        "", " ", "\t", "Thesis", "  Thesis  ", "\tChapter 2\t", "\u{00A0}nbsp\u{00A0}", "\u{3000}ideographic\u{2003}",
        "\nline\n", "\r\n both \r\n", "\u{2028}sep\u{2029}", "\u{85}nel\u{85}", "inner  space kept", " é ", "\u{200B}zero-width\u{200B}",
        "👩‍💻 ", " \u{0301}combining",
    ]

    @Test(arguments: samples)
    func trimsExactlyWhatFoundationsWhitespaceSetsDo(_ s: String) {
        #expect(s.trimmingSpaces() == s.trimmingCharacters(in: .whitespaces))
        #expect(s.trimmingSpacesAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(s[...].trimmingSpaces() == s.trimmingCharacters(in: .whitespaces))
    }
}

extension TrimmingTests {
    @Test func agreesWithFoundationOnEveryScalarOfTheBasicPlaneAndBeyond() {
        var mismatches: [String] = []
        for value: UInt32 in Array(0...0x3_0000) + [0xE_0020, 0x10_FFFD] {
            guard let u = Unicode.Scalar(value) else { continue }
            let s = "a" + String(u) + "b"
            let alone = String(u)
            if alone.trimmingSpaces() != alone.trimmingCharacters(in: .whitespaces)
                || alone.trimmingSpacesAndNewlines() != alone.trimmingCharacters(in: .whitespacesAndNewlines)
                || s.trimmingSpaces() != s {
                mismatches.append(String(value, radix: 16))
            }
        }
        #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20).joined(separator: ", U+"))")
    }
}
