import FocusCore
import Testing

/// #41: a refused date-time gives an example a person could mean: tomorrow, never a past day.
@Suite struct DateExampleTests {
    @Test func aRefusedDateTimeGivesTomorrowAsItsExample() {
        let today = LocalDate(year: 2026, month: 12, day: 7)
        #expect(throws: FocusError.self) { try DateParser.dateTime("someday", today: today, what: "--due") }
        do {
            _ = try DateParser.dateTime("someday", today: today, what: "--due")
        } catch {
            #expect(error.description.contains("expected '2026-12-08 17:00', 2026-12-08T17:00:00+01:00, 17:00"), "\(error)")
            #expect(!error.description.contains("2026-11-22"), "\(error)")
        }
    }

    /// #41: `log add --start "3 days ago"` once recorded a session at midnight without a word.
    @Test func aStartNeedsATimeOfDay() throws {
        let today = LocalDate(year: 2026, month: 12, day: 7)
        #expect(throws: FocusError.invalidValue(what: "start", value: "3 days ago", expected: "a time of day too, like '2026-12-04 09:00' or '3 days ago 9am'")) {
            try DateParser.moment("3 days ago", today: today, what: "start")
        }
        #expect(try DateParser.moment("3 days ago 9am", today: today, what: "start") == .local(LocalDate(year: 2026, month: 12, day: 4), TimeOfDay(hour: 9, minute: 0), second: 0))
    }
}
