/// A reason an .ics file cannot be read, with the physical line (1-based) where it was found.
package struct ICSParseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// 1-based physical line number in the file (the first line of a folded content line).
    package let line: Int
    /// What is wrong, as a sentence fragment: `DTSTART value '2026-13-01' is not a date …`.
    package let reason: String

    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 12: <reason>`.
    package var description: String { "line \(line): \(reason)" }
}
