import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsStreakBeforeHistoryTests {
    typealias F = StatsFixtures

    /// Focus every day of the week of 9–22 November (the window and its previous period).
    static let fortnight = (9...22).map { F.nov($0, 9, 0, minutes: 25) }

    @Test(arguments: [(0, 14), (5, 19), (30, 44)])
    func aStreakReachingTheFirstLoadedDayGoesOnThroughTheEarlierDaysWithFocus(earlier: Int, streak: Int) {
        let r = StatsCalculator.report(StatsInput(
            window: StatsWindow(from: F.day(2026, 11, 16), to: F.day(2026, 11, 22)), calendar: F.berlin,
            now: F.local(F.berlin, 2026, 11, 22, 12, 0), sessions: Self.fortnight,
            historyFrom: F.day(2026, 11, 9), focusDaysBeforeHistory: earlier))
        #expect(r.summary.streakDays == streak)
        #expect(r.summary.streakEnd == F.day(2026, 11, 22))
    }

    @Test func earlierDaysDoNotJoinAStreakThatStopsInsideTheLoadedDays() {
        let broken = Self.fortnight.filter { $0.log.startedAt != F.nov(12, 9, 0, minutes: 25).log.startedAt }
        let r = StatsCalculator.report(StatsInput(
            window: StatsWindow(from: F.day(2026, 11, 16), to: F.day(2026, 11, 22)), calendar: F.berlin,
            now: F.local(F.berlin, 2026, 11, 22, 12, 0), sessions: broken,
            historyFrom: F.day(2026, 11, 9), focusDaysBeforeHistory: 30))
        #expect(r.summary.streakDays == 10)
    }
}
