import FocusText
/// Small numbers as text from tables made once: string interpolation of an `Int` costs a
/// thousand-odd instructions, and listings format several numbers on each of thousands of rows.
package enum Digits {
    /// `7` → "7", up to 99; larger numbers through `String(_:)`.
    package static func text(_ n: Int) -> String {
        n >= 0 && n < 100 ? plain[n] : String(n)
    }

    /// `7` → "07": FocusText's `String(zeroPadded:width:)`, the one zero padding (kept by this
    /// name only for the sync code that still calls it).
    package static func two(_ n: Int) -> String { String(zeroPadded: n, width: 2) }

    private static let plain: [String] = (0..<100).map { String($0) }
}
