import FocusTime
import Foundation
import Testing

/// The package's one copy of civil-date arithmetic and of the rule for wall-clock readings.
@Suite struct CivilCalendarTests {
    @Test func dayNumbersRoundTripAndAgreeWithFoundationOverTenThousandYears() throws {
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Every 97 days from year 1 to year 9999: every month, leap or not, every weekday.
        var n = CivilCalendar.dayNumber(year: 1, month: 1, day: 1)
        let last = CivilCalendar.dayNumber(year: 9999, month: 12, day: 31)
        while n <= last {
            let (y, m, d) = CivilCalendar.date(fromDayNumber: n)
            #expect(CivilCalendar.dayNumber(year: y, month: m, day: d) == n)
            let date = Date(timeIntervalSince1970: Double(n) * 86_400)
            let parts = gregorian.dateComponents([.year, .month, .day, .weekday], from: date)
            if y >= 1600 {  // Foundation's Gregorian calendar switches to Julian before 1582.
                #expect(parts.year == y && parts.month == m && parts.day == d, "day \(n)")
                #expect(parts.weekday.map { $0 - 1 } == CivilCalendar.weekday(ofDay: n))
            }
            n += 97
        }
    }

    @Test(arguments: [(1900, false), (2000, true), (2024, true), (2026, false), (2100, false), (2400, true)])
    func leapYears(year: Int, leap: Bool) {
        #expect(CivilCalendar.isLeapYear(year) == leap)
        #expect(CivilCalendar.daysInMonth(year: year, month: 2) == (leap ? 29 : 28))
        #expect(LocalDate(year: year, month: 2, day: 29).isValid == leap)
    }

    @Test func negativeWallSecondsFloorToTheDayBefore() {
        #expect(CivilCalendar.day(ofWall: -1) == -1)
        #expect(CivilCalendar.secondOfDay(ofWall: -1) == 86_399)
        #expect(LocalDate(dayNumber: -1).description == "1969-12-31")
    }

    /// A zone made up for the test: +1 until t = 1000 days, +2 after (a "spring forward").
    struct Step: UTCOffsets {
        let at: Int64
        let before: Int
        let after: Int
        func offset(atUTC t: Int64) -> Int { t < at ? before : after }
    }

    @Test func wallReadingsInAGapMoveForwardAndInAnOverlapTakeTheFirst() {
        let change: Int64 = 1000 * 86_400
        let forward = Step(at: change, before: 3600, after: 7200)
        // The wall clock jumps from change+1h to change+2h: change+1h30 does not exist.
        #expect(forward.utc(fromWall: change + 5400) == change + 1800)
        #expect(forward.utc(fromWall: change + 7200) == change)
        let back = Step(at: change, before: 7200, after: 3600)
        // change+1h30 on the wall happens at change-30m and at change+30m: the first wins.
        #expect(back.utc(fromWall: change + 5400) == change - 1800)
    }

    @Test func extremeInstantsNeverTrap() throws {
        let berlin = try #require(ZoneRules.named("Europe/Berlin"))
        let posix = try #require(ZoneRules.fromTZ("CET-1CEST,M3.5.0,M10.5.0/3"))
        for zone in [berlin, posix] {
            for t in [Int64.max, Int64.min, Int64.max / 2, Int64.min / 2] {
                _ = zone.offset(atUTC: t)
                _ = zone.utc(fromWall: t)
            }
            let calendar = LocalCalendar(zone: zone)
            for date in [Date.distantFuture, Date.distantPast, Date(timeIntervalSince1970: 9.3e18), Date(timeIntervalSince1970: -9.3e18),
                         Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: .nan)] {
                _ = calendar.day(of: date)
                _ = calendar.wallClockText(date)
            }
        }
    }

    @Test func posixRulesAgreeWithTheZoneDatabaseForTheirZone() throws {
        let file = try #require(ZoneRules.named("Australia/Sydney"))
        let rule = try #require(ZoneRules.fromTZ("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        var t = CivilCalendar.wall(year: 2026, month: 1, day: 1)
        while t < CivilCalendar.wall(year: 2028, month: 1, day: 1) {
            #expect(file.offset(atUTC: Int64(t)) == rule.offset(atUTC: Int64(t)), "t = \(t)")
            t += 3 * 3600 + 17 * 60
        }
    }
}

@Suite struct LocalDateTextTests {
    @Test(arguments: [(1, "0001-01-01"), (999, "0999-01-01"), (2026, "2026-01-01"), (9999, "9999-01-01"), (10_000, "10000-01-01")])
    func yearsAreWrittenWithFourDigits(year: Int, text: String) {
        #expect(LocalDate(year: year, month: 1, day: 1).description == text)
    }
}
