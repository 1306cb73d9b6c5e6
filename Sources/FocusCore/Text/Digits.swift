/// Small numbers as text from tables made once: string interpolation of an `Int` costs a
/// thousand-odd instructions, and listings format several numbers on each of thousands of rows.
package enum Digits {
    /// `7` → "7", up to 99; larger numbers through `String(_:)`.
    package static func text(_ n: Int) -> String {
        n >= 0 && n < 100 ? plain[n] : String(n)
    }

    /// `7` → "07", for clock faces and dates (0...99).
    package static func two(_ n: Int) -> String {
        n >= 0 && n < 100 ? padded[n] : String(n)
    }

    private static let plain: [String] = (0..<100).map { String($0) }
    private static let padded: [String] = (0..<100).map { $0 < 10 ? "0" + String($0) : String($0) }
}
