import FocusText
import Foundation
import Testing

/// focus's binary links no Foundation beyond FoundationEssentials; what it wrote itself in
/// place of Foundation's path, percent-encoding and number formatting gives Foundation's answers.
@Suite struct FoundationParityTests {
    /// Path, directory, name: NSString's documented answers (deletingLastPathComponent,
    /// lastPathComponent), checked here as a table: Foundation on Linux traps on some of them.
    static let paths: [(String, String, String)] = [
        ("/tmp/scratch.tiff", "/tmp", "scratch.tiff"), ("/tmp/lock/", "/tmp", "lock"), ("/tmp/", "/", "tmp"), ("/tmp", "/", "tmp"),
        ("/", "/", "/"), ("scratch.tiff", "", "scratch.tiff"), ("scratch///", "", "scratch"), ("a/b", "a", "b"),
        ("/home/me/.local/share/focus/focus.sqlite", "/home/me/.local/share/focus", "focus.sqlite"), ("./focus.sqlite", ".", "focus.sqlite"),
        ("../x", "..", "x"), ("/dir.d/file", "/dir.d", "file"),
    ]

    @Test func pathsSplitAsNSStringSplitsThem() {
        for (path, directory, name) in Self.paths {
            #expect(Paths.directory(of: path) == directory, "directory of \(path)")
            #expect(Paths.name(of: path) == name, "name of \(path)")
        }
    }

    @Test func theEmptyPathHasNoDirectoryAndNoName() {
        // (Foundation on Linux traps on an empty NSString path.)
        #expect(Paths.directory(of: "") == "")
        #expect(Paths.name(of: "") == "")
    }

    @Test(arguments: ["work.ics", ".hidden", "a.tar.gz", "noext", "calendar.2026.ics"])
    func extensionsGoAsNSStringDropsThem(_ name: String) {
        #expect(Paths.removingExtension(name) == (name as NSString).deletingPathExtension)
    }

    @Test func dotsResolveByTheirTextAlone() {
        #expect(Paths.normalized("/usr/bin/../share/focus") == "/usr/share/focus")
        #expect(Paths.normalized("/opt/focus/.build/release/../../data") == "/opt/focus/data")
        #expect(Paths.normalized("/../a/./b//c/") == "/a/b/c")
        #expect(Paths.normalized("a/../../b") == "../b")
        #expect(Paths.join("/a", "b") == "/a/b")
        #expect(Paths.join("/a/", "b") == "/a/b")
        #expect(Paths.join("", "b") == "b")
    }

    static let encoded = ["plain", "a%20b", "%E2%9C%93done", "bad%", "bad%2", "bad%zz", "%FF", "100%25", "caf%C3%A9", "%2F/%2f", ""]

    @Test(arguments: encoded)
    func percentDecodingAgreesWithFoundation(_ text: String) {
        #expect(text.percentDecoded == text.removingPercentEncoding, "\(text)")
    }

    @Test(arguments: ["uid-1@example.com", "a b/c?d#e", "ünïcödé ✓", "~._-", "", "%"])
    func percentEncodingKeepsOnlyTheUnreservedAsFoundationDoes(_ text: String) {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(text.percentEncoded(keeping: String.isUnreserved) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
    }

    @Test func numbersArePaddedAsPrintfDoes() {
        for (value, width) in [(0, 2), (7, 2), (42, 2), (2026, 4), (5, 4), (-5, 3), (123_456, 2), (Int.min + 1, 3)] {
            #expect(String(zeroPadded: value, width: width) == String(format: "%0*ld", width, value), "\(value) \(width)")
        }
    }

    /// The one zero padding serves clock faces and dates from a table (0...99 to two places)
    /// and everything else by rule: both give printf's `%0*d` (issue #43: there were two).
    @Test func everySmallNumberIsPaddedAsPrintfDoesAtEveryWidth() {
        for value in -150...150 {
            for width in 0...5 {
                #expect(String(zeroPadded: value, width: width) == String(format: "%0*ld", width, value), "\(value) \(width)")
            }
        }
    }

    @Test func asciiLettersAndDigitsAreAlphanumeric() {
        let expected = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
        for value: UInt32 in 0...0x24F {
            let s = Unicode.Scalar(value)!
            #expect(s.isASCIIAlphanumeric == expected.contains(s), "U+\(String(value, radix: 16))")
        }
    }
}
