import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// Worked examples with literal expected blocks. Europe/Berlin, default rules (08:00–22:00,
/// minimum 15 min, break 5 min, span 25 min) unless a test says otherwise.
/// 2026-11-23 is a Monday.
struct SchedulerExampleTests: SchedulerTestHelpers {
    let monday = SchedulerFixtures.local("2026-11-23 07:30")
    let friday = SchedulerFixtures.local("2026-11-27 17:00")

    func item(
        _ id: Int64, _ label: String = "Thesis/Chapter", minutes work: Int, due: Date? = nil,
        notBefore: Date? = nil, span: Int? = nil, earliest: TimeOfDay? = nil, seconds: Int = 0
    ) -> WorkItem {
        WorkItem(
            id: id, label: label, remainingSeconds: work * 60 + seconds, notBefore: notBefore,
            due: due ?? friday, spanSeconds: span.map(minutes), earliest: earliest
        )
    }

    func plan(_ items: [WorkItem], busy: [DateInterval] = [], now: Date? = nil, rules: SchedulingRules = SchedulerFixtures.rules) -> Schedule {
        let schedule = Scheduler.plan(items: items, busy: busy, now: now ?? monday, rules: rules)
        let problems = ScheduleChecker.violations(schedule, items: items, busy: busy, now: now ?? monday, rules: rules)
        #expect(problems.isEmpty, "\(problems)")
        return schedule
    }

