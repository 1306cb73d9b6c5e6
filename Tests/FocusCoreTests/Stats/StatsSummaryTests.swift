import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsSummaryTests {
    typealias F = StatsFixtures

    @Test func totalAverageAndBestDay() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 30),
            F.nov(18, 9, 0, minutes: 60),
            F.nov(20, 9, 0, minutes: 60),
        ])
        #expect(r.summary.focusedSeconds == 9000)
        #expect(r.summary.dailyAverageSeconds == 1286)  // 9000 / 7 = 1285.7
        #expect(r.summary.daysWithFocus == 3)
        #expect(r.summary.bestDay?.date == F.day(2026, 11, 18))  // the earliest of the tied days
        #expect(r.summary.bestDay?.focusedSeconds == 3600)
    }

    @Test func streakEndingTodayCountsToday() {
        let r = F.week([F.nov(20, 9, 0, minutes: 25), F.nov(21, 9, 0, minutes: 25), F.nov(22, 9, 0, minutes: 25)])
        #expect(r.summary.streakDays == 3)
        #expect(r.summary.streakEnd == F.day(2026, 11, 22))
    }

    @Test func streakEndsYesterdayWhileTodayHasNoFocusYet() {
        let r = F.week([F.nov(19, 9, 0, minutes: 25), F.nov(20, 9, 0, minutes: 25), F.nov(21, 9, 0, minutes: 25)])
        #expect(r.summary.streakDays == 3)
        #expect(r.summary.streakEnd == F.day(2026, 11, 21))
    }

    @Test func aDayWithoutFocusBreaksTheStreak() {
        let broken = F.week([F.nov(19, 9, 0, minutes: 25), F.nov(20, 9, 0, minutes: 25), F.nov(22, 9, 0, minutes: 25)])
        #expect(broken.summary.streakDays == 1)
        let gone = F.week([F.nov(19, 9, 0, minutes: 25), F.nov(20, 9, 0, minutes: 25)])
        #expect(gone.summary.streakDays == 0)
        #expect(gone.summary.streakEnd == nil)
        let zeroLength = F.week([F.nov(21, 9, 0, minutes: 25), F.nov(22, 9, 0, minutes: 0)])
        #expect(zeroLength.summary.streakDays == 1)
        #expect(zeroLength.summary.streakEnd == F.day(2026, 11, 21))
    }

    @Test func streakSeesBackIntoThePreviousPeriodButNoFurther() {
        let daily = (1...22).map { F.nov($0, 9, 0, minutes: 25) }
        // Loaded from the previous period's first day (9 November): 14 days visible.
        #expect(F.week(daily).summary.streakDays == 14)
        // Loaded from 1 November.
        #expect(F.week(daily, historyFrom: F.day(2026, 11, 1)).summary.streakDays == 22)
    }

    @Test func streakOfAPastWindowEndsAtItsLastDay() {
        let r = F.week([F.nov(21, 9, 0, minutes: 25), F.nov(22, 9, 0, minutes: 25)], now: F.local(F.berlin, 2026, 12, 5, 9, 0))
        #expect(r.summary.streakDays == 2)
        #expect(r.summary.streakEnd == F.day(2026, 11, 22))
    }

    @Test func changeAgainstThePreviousPeriod() {
        let up = F.week([F.nov(10, 9, 0, minutes: 60), F.nov(16, 9, 0, minutes: 90)])
        #expect(up.summary.previous == StatsWindow(from: F.day(2026, 11, 9), to: F.day(2026, 11, 15)))
        #expect(up.summary.previousFocusedSeconds == 3600)
        #expect(up.summary.changePercent == 50.0)
        let down = F.week([F.nov(10, 9, 0, minutes: 90), F.nov(16, 9, 0, minutes: 60)])
        #expect(down.summary.changePercent == -33.3)
        let fresh = F.week([F.nov(16, 9, 0, minutes: 60)])
        #expect(fresh.summary.previousFocusedSeconds == 0)
        #expect(fresh.summary.changePercent == nil)
    }

    @Test func completionPercentOfSessionsStarted() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 25), F.nov(16, 10, 0, minutes: 25), F.nov(16, 11, 0, minutes: 25),
            F.nov(16, 12, 0, minutes: 5, status: .interrupted),
        ])
        #expect(r.summary.completionPercent == 75)
        #expect(F.week([]).summary.completionPercent == nil)
    }

    @Test func heatmapCoversTwelveWeeksAndMarksDaysBeforeTheLoadedRange() {
        let r = F.week([F.nov(10, 9, 0, minutes: 25), F.nov(22, 9, 0, minutes: 60)])
        #expect(r.heatmap.count == 84)
        #expect(r.heatmap.first?.date == F.day(2026, 8, 31))
        #expect(r.heatmap.last == HeatmapDay(date: F.day(2026, 11, 22), focusedSeconds: 3600))
        #expect(r.heatmap.filter { $0.focusedSeconds == nil }.count == 70)  // before 9 November
        #expect(r.heatmap.first { $0.date == F.day(2026, 11, 10) }?.focusedSeconds == 1500)
        let full = F.week([], historyFrom: F.day(2026, 8, 31))
        #expect(full.heatmap.allSatisfy { $0.focusedSeconds == 0 })
    }
}
