import FocusCore
import FocusTime
import FoundationEssentials

/// Instants written as tests write them.
package enum TestDates {
    /// `2026-11-22T09:00:00Z` → Date (test input only).
    package static func instant(_ iso: String) -> Date {
        guard case let .instant(d)? = try? DateParser.dateTime(iso, today: LocalDate(year: 1970, month: 1, day: 1)) else {
            preconditionFailure("bad test instant \(iso)")
        }
        return d
    }
}
