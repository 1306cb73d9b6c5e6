import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsInsightsTests {
    typealias F = StatsFixtures

    @Test(arguments: [
        (0, nil), (1, PlannedLengthBucket.upTo15m), (900, .upTo15m), (901, .from16To25m), (1500, .from16To25m),
        (1501, .from26To45m), (2700, .from26To45m), (2701, .from46To60m), (3600, .from46To60m), (3601, .over60m),
    ] as [(Int, PlannedLengthBucket?)])
    func plannedLengthBuckets(seconds: Int, bucket: PlannedLengthBucket?) {
        #expect(PlannedLengthBucket(plannedSeconds: seconds) == bucket)
    }

    static let mixed: [SessionEntry] = [
        F.nov(16, 9, 0, minutes: 10, planned: 600),
        F.nov(16, 9, 30, minutes: 25), F.nov(17, 9, 0, minutes: 20, planned: 1200),
        F.nov(18, 14, 0, minutes: 25), F.nov(19, 14, 0, minutes: 25),
        F.nov(20, 14, 0, minutes: 10, status: .interrupted),
        F.nov(20, 20, 0, minutes: 50, planned: 3000), F.nov(21, 20, 0, minutes: 20, planned: 3000, status: .interrupted),
    ]

    @Test func completionByHourStarted() {
        let i = F.week(Self.mixed).insights
        #expect(i.byHour == [
            HourBucket(hour: 9, completed: 3, interrupted: 0),
            HourBucket(hour: 14, completed: 2, interrupted: 1),
            HourBucket(hour: 20, completed: 1, interrupted: 1),
        ])
        #expect(i.bestHour == 9)
        #expect(i.worstHour == 20)
    }

    @Test func completionByPlannedLengthAndSuggestedSpan() {
        let i = F.week(Self.mixed).insights
        #expect(i.byPlannedLength == [
            LengthBucket(bucket: .upTo15m, completed: 1, interrupted: 0, longestCompletedSeconds: 600),
            LengthBucket(bucket: .from16To25m, completed: 4, interrupted: 1, longestCompletedSeconds: 1500),
            LengthBucket(bucket: .from46To60m, completed: 1, interrupted: 1, longestCompletedSeconds: 3000),
        ])
        #expect(i.byPlannedLength.map(\.completionPercent) == [100, 80, 50])
        #expect(i.suggestedSpanSeconds == 1500)
        #expect(i.suggestedSpanBucket == .from16To25m)
    }

    @Test func noSuggestedSpanWithoutAnyLengthFinishedOften() {
        let i = F.week([F.nov(16, 9, 0, minutes: 5, status: .interrupted), F.nov(16, 10, 0, minutes: 25)]).insights
        #expect(i.suggestedSpanSeconds == nil)
        #expect(F.week([]).insights.isEmpty)
        #expect(F.week([]).insights.suggestedSpanSeconds == nil)
    }

    @Test func sessionsStartedBeforeTheWindowAreNotInTheInsights() {
        let i = F.week([F.nov(15, 23, 30, minutes: 60)]).insights
        #expect(i.isEmpty)
    }

    @Test func hourIsTheLocalWallClockHourOnADSTDay() {
        let afternoon = F.local(F.berlin, 2026, 10, 25, 15, 10)
        let r = F.report(F.berlin, from: F.day(2026, 10, 25), to: F.day(2026, 10, 25), [
            F.session("Thesis", from: afternoon, to: afternoon.addingTimeInterval(1500)),
        ])
        #expect(r.insights.byHour == [HourBucket(hour: 15, completed: 1, interrupted: 0)])
        #expect(r.insights.bestHour == nil)
    }
}
