import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsDaySplittingTests {
    typealias F = StatsFixtures

    @Test func sessionAcrossMidnightPutsThirtyMinutesOnTheFirstDayAndTwentyOnTheSecond() {
        let r = F.week([F.nov(16, 23, 30, minutes: 50)])
        #expect(F.seconds(r) == [1800, 1200, 0, 0, 0, 0, 0])
        #expect(r.days[0].completed == 1)
        #expect(r.days[1].completed == 0)
        #expect(r.totals == StatsTotals(focusedSeconds: 3000, completed: 1, interrupted: 0))
    }

    @Test func sessionEndingExactlyAtMidnightPutsNothingOnTheNextDay() {
        let r = F.week([F.nov(16, 23, 0, minutes: 60)])
        #expect(F.seconds(r) == [3600, 0, 0, 0, 0, 0, 0])
        #expect(r.days[1] == StatsDay(date: F.day(2026, 11, 17), focusedSeconds: 0, completed: 0, interrupted: 0))
    }

    @Test func sessionStartingExactlyAtMidnightBelongsToTheNewDay() {
        let r = F.week([F.nov(17, 0, 0, minutes: 25, status: .interrupted)])
        #expect(F.seconds(r) == [0, 1500, 0, 0, 0, 0, 0])
        #expect(r.days[1].interrupted == 1)
        #expect(r.days[0].interrupted == 0)
    }

    @Test func zeroLengthSessionsCountWithZeroSeconds() {
        let r = F.week([
            F.nov(18, 10, 0, minutes: 0, status: .completed),
            F.nov(18, 11, 0, minutes: 0, focused: 300, status: .interrupted),
            F.nov(19, 0, 0, minutes: 0, "Other"),
        ])
        #expect(F.seconds(r) == [0, 0, 0, 0, 0, 0, 0])
        #expect(r.days[2].completed == 1)
        #expect(r.days[2].interrupted == 1)
        #expect(r.days[3].completed == 1)
        #expect(r.tasks.map(\.task) == ["Other", "Thesis"])
        #expect(r.tasks[1] == TaskStats(task: "Thesis", focusedSeconds: 0, completed: 1, interrupted: 1, subtasks: []))
    }

    @Test func pausesSpreadFocusedSecondsInProportionToWallTime() {
        // 23:20–00:50 is 40 + 50 minutes of wall time; 3000 focused seconds split 4:5.
        let r = F.week([F.nov(16, 23, 20, minutes: 90, focused: 3000)])
        #expect(F.seconds(r) == [1333, 1667, 0, 0, 0, 0, 0])
        #expect(r.totals.focusedSeconds == 3000)
    }

    @Test func sessionStartingBeforeTheWindowAddsTimeButNoCount() {
        let r = F.week([F.nov(15, 23, 0, minutes: 90, "Thesis", "Chapter 2")])
        #expect(F.seconds(r) == [1800, 0, 0, 0, 0, 0, 0])
        #expect(r.totals == StatsTotals(focusedSeconds: 1800, completed: 0, interrupted: 0))
        #expect(r.tasks == [TaskStats(task: "Thesis", focusedSeconds: 1800, completed: 0, interrupted: 0, subtasks: [
            SubtaskStats(subtask: "Chapter 2", focusedSeconds: 1800, completed: 0, interrupted: 0),
        ])])
        #expect(r.summary.previousFocusedSeconds == 3600)
    }

    @Test func onlyThePartInsideTheWindowCounts() {
        let r = F.week([F.nov(22, 23, 0, minutes: 120)])
        #expect(F.seconds(r) == [0, 0, 0, 0, 0, 0, 3600])
        #expect(r.days[6].completed == 1)
    }

    @Test func sessionEndingAtTheWindowStartIsNotShown() {
        let r = F.week([F.nov(15, 23, 0, minutes: 60)])
        #expect(r.tasks.isEmpty)
        #expect(r.isEmpty)
        #expect(r.summary.previousFocusedSeconds == 3600)
    }

    @Test func totalsAreExactSumsRoundedOnce() {
        // 100.33 s on the first day and 201.33 s on the last: the days round to 100 and 201,
        // the total of the exact figures to 302.
        let a = F.nov(15, 23, 50, minutes: 15, focused: 301)
        let b = F.nov(22, 23, 50, minutes: 15, focused: 302)
        let r = F.week([a, b])
        #expect(F.seconds(r) == [100, 0, 0, 0, 0, 0, 201])
        #expect(r.totals.focusedSeconds == 302)
        #expect(r.tasks.first?.focusedSeconds == 302)
        #expect(r.summary.focusedSeconds == 302)
    }

    @Test func berlinFallBackDayHoldsTwentyFiveHours() {
        // 2026-10-25 00:00 → 23:59:59 local is 25 h less one second of wall time.
        let start = F.local(F.berlin, 2026, 10, 25, 0, 0)
        let end = F.local(F.berlin, 2026, 10, 25, 23, 59, 59)
        #expect(end.timeIntervalSince(start) == 89_999)
        let r = F.report(F.berlin, from: F.day(2026, 10, 24), to: F.day(2026, 10, 26), [F.session("Thesis", from: start, to: end)])
        #expect(F.seconds(r) == [0, 89_999, 0])
    }

    @Test func berlinFallBackDaySplitsAtBothMidnights() {
        let start = F.local(F.berlin, 2026, 10, 24, 23, 0)
        let end = F.local(F.berlin, 2026, 10, 26, 1, 0)
        let r = F.report(F.berlin, from: F.day(2026, 10, 24), to: F.day(2026, 10, 26), [F.session("Thesis", from: start, to: end, focused: 48_600)])
        // Wall time 1 h + 25 h + 1 h; half of it focused.
        #expect(F.seconds(r) == [1800, 45_000, 1800])
    }

    @Test func berlinSpringForwardDayHoldsTwentyThreeHours() {
        let start = F.local(F.berlin, 2026, 3, 28, 23, 0)
        let end = F.local(F.berlin, 2026, 3, 30, 1, 0)
        let r = F.report(F.berlin, from: F.day(2026, 3, 28), to: F.day(2026, 3, 30), [F.session("Thesis", from: start, to: end, focused: 45_000)])
        #expect(end.timeIntervalSince(start) == 90_000)
        #expect(F.seconds(r) == [1800, 41_400, 1800])
    }

    @Test func newYorkFallBackDayHoldsTwentyFiveHours() {
        let start = F.local(F.newYork, 2026, 11, 1, 0, 0)
        let end = F.local(F.newYork, 2026, 11, 1, 23, 59, 59)
        let spill = F.local(F.newYork, 2026, 11, 1, 23, 0)
        let r = F.report(F.newYork, from: F.day(2026, 10, 31), to: F.day(2026, 11, 2), [
            F.session("Thesis", from: start, to: end),
            F.session("Thesis", from: spill, to: spill.addingTimeInterval(7200), focused: 3600),
        ])
        #expect(F.seconds(r) == [0, 89_999 + 1800, 1800])
        #expect(r.days[1].completed == 2)
    }

    @Test func newYorkSpringForwardDayHoldsTwentyThreeHours() {
        let start = F.local(F.newYork, 2026, 3, 8, 0, 0)
        let end = F.local(F.newYork, 2026, 3, 9, 0, 0)
        #expect(end.timeIntervalSince(start) == 82_800)
        let r = F.report(F.newYork, from: F.day(2026, 3, 8), to: F.day(2026, 3, 9), [F.session("Thesis", from: start, to: end)])
        #expect(F.seconds(r) == [82_800, 0])
    }

    @Test func sessionsRecordedInOtherOffsetsLandOnTheLocalDay() {
        // Recorded in Tokyo as 07:30–08:20 +09:00 on the 17th: 23:30–00:20 in Berlin.
        let start = F.offset(2026, 11, 17, 7, 30, utcOffset: 9 * 3600)
        let end = F.offset(2026, 11, 17, 8, 20, utcOffset: 9 * 3600)
        let session = F.session("Thesis", from: start, to: end)
        let berlin = F.report(F.berlin, from: F.day(2026, 11, 16), to: F.day(2026, 11, 17), [session])
        #expect(F.seconds(berlin) == [1800, 1200])
        #expect(berlin.days.map(\.completed) == [1, 0])
        let newYork = F.report(F.newYork, from: F.day(2026, 11, 16), to: F.day(2026, 11, 17), [session])
        #expect(F.seconds(newYork) == [3000, 0])
        #expect(newYork.timeZone.identifier == "America/New_York")
    }

    @Test func everyDayAppearsAscendingWithZerosWhenEmpty() {
        let r = F.week([F.nov(19, 9, 0, minutes: 25)])
        #expect(r.days.map(\.date.description) == ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(r.days[0] == StatsDay(date: F.day(2026, 11, 16), focusedSeconds: 0, completed: 0, interrupted: 0))
        #expect(F.seconds(r) == [0, 0, 0, 1500, 0, 0, 0])
    }

    @Test func sessionsFromOutsideTheLoadedRangeAreIgnored() {
        let r = F.week([F.nov(1, 9, 0, minutes: 25), F.nov(30, 9, 0, minutes: 25)])
        #expect(r.isEmpty)
        #expect(r.summary.previousFocusedSeconds == 0)
    }
}
