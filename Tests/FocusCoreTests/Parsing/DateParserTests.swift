import FocusCore
import Foundation
import Testing

@Suite struct DateParserTests {
    let today = LocalDate(year: 2026, month: 11, day: 22)
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    let newYork = LocalCalendar(zone: ZoneRules.named("America/New_York")!)

    @Test(arguments: [
        ("09:00", 540), ("9:05", 545), ("23:59", 1439), ("00:00", 0), ("21:00", 1260),
        ("9am", 540), ("9 AM", 540), ("9:30pm", 1290), ("12pm", 720), ("12am", 0), ("12:30am", 30), ("noon", 720),
        ("midnight", 0), ("9", 540), ("09", 540), ("21", 1260), ("0", 0), (" 7:05am ", 425),
    ])
    func parsesTimesOfDayAsPeopleSayThem(text: String, minutes: Int) throws {
        let t = try DateParser.timeOfDay(text)
        #expect(t.minutes == minutes)
        // Stored and shown as HH:MM, which reads back as the same time.
        #expect(try DateParser.timeOfDay(t.description) == t)
    }

    @Test(arguments: [
        "24:00", "24", "09:60", "", "09:00:30", "ab:cd", "930", "0930", "9.30", "9h", "13pm", "0am", "9:30:15pm",
        "-1", "009", "fri 9am", "9 o'clock", "noon pm", "9am-5pm",
    ])
    func refusesAmbiguousOrOtherTimesListingTheFormsThatWork(text: String) {
        do throws(FocusError) {
            _ = try DateParser.timeOfDay(text, what: "earliest time")
            Issue.record("'\(text)' was read as a time of day")
        } catch {
            #expect(error.description.contains("9am") && error.description.contains("21:00") && error.description.contains("9:30pm"),
                    "\(error.description)")
        }
    }

    @Test(arguments: [
        ("09:00-17:00", "09:00-17:00"), ("9am-5pm", "09:00-17:00"), ("9am - 5:30pm", "09:00-17:30"), ("9-17", "09:00-17:00"),
        ("8:30am–12pm", "08:30-12:00"), ("22:00-24:00", "22:00-24:00"), ("6pm-midnight", "18:00-24:00"), ("18-12am", "18:00-24:00"),
        ("0-24", "00:00-24:00"),
    ])
    func readsWorkingHoursAsPeopleSayThem(text: String, normalized: String) throws {
        let hours = try #require(DayHours.parse(text))
        #expect(hours.description == normalized)
        #expect(DayHours.parse(hours.description) == hours)
    }

    @Test(arguments: ["5pm-9am", "9am", "9am-5pm-6pm", "24:00-10:00", "9am-", "-5pm", "9am-9am", "930-1700", "9-25"])
    func refusesWorkingHoursThatAreNoWindow(text: String) {
        #expect(DayHours.parse(text) == nil)
    }

    @Test func parsesDatesAndDayWords() throws {
        #expect(try DateParser.date("2026-11-30", today: today) == LocalDate(year: 2026, month: 11, day: 30))
        #expect(try DateParser.date("today", today: today) == today)
        #expect(try DateParser.date("Tomorrow", today: today) == LocalDate(year: 2026, month: 11, day: 23))
        #expect(try DateParser.date("2028-02-29", today: today) == LocalDate(year: 2028, month: 2, day: 29))
    }

    @Test(arguments: ["2026-02-29", "2026-13-01", "2026-11-31", "26-11-22", "2026/11/22", "22.11.2026", ""])
    func rejectsImpossibleDates(text: String) {
        #expect(throws: FocusError.self) { try DateParser.date(text, today: today) }
    }

    @Test func readsLocalDateTimesInThePersonsZone() throws {
        let input = try DateParser.dateTime("2026-11-22 17:00", today: today)
        #expect(input == .local(today, TimeOfDay(hour: 17, minute: 0), second: 0))
        #expect(Timestamp.utc(DateParser.resolve(input, in: berlin)) == "2026-11-22T16:00:00Z")
        #expect(Timestamp.utc(DateParser.resolve(input, in: newYork)) == "2026-11-22T22:00:00Z")
    }

    @Test(arguments: [
        ("2026-11-20T09:00:00+01:00", "2026-11-20T08:00:00Z"),
        ("2026-11-20T09:00:00Z", "2026-11-20T09:00:00Z"),
        ("2026-11-20T09:00:00.250-05:00", "2026-11-20T14:00:00Z"),
        ("2026-11-20 09:00+0530", "2026-11-20T03:30:00Z"),
    ])
    func readsInstantsWithOffsets(text: String, utc: String) throws {
        let input = try DateParser.dateTime(text, today: today)
        guard case let .instant(d) = input else { Issue.record("not an instant: \(input)"); return }
        #expect(Timestamp.utc(d) == utc)
    }

    @Test func aDueDayAloneMeansTheEndOfThatDay() throws {
        let input = try DateParser.dateTime("2026-11-27", today: today)
        #expect(Timestamp.utc(DateParser.resolve(input, in: berlin, endOfDay: true)) == "2026-11-27T23:00:00Z")
    }

    @Test(arguments: ["2026-11-22 25:00", "2026-11-22T17:00+99:00", "next week", "2026-11-22X17:00", "2026-11-22T17:00:00.x"])
    func rejectsBadDateTimes(text: String) {
        #expect(throws: FocusError.self) { try DateParser.dateTime(text, today: today) }
    }

    @Test func springForwardGapIsReportedAndPushedForward() {
        // 2026-03-08 02:30 does not exist in New York.
        let day = LocalDate(year: 2026, month: 3, day: 8)
        let t = TimeOfDay(hour: 2, minute: 30)
        guard case let .skipped(resolved) = newYork.ambiguity(day, t) else { Issue.record("gap not detected"); return }
        #expect(Timestamp.utc(resolved) == "2026-03-08T07:30:00Z")
    }

    @Test func fallBackOverlapTakesTheFirstOccurrence() {
        // 2026-11-01 01:30 happens twice in New York; the first is EDT (05:30Z).
        let day = LocalDate(year: 2026, month: 11, day: 1)
        let t = TimeOfDay(hour: 1, minute: 30)
        guard case let .repeated(first) = newYork.ambiguity(day, t) else { Issue.record("overlap not detected"); return }
        #expect(Timestamp.utc(first) == "2026-11-01T05:30:00Z")
        #expect(Timestamp.utc(newYork.instant(day, t)) == "2026-11-01T05:30:00Z")
    }

    @Test func localDaysAreCalendarDaysAcrossDST() {
        let fallBack = LocalDate(year: 2026, month: 10, day: 25)
        let length = berlin.startOfDay(fallBack.adding(days: 1)).timeIntervalSince(berlin.startOfDay(fallBack))
        #expect(length == 25 * 3600)
        // 23:30Z on the 25th is already 00:30 on the 26th in Berlin (UTC+1 after the change).
        let late = berlin.startOfDay(fallBack.adding(days: 1)).addingTimeInterval(-1800)
        #expect(berlin.day(of: late) == fallBack)
        #expect(berlin.day(of: late.addingTimeInterval(3600)) == fallBack.adding(days: 1))
    }
}