    @Test func blocksStartAtTheBeginningOfTheWorkingDay() {
        let schedule = plan([item(1, minutes: 50)])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(1, "2026-11-23 08:30", "2026-11-23 08:55"),
        ])
        #expect(schedule.atRisk.isEmpty)
    }

    @Test func blockStartsAreRoundedUpToWholeMinutes() {
        let schedule = plan([item(1, minutes: 50)], now: local("2026-11-23 09:10:20"))
        #expect(schedule.blocks == [
            block(1, "2026-11-23 09:11", "2026-11-23 09:36"),
            block(1, "2026-11-23 09:41", "2026-11-23 10:06"),
        ])
    }

    @Test func workStopsAtTheEndOfTheWorkingDayAndResumesNextMorning() {
        // 21:40–22:00 holds 20 minutes; the 30 left would leave 5 after a full block,
        // so they become two blocks of 15.
        let schedule = plan([item(1, minutes: 50)], now: local("2026-11-23 21:40"))
        #expect(schedule.blocks == [
            block(1, "2026-11-23 21:40", "2026-11-23 22:00"),
            block(1, "2026-11-24 08:00", "2026-11-24 08:15"),
            block(1, "2026-11-24 08:20", "2026-11-24 08:35"),
        ])
    }

    @Test func earliestTimeOfDayHoldsEveryDay() {
        let schedule = plan(
            [item(1, minutes: 50, earliest: TimeOfDay(hour: 21, minute: 30))], now: local("2026-11-23 21:00")
        )
        #expect(schedule.blocks == [
            block(1, "2026-11-23 21:30", "2026-11-23 21:55"),
            block(1, "2026-11-24 21:30", "2026-11-24 21:55"),
        ])
    }

    @Test func earliestTimeBeforeTheWorkingDayChangesNothing() {
        let schedule = plan([item(1, minutes: 25, earliest: TimeOfDay(hour: 6, minute: 0))])
        #expect(schedule.blocks == [block(1, "2026-11-23 08:00", "2026-11-23 08:25")])
    }

    @Test func longWorkIsSplitIntoSpanLongBlocksWithBreaks() {
        let schedule = plan([item(1, minutes: 90, span: 30)])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:30"),
            block(1, "2026-11-23 08:35", "2026-11-23 09:05"),
            block(1, "2026-11-23 09:10", "2026-11-23 09:40"),
        ])
    }

    @Test(arguments: [
        // 35 min: a full 25 would leave 10 < 15, so the first block is cut to 20.
        (35, ["08:00-08:20", "08:25-08:40"]),
        // 60 min: 25, then 35 left behaves as above.
        (60, ["08:00-08:25", "08:30-08:50", "08:55-09:10"]),
        // 65 min: 25, 25, 15: no shortening needed.
        (65, ["08:00-08:25", "08:30-08:55", "09:00-09:15"]),
        // 51 min: 25 would leave 26, which no blocks of 15–25 make; 21 + 15 + 15 does.
        (51, ["08:00-08:21", "08:26-08:41", "08:46-09:01"]),
    ])
    func noBlockIsLeftBelowTheMinimum(work: Int, expected: [String]) {
        let schedule = plan([item(1, minutes: work)])
        #expect(schedule.blocks == expected.map { range in
            let ends = range.split(separator: "-").map { "2026-11-23 \($0)" }
            return block(1, ends[0], ends[1])
        })
    }

    @Test func workBelowTheMinimumGetsOneBlockOfExactlyThatLength() {
        let schedule = plan([item(1, minutes: 10)])
        #expect(schedule.blocks == [block(1, "2026-11-23 08:00", "2026-11-23 08:10")])
    }

    @Test func workNoBlockCountCanMakeIsSplitEvenlyWithinTheSpan() {
        // 28 minutes with a 25-minute span and 15-minute minimum: two blocks of 14.
        let schedule = plan([item(1, minutes: 28)])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:14"),
            block(1, "2026-11-23 08:19", "2026-11-23 08:33"),
        ])
    }

    @Test func leftoverSecondsComeOffTheLongestBlock() {
        let schedule = plan([item(1, minutes: 49, seconds: 30)])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(1, "2026-11-23 08:30", "2026-11-23 08:54:30"),
        ])
    }

    @Test func busyEventsAreAvoidedAndBlocksMayTouchThem() {
        // 09:00–09:20 is too short for 25 minutes, which cannot be split into two blocks of 15.
        let schedule = plan(
            [item(1, minutes: 25)],
            busy: [busy("2026-11-23 08:00", "2026-11-23 09:00"), busy("2026-11-23 09:20", "2026-11-23 10:00")]
        )
        #expect(schedule.blocks == [block(1, "2026-11-23 10:00", "2026-11-23 10:25")])

        let before = plan([item(1, minutes: 25)], busy: [busy("2026-11-23 08:25", "2026-11-23 09:00")])
        #expect(before.blocks == [block(1, "2026-11-23 08:00", "2026-11-23 08:25")])
    }

    @Test func anEventBetweenTwoBlocksStandsInForTheBreak() {
        let schedule = plan([item(1, minutes: 50)], busy: [busy("2026-11-23 08:25", "2026-11-23 08:27")])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(1, "2026-11-23 08:27", "2026-11-23 08:52"),
        ])
    }

    @Test func freeGapShorterThanTheMinimumIsNotUsed() {
        // 08:00–08:10 would hold the 10 minutes, but a gap under 15 minutes is not used.
        let schedule = plan([item(1, minutes: 10)], busy: [busy("2026-11-23 08:10", "2026-11-23 12:00")])
        #expect(schedule.blocks == [block(1, "2026-11-23 12:00", "2026-11-23 12:10")])
    }

    @Test func busyTimeIsWidenedToWholeMinutes() {
        let schedule = plan(
            [item(1, minutes: 25)],
            busy: [DateInterval(start: local("2026-11-23 07:00"), end: local("2026-11-23 09:00:01"))]
        )
        #expect(schedule.blocks == [block(1, "2026-11-23 09:01", "2026-11-23 09:26")])
    }

    @Test func workWaitsForItsStartDate() {
        let schedule = plan([item(1, minutes: 25, notBefore: local("2026-11-25 00:00"))])
        #expect(schedule.blocks == [block(1, "2026-11-25 08:00", "2026-11-25 08:25")])
    }

    @Test func earlierDueItemIsPlacedFirstAndABreakSeparatesItems() {
        let schedule = plan([
            item(1, "Thesis/Later", minutes: 25, due: friday),
            item(2, "Thesis/Sooner", minutes: 25, due: local("2026-11-25 12:00")),
        ])
        #expect(schedule.blocks == [
            block(2, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(1, "2026-11-23 08:30", "2026-11-23 08:55"),
        ])
    }

    @Test func equalDueDatesGoByID() {
        let schedule = plan([item(7, minutes: 25), item(3, minutes: 25)])
        #expect(schedule.blocks == [
            block(3, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(7, "2026-11-23 08:30", "2026-11-23 08:55"),
        ])
    }

    @Test func blocksAreShapedSoAllTheWorkFitsBeforeTheDueDate() {
        // 08:00–09:20 (80 min) then 11:00–11:30 before the 11:30 due date, span 30.
        // Full blocks first would leave 10 unusable minutes at 09:10 and 10 minutes unplanned.
        let schedule = plan(
            [item(1, minutes: 100, due: local("2026-11-23 11:30"), span: 30)],
            busy: [busy("2026-11-23 09:20", "2026-11-23 11:00")]
        )
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:30"),
            block(1, "2026-11-23 08:35", "2026-11-23 09:00"),
            block(1, "2026-11-23 09:05", "2026-11-23 09:20"),
            block(1, "2026-11-23 11:00", "2026-11-23 11:30"),
        ])
        #expect(schedule.atRisk.isEmpty)
    }

    @Test func workThatCannotFitIsAtRiskWithWhatItNeedsWhatWasFreeAndWhoTookTheTime() {
        let schedule = plan([
            item(3, "Thesis/Draft", minutes: 180, due: local("2026-11-23 12:00")),
            item(1, "Stats/Homework", minutes: 25, due: local("2026-11-23 10:00")),
            item(2, "Math/Exercises", minutes: 50, due: local("2026-11-23 11:00")),
        ])
        // Homework 08:00, Exercises 08:30 and 09:00; the draft gets 09:30–12:00: five blocks.
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(2, "2026-11-23 08:30", "2026-11-23 08:55"),
            block(2, "2026-11-23 09:00", "2026-11-23 09:25"),
            block(3, "2026-11-23 09:30", "2026-11-23 09:55"),
            block(3, "2026-11-23 10:00", "2026-11-23 10:25"),
            block(3, "2026-11-23 10:30", "2026-11-23 10:55"),
            block(3, "2026-11-23 11:00", "2026-11-23 11:25"),
            block(3, "2026-11-23 11:30", "2026-11-23 11:55"),
        ])
        #expect(schedule.atRisk == [
            AtRiskItem(
                itemID: 3, label: "Thesis/Draft", due: local("2026-11-23 12:00"), neededSeconds: 10_800,
                freeSeconds: 7_500, competitors: ["Math/Exercises", "Stats/Homework"]
            ),
        ])
    }

    @Test func competitorsCountOnlyTimeInsideTheItemsHours() {
        // The late item may only work from 09:00: Homework's 08:00 block did not take its time.
        let schedule = plan([
            item(1, "Stats/Homework", minutes: 25, due: local("2026-11-23 09:00")),
            item(2, "Math/Exercises", minutes: 25, due: local("2026-11-23 10:00"), notBefore: local("2026-11-23 00:00"),
                 earliest: TimeOfDay(hour: 9, minute: 0)),
            item(3, "Thesis/Draft", minutes: 60, due: local("2026-11-23 10:00"), earliest: TimeOfDay(hour: 9, minute: 0)),
        ])
        #expect(schedule.atRisk.map(\.competitors) == [["Math/Exercises"]])
        #expect(schedule.atRisk.map(\.freeSeconds) == [minutes(25)])
    }

    @Test func overdueWorkIsAtRiskWithNoFreeTime() {
        let schedule = plan([item(1, "Thesis/Late", minutes: 25, due: local("2026-11-23 07:00"))])
        #expect(schedule.blocks.isEmpty)
        #expect(schedule.atRisk == [
            AtRiskItem(
                itemID: 1, label: "Thesis/Late", due: local("2026-11-23 07:00"), neededSeconds: 1500,
                freeSeconds: 0, competitors: []
            ),
        ])
    }

    @Test func finishedWorkIsNotPlanned() {
        let schedule = plan([item(1, minutes: 0), item(2, minutes: -5, due: local("2026-11-23 07:00"))])
        #expect(schedule == Schedule(blocks: [], atRisk: []))
    }

    @Test func startDateAfterTheDueDateLeavesNoTime() {
        let schedule = plan([item(1, minutes: 25, due: local("2026-11-24 12:00"), notBefore: local("2026-11-25 00:00"))])
        #expect(schedule.blocks.isEmpty)
        #expect(schedule.atRisk.map(\.freeSeconds) == [0])
    }

    @Test func dueDateLimitsTheWorkToTheMostThatFits() {
        // Due 08:35: 35 minutes hold 15 + break + 15 = 30 minutes of work (25 + break leaves 5).
        let schedule = plan([item(1, minutes: 35, due: local("2026-11-23 08:35"))])
        #expect(schedule.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:15"),
            block(1, "2026-11-23 08:20", "2026-11-23 08:35"),
        ])
        #expect(schedule.atRisk.map(\.freeSeconds) == [minutes(30)])
        // Due 08:40 gives 20 + break + 15: everything fits.
        let later = plan([item(1, minutes: 35, due: local("2026-11-23 08:40"))])
        #expect(later.blocks == [
            block(1, "2026-11-23 08:00", "2026-11-23 08:20"),
            block(1, "2026-11-23 08:25", "2026-11-23 08:40"),
        ])
        #expect(later.atRisk.isEmpty)
    }

    @Test func berlinFallBackDayKeepsLocalWorkingHours() {
        // 2026-10-25: Berlin goes from CEST (+2) to CET (+1). 22:00 CEST the day before is 20:00Z,
        // 08:00 CET on the day is 07:00Z.
        let schedule = plan([item(1, minutes: 50, due: local("2026-10-30 17:00"))], now: local("2026-10-24 21:40"))
        #expect(schedule.blocks == [
            PlannedBlock(itemID: 1, start: utc("2026-10-24T19:40:00Z"), end: utc("2026-10-24T20:00:00Z")),
            PlannedBlock(itemID: 1, start: utc("2026-10-25T07:00:00Z"), end: utc("2026-10-25T07:15:00Z")),
            PlannedBlock(itemID: 1, start: utc("2026-10-25T07:20:00Z"), end: utc("2026-10-25T07:35:00Z")),
        ])
        let evening = plan(
            [item(1, minutes: 25, due: local("2026-10-30 17:00"), earliest: TimeOfDay(hour: 21, minute: 35))],
            now: local("2026-10-25 12:00")
        )
        #expect(evening.blocks == [
            PlannedBlock(itemID: 1, start: utc("2026-10-25T20:35:00Z"), end: utc("2026-10-25T21:00:00Z")),
        ])
    }

    @Test func earliestTimeOnASpringForwardDayIsLocalTime() {
        // 2026-03-29: Berlin skips 02:00–03:00 inside these 01:00–22:00 hours; 04:00 CEST is 02:00Z.
        let rules = SchedulingRules(calendar: berlin, workdayStart: TimeOfDay(hour: 1, minute: 0))
        let schedule = plan(
            [item(1, minutes: 25, due: local("2026-03-31 17:00"), earliest: TimeOfDay(hour: 4, minute: 0))],
            now: local("2026-03-29 00:30"), rules: rules
        )
        #expect(schedule.blocks == [
            PlannedBlock(itemID: 1, start: utc("2026-03-29T02:00:00Z"), end: utc("2026-03-29T02:25:00Z")),
        ])
    }

    @Test func newYorkFallBackDayKeepsLocalWorkingHours() {
        // 2026-11-01: New York goes from EDT (−4) to EST (−5). 22:00 EDT is 02:00Z, 08:00 EST is 13:00Z.
        let rules = SchedulingRules(calendar: newYork)
        let work = WorkItem(id: 1, label: "Thesis/Chapter", remainingSeconds: 3000, due: local("2026-11-06 17:00", newYork))
        let schedule = plan([work], now: local("2026-10-31 21:40", newYork), rules: rules)
        #expect(schedule.blocks == [
            PlannedBlock(itemID: 1, start: utc("2026-11-01T01:40:00Z"), end: utc("2026-11-01T02:00:00Z")),
            PlannedBlock(itemID: 1, start: utc("2026-11-01T13:00:00Z"), end: utc("2026-11-01T13:15:00Z")),
            PlannedBlock(itemID: 1, start: utc("2026-11-01T13:20:00Z"), end: utc("2026-11-01T13:35:00Z")),
        ])
    }

    @Test func sameInputsInAnyOrderGiveTheSamePlan() {
        let items = [
            item(4, "A/a", minutes: 95, due: local("2026-11-24 12:00"), span: 40),
            item(2, "B/b", minutes: 30, due: local("2026-11-24 12:00")),
            item(9, "C/c", minutes: 200, due: local("2026-11-25 18:00"), earliest: TimeOfDay(hour: 13, minute: 0)),
            item(1, "D/d", minutes: 600, due: local("2026-11-24 10:00")),
            item(5, "E/e", minutes: 45, due: friday, notBefore: local("2026-11-24 00:00")),
        ]
        let events = [
            busy("2026-11-23 09:00", "2026-11-23 10:30"), busy("2026-11-23 10:00", "2026-11-23 11:15"),
            busy("2026-11-23 14:00", "2026-11-23 14:50"), busy("2026-11-24 08:00", "2026-11-24 09:00"),
            busy("2026-11-24 13:10", "2026-11-24 13:20"),
        ]
        let reference = plan(items, busy: events)
        #expect(!reference.atRisk.isEmpty)
        var random = SeededRandom(seed: 42)
        for _ in 0..<20 {
            let shuffled = plan(random.shuffled(items), busy: random.shuffled(events))
            #expect(shuffled == reference)
        }
    }

    @Test func freeSecondsCountsTheWorkTheRulesCouldPlaceBeforeTheDueDate() {
        let events = [busy("2026-11-23 09:00", "2026-11-23 09:30")]
        // 08:00–09:00 holds 25 + 25; 09:30–10:00 holds 25.
        let plain = item(1, minutes: 300, due: local("2026-11-23 10:00"))
        #expect(Scheduler.freeSeconds(for: plain, busy: events, now: monday, rules: defaultRules) == minutes(75))
        // With a 30-minute span: 30 + 25 in the first hour, 30 in the half hour.
        let longer = item(1, minutes: 300, due: local("2026-11-23 10:00"), span: 30)
        #expect(Scheduler.freeSeconds(for: longer, busy: events, now: monday, rules: defaultRules) == minutes(85))
        let overdue = item(1, minutes: 300, due: local("2026-11-23 07:00"))
        #expect(Scheduler.freeSeconds(for: overdue, busy: events, now: monday, rules: defaultRules) == 0)
    }

    @Test func roundTheClockHoursKeepABreakAcrossMidnight() {
        let rules = SchedulingRules(
            calendar: berlin, workdayStart: TimeOfDay(hour: 0, minute: 0), workdayEnd: TimeOfDay(minutes: 1440)
        )
        // The day's last 5 minutes stay free so the blocks either side of midnight are a break apart.
        let schedule = plan([item(1, minutes: 90)], now: local("2026-11-23 23:10"), rules: rules)
        #expect(schedule.blocks == [
            block(1, "2026-11-23 23:10", "2026-11-23 23:35"),
            block(1, "2026-11-23 23:40", "2026-11-23 23:55"),
            block(1, "2026-11-24 00:00", "2026-11-24 00:25"),
            block(1, "2026-11-24 00:30", "2026-11-24 00:55"),
        ])
    }

    @Test func defaultRulesAreTheProductDefaults() {
        let rules = SchedulingRules(calendar: berlin)
        #expect(rules.workdayStart == TimeOfDay(hour: 8, minute: 0))
        #expect(rules.workdayEnd == TimeOfDay(hour: 22, minute: 0))
        #expect([rules.minimumBlockSeconds, rules.breakSeconds, rules.defaultSpanSeconds] == [Int]([900, 300, 1500]))
        #expect(rules == SchedulingRules(calendar: LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)))
        #expect(rules != SchedulingRules(calendar: newYork))
    }

    @Test func customWorkingHoursAndBlockRules() {
        let rules = SchedulingRules(
            calendar: berlin, workdayStart: TimeOfDay(hour: 9, minute: 30), workdayEnd: TimeOfDay(hour: 11, minute: 0),
            minimumBlockSeconds: 1200, breakSeconds: 600, defaultSpanSeconds: 2700
        )
        // 9:30–11:00 holds 45 + 10 break + 35; then 20 more the next morning.
        let schedule = plan([item(1, minutes: 100)], rules: rules)
        #expect(schedule.blocks == [
            block(1, "2026-11-23 09:30", "2026-11-23 10:15"),
            block(1, "2026-11-23 10:25", "2026-11-23 11:00"),
            block(1, "2026-11-24 09:30", "2026-11-24 09:50"),
        ])
    }
}
