import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// Due-first, priority, the daily cap and buffers (README, "Planning"), on worked examples.
/// Europe/Berlin, default rules (08:00–22:00, minimum 15 min, break 5 min, span 25 min).
/// 2026-11-23 is a Monday.
struct PlanningRulesTests: SchedulerTestHelpers {
    func plan(_ items: [WorkItem], busy: [DateInterval] = [], now: Date, rules: SchedulingRules = SchedulerFixtures.rules) -> Schedule {
        let schedule = Scheduler.plan(items: items, busy: busy, now: now, rules: rules)
        let problems = ScheduleChecker.violations(schedule, items: items, busy: busy, now: now, rules: rules)
        #expect(problems.isEmpty, "\(problems)")
        return schedule
    }

    func planned(_ schedule: Schedule, _ id: Int64) -> Int {
        schedule.blocks.filter { $0.itemID == id }.reduce(0) { $0 + $1.seconds }
    }

    @Test func workDueTomorrowGetsTheLastFreeMinutesTonightBeforeWorkDueNextWeek() {
        // 20 free minutes tonight; tomorrow is busy until the deadline at noon.
        let now = local("2026-11-23 21:40")
        let tomorrow = WorkItem(id: 2, label: "Essay/Draft", remainingSeconds: minutes(60), due: local("2026-11-24 12:00"))
        let nextWeek = WorkItem(id: 1, label: "Book/Read", remainingSeconds: minutes(60), due: local("2026-12-01 17:00"))
        let schedule = plan([tomorrow, nextWeek], busy: [busy("2026-11-24 08:00", "2026-11-24 12:00")], now: now)
        #expect(schedule.blocks.filter { $0.itemID == 2 } == [block(2, "2026-11-23 21:40", "2026-11-23 22:00")])
        #expect(schedule.atRisk.map(\.itemID) == [2])
        #expect(schedule.atRisk.first?.competitors == [])
        #expect(planned(schedule, 1) == minutes(60))
    }

    @Test func workAtRiskNeverTakesTimeThatWorkDueLaterNeedsToFit() {
        // Both need the 20 minutes tonight: the one due later fits only there, so it keeps them.
        let now = local("2026-11-23 21:40")
        let first = WorkItem(id: 1, label: "A/First", remainingSeconds: minutes(60), due: local("2026-11-24 12:00"))
        let second = WorkItem(id: 2, label: "A/Second", remainingSeconds: minutes(20), due: local("2026-11-24 12:30"))
        let schedule = plan([first, second], busy: [busy("2026-11-24 08:00", "2026-11-24 12:30")], now: now)
        #expect(planned(schedule, 2) == minutes(20))
        #expect(planned(schedule, 1) == 0)
        #expect(schedule.atRisk.map(\.itemID) == [1])
        #expect(schedule.atRisk.first?.competitors == ["A/Second"])
    }

    @Test func higherPriorityGoesFirstAmongWorkDueTheSameDay() {
        let now = local("2026-11-23 07:30")
        let normal = WorkItem(id: 1, label: "A/Normal", remainingSeconds: minutes(25), due: local("2026-11-27 09:00"))
        let high = WorkItem(id: 2, label: "A/High", remainingSeconds: minutes(25), due: local("2026-11-27 17:00"), priority: 1)
        let low = WorkItem(id: 3, label: "A/Low", remainingSeconds: minutes(25), due: local("2026-11-27 08:30"), priority: -1)
        let schedule = plan([normal, high, low], now: now)
        #expect(schedule.blocks == [
            block(2, "2026-11-23 08:00", "2026-11-23 08:25"),
            block(1, "2026-11-23 08:30", "2026-11-23 08:55"),
            block(3, "2026-11-23 09:00", "2026-11-23 09:25"),
        ])
        // Work due an earlier day still goes first, whatever its priority.
        let earlier = WorkItem(id: 4, label: "A/Earlier", remainingSeconds: minutes(25), due: local("2026-11-26 22:00"), priority: -1)
        #expect(plan([high, earlier], now: now).blocks.first?.itemID == 4)
    }

    @Test func aDailyCapSpreadsLongWorkOverTheDays() {
        let now = local("2026-11-23 07:30")
        var book = WorkItem(id: 1, label: "Book/Read", remainingSeconds: minutes(6 * 60), due: local("2026-11-27 22:00"), spanSeconds: minutes(60))
        book.maxPerDaySeconds = minutes(120)
        book.usedPerDay[berlin.day(of: now)] = minutes(90)
        let schedule = plan([book], now: now)
        var perDay: [LocalDate: Int] = [:]
        for block in schedule.blocks { perDay[berlin.day(of: block.start), default: 0] += block.seconds }
        // 30 minutes left today after 1h30m logged, then 2h a day.
        #expect(perDay == [
            LocalDate(year: 2026, month: 11, day: 23): minutes(30),
            LocalDate(year: 2026, month: 11, day: 24): minutes(120),
            LocalDate(year: 2026, month: 11, day: 25): minutes(120),
            LocalDate(year: 2026, month: 11, day: 26): minutes(90),
        ])
        #expect(schedule.atRisk.isEmpty)
    }

    @Test func workThatOnlyTheCapKeepsFromFittingSaysSo() {
        let now = local("2026-11-23 07:30")
        var essay = WorkItem(id: 1, label: "Essay/Write", remainingSeconds: minutes(3 * 60), due: local("2026-11-24 22:00"))
        essay.maxPerDaySeconds = minutes(60)
        let schedule = plan([essay], now: now)
        #expect(planned(schedule, 1) == minutes(120))
        #expect(schedule.atRisk.map(\.capSeconds) == [minutes(60)])
        let message = PlanRefusal.message(schedule.atRisk, label: "Essay/Write", calendar: berlin, now: now)
        #expect(message.contains("1h a day (its daily cap"), "\(message)")

        // Without the cap's help it would not fit either: the cap is not blamed.
        var tight = essay
        tight.remainingSeconds = minutes(30 * 60)
        tight.maxPerDaySeconds = minutes(600)
        #expect(plan([tight], now: now).atRisk.map(\.capSeconds) == [nil])
    }

    @Test func theBufferKeepsFreeTimeAroundTimedEventsButNotAroundAllDayOnes() {
        var rules = SchedulerFixtures.rules
        rules.bufferSeconds = 600
        let now = local("2026-11-23 09:00")
        let meeting = busy("2026-11-23 10:00", "2026-11-23 11:00")
        let subtask = Subtask(id: 1, taskID: 9, title: "Draft", estimateSeconds: minutes(100), due: local("2026-11-23 22:00"), createdAt: now)
        var input = ReplanInput(now: now, rules: rules, planned: [], sessions: [],
                                subtasks: [PlanSubtask(subtask: subtask, label: "Essay/Draft", loggedSeconds: 0)],
                                running: nil, events: [meeting])
        let schedule = Replanner.replan(input).schedule
        #expect(schedule.blocks.allSatisfy { $0.end <= local("2026-11-23 09:50") || $0.start >= local("2026-11-23 11:10") })
        #expect(schedule.blocks.first?.start == now)
        #expect(schedule.blocks.contains { $0.start == local("2026-11-23 11:10") })

        // An all-day event yesterday leaves this morning alone.
        input.events = []
        input.allDayEvents = [busy("2026-11-22 00:00", "2026-11-23 00:00")]
        input.now = local("2026-11-23 07:00")
        #expect(Replanner.replan(input).schedule.blocks.first?.start == local("2026-11-23 08:00"))
    }
}
