import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsWindowTests {
    typealias F = StatsFixtures

    @Test func lastSevenDaysEndTodayAndIncludeIt() {
        let w = StatsWindow.last(7, today: F.day(2026, 11, 22))
        #expect(w.from == F.day(2026, 11, 16))
        #expect(w.to == F.day(2026, 11, 22))
        #expect(w.dayCount == 7)
        #expect(w.days.map(\.description) == ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"])
    }

    @Test func previousPeriodIsTheSameLengthJustBefore() {
        let w = StatsWindow.last(30, today: F.day(2026, 3, 1))
        #expect(w.from == F.day(2026, 1, 31))
        #expect(w.previous == StatsWindow(from: F.day(2026, 1, 1), to: F.day(2026, 1, 30)))
    }

    @Test func lastOneDayIsJustToday() {
        let w = StatsWindow.last(1, today: F.day(2026, 11, 22))
        #expect(w.days == [F.day(2026, 11, 22)])
        #expect(w.previous.days == [F.day(2026, 11, 21)])
        #expect(StatsWindow.last(0, today: F.day(2026, 11, 22)) == w)
    }

    @Test func reversedDatesAreSwapped() {
        #expect(StatsWindow(from: F.day(2026, 11, 22), to: F.day(2026, 11, 16)) == StatsWindow.last(7, today: F.day(2026, 11, 22)))
    }

    @Test(arguments: [(7, "2026-08-31"), (30, "2026-08-31"), (60, "2026-07-26")])
    func historyReachesTwelveWeeksOrThePreviousPeriod(days: Int, expected: String) {
        #expect(StatsWindow.last(days, today: F.day(2026, 11, 22)).historyFrom.description == expected)
    }
}
