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
}
