import FocusCore
import Foundation
import Testing

/// Dates as people say them, against a reference day: Wednesday 2026-11-25 unless a row says.
@Suite struct DayPhraseTests {
    static let wednesday = LocalDate(year: 2026, month: 11, day: 25)
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)

    static func day(_ text: String) -> LocalDate {
        let p = text.split(separator: "-").map { Int($0)! }
        return LocalDate(year: p[0], month: p[1], day: p[2])
    }

    @Test(arguments: [
        ("today", "2026-11-25"), ("tomorrow", "2026-11-26"), ("Yesterday", "2026-11-24"),
        ("fri", "2026-11-27"), ("friday", "2026-11-27"), ("this friday", "2026-11-27"), ("Next Friday", "2026-11-27"),
        ("last fri", "2026-11-20"), ("wed", "2026-11-25"), ("next wed", "2026-12-02"), ("last wednesday", "2026-11-18"),
        ("mon", "2026-11-30"), ("sun", "2026-11-29"), ("  tue  ", "2026-12-01"), ("thurs", "2026-11-26"),
        ("in 3 days", "2026-11-28"), ("in 1 day", "2026-11-26"), ("in 2 weeks", "2026-12-09"), ("in a week", "2026-12-02"),
        ("in 1 month", "2026-12-25"), ("3 days ago", "2026-11-22"), ("2 weeks ago", "2026-11-11"),
        ("end of week", "2026-11-29"), ("end of month", "2026-11-30"), ("end of the month", "2026-11-30"),
        ("end of year", "2026-12-31"), ("2026-12-24", "2026-12-24"),
    ])
    func readsDayPhrases(text: String, expected: String) throws {
        #expect(try DateParser.date(text, today: Self.wednesday) == Self.day(expected))
        // The same phrase where a date-time is taken is that day, with no time.
        #expect(try DateParser.dateTime(text, today: Self.wednesday) == .day(Self.day(expected)))
    }

    @Test func aWeekdayOnThatDayIsTodayAndNextIsAWeekOn() throws {
        let friday = LocalDate(year: 2026, month: 11, day: 27)
        #expect(try DateParser.date("fri", today: friday) == friday)
        #expect(try DateParser.date("next fri", today: friday) == friday.adding(days: 7))
        #expect(try DateParser.date("last fri", today: friday) == friday.adding(days: -7))
        #expect(try DateParser.date("end of week", today: LocalDate(year: 2026, month: 11, day: 29)) == Self.day("2026-11-29"))
    }

    @Test(arguments: [
        ("fri 17:00", "2026-11-27", 17, 0), ("monday 9am", "2026-11-30", 9, 0), ("tomorrow 9:30pm", "2026-11-26", 21, 30),
        ("tomorrow at noon", "2026-11-26", 12, 0), ("12am", "2026-11-25", 0, 0), ("12pm", "2026-11-25", 12, 0),
        ("9 pm", "2026-11-25", 21, 0), ("in 3 days 08:15", "2026-11-28", 8, 15), ("end of month 17:00", "2026-11-30", 17, 0),
        ("2026-12-01 5pm", "2026-12-01", 17, 0), ("next fri at 7:05am", "2026-11-27", 7, 5), ("Today 23:59", "2026-11-25", 23, 59),
    ])
    func readsDaysWithTimes(text: String, expected: String, hour: Int, minute: Int) throws {
        let input = try DateParser.dateTime(text, today: Self.wednesday)
        #expect(input == .local(Self.day(expected), TimeOfDay(hour: hour, minute: minute), second: 0))
    }

    @Test(arguments: [
        "next week", "fri 25:00", "13pm", "0am", "9:30:15pm", "in 3 fortnights", "in -3 days", "in 99999 days",
        "friday friday", "next", "end of", "end of day", "at 5pm", "fri 17", "tomorrow 9 o'clock", "in days", "3 days",
        "this", "last", "noonish", "fri noon pm",
    ])
    func refusesOtherFormsListingThoseThatWork(text: String) {
        #expect(throws: FocusError.self) { try DateParser.dateTime(text, today: Self.wednesday) }
        do throws(FocusError) {
            _ = try DateParser.date(text, today: Self.wednesday, what: "--from date")
            Issue.record("'\(text)' was read as a date")
        } catch {
            #expect(error.description.contains("in 3 days") && error.description.contains("next fri"))
        }
    }

    @Test func monthsEndOnTheirLastDay() throws {
        let jan31 = LocalDate(year: 2026, month: 1, day: 31)
        #expect(try DateParser.date("in 1 month", today: jan31) == Self.day("2026-02-28"))
        #expect(try DateParser.date("in 13 months", today: jan31) == Self.day("2027-02-28"))
        #expect(try DateParser.date("1 month ago", today: Self.day("2026-03-31")) == Self.day("2026-02-28"))
        #expect(try DateParser.date("end of month", today: Self.day("2028-02-10")) == Self.day("2028-02-29"))
        #expect(try DateParser.date("tomorrow", today: Self.day("2026-12-31")) == Self.day("2027-01-01"))
        #expect(try DateParser.date("end of week", today: Self.day("2026-12-30")) == Self.day("2027-01-03"))
    }

    @Test func resolvesAcrossBerlinsClockChanges() throws {
        // Saturday 2026-03-28: clocks go forward in Berlin the next night.
        let saturday = Self.day("2026-03-28")
        let nineAM = try DateParser.dateTime("sun 9am", today: saturday)
        #expect(Timestamp.utc(DateParser.resolve(nineAM, in: berlin)) == "2026-03-29T07:00:00Z")
        let inGap = try DateParser.dateTime("tomorrow 2:30am", today: saturday)
        #expect(DateParser.ambiguityWarning(inGap, in: berlin) != nil)
        // A date-only due means the end of that local day: the 25-hour 2026-10-25 ends at 23:00Z.
        let due = try DateParser.dateTime("tomorrow", today: Self.day("2026-10-24"))
        #expect(Timestamp.utc(DateParser.resolve(due, in: berlin, endOfDay: true)) == "2026-10-25T23:00:00Z")
        let monthEnd = try DateParser.dateTime("end of month", today: Self.day("2026-10-24"))
        #expect(Timestamp.utc(DateParser.resolve(monthEnd, in: berlin, endOfDay: true)) == "2026-10-31T23:00:00Z")
    }
}
