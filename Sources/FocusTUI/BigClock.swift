import FocusRendering
import FocusText

/// A clock drawn five rows tall (`12:34` in blocks), for the Timer screen.
package enum BigClock {
    /// Each glyph as five rows of three columns (`:` one column).
    static let glyphs: [Character: [String]] = [
        "0": ["███", "█ █", "█ █", "█ █", "███"],
        "1": ["  █", "  █", "  █", "  █", "  █"],
        "2": ["███", "  █", "███", "█  ", "███"],
        "3": ["███", "  █", "███", "  █", "███"],
        "4": ["█ █", "█ █", "███", "  █", "  █"],
        "5": ["███", "█  ", "███", "  █", "███"],
        "6": ["███", "█  ", "███", "█ █", "███"],
        "7": ["███", "  █", "  █", "  █", "  █"],
        "8": ["███", "█ █", "███", "█ █", "███"],
        "9": ["███", "█ █", "███", "  █", "███"],
        ":": [" ", "█", " ", "█", " "],
    ]

    /// `text` (digits and colons) as five rows, glyphs a column apart.
    package static func rows(_ text: String) -> [String] {
        (0..<5).map { row in
            text.compactMap { glyphs[$0]?[row] }.joined(separator: " ")
        }
    }
}
