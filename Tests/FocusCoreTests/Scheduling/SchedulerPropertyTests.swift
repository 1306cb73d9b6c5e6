import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// A random scheduling problem, rebuilt exactly from its seed.
struct RandomSchedulingInstance {
    let seed: UInt64
    var rules: SchedulingRules
    let now: Date
    let items: [WorkItem]
    let busy: [DateInterval]

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        let calendar = random.chance(50) ? SchedulerFixtures.berlin : SchedulerFixtures.newYork
        // Days around both zones' 2026 DST changes, and an ordinary week.
        let base = random.pick(["2026-03-06", "2026-03-27", "2026-10-23", "2026-10-30", "2026-11-23"])
        let midnight = SchedulerFixtures.local("\(base) 00:00", calendar)
        var now = midnight.addingTimeInterval(Double(random.int(0...2 * 1440) * 60))
        if random.chance(30) { now.addTimeInterval(Double(random.int(1...59))) }

        let start = random.int(6...10) * 60 + random.pick([0, 15, 30, 45])
        let end = min(1440, start + random.int(4...14) * 60 + random.pick([0, 20, 40]))
        rules = SchedulingRules(
            calendar: calendar,
            workdayStart: TimeOfDay(minutes: start),
            workdayEnd: TimeOfDay(minutes: random.chance(5) ? 1440 : end),
            minimumBlockSeconds: random.pick([600, 900, 900, 1200, 1800]),
            breakSeconds: random.pick([0, 300, 300, 600, 900]),
            defaultSpanSeconds: random.pick([900, 1500, 1500, 2700, 3600, 5400])
        )
        // Some weekdays with their own window or off, and a dated day off now and then.
        for weekday in 0..<7 where random.chance(25) {
            if random.chance(30) {
                rules.weekdayHours[weekday] = .some(nil)
            } else {
                let from = random.int(5...12) * 60 + random.pick([0, 30])
                rules.weekdayHours[weekday] = .some(DayHours(start: TimeOfDay(minutes: from), end: TimeOfDay(minutes: min(1440, from + random.int(2...12) * 60))))
            }
        }
        if random.chance(20) { rules.daysOff.insert(calendar.day(of: now).adding(days: random.int(0...3))) }

        var busy: [DateInterval] = []
        for _ in 0..<random.int(0...30) {
            var from = now.addingTimeInterval(Double(random.int(-1440...6 * 1440) * 60))
            if random.chance(20) { from.addTimeInterval(Double(random.int(1...59))) }
            let length = random.chance(5) ? 0 : random.int(1...240) * 60 + (random.chance(20) ? random.int(1...59) : 0)
            busy.append(DateInterval(start: from, duration: Double(length)))
        }
        self.busy = busy

        var items: [WorkItem] = []
        let ids = random.shuffled(Array(Int64(1)...Int64(20)))
        for index in 0..<random.int(0...12) {
            var remaining = random.int(0...360) * 60
            if random.chance(25) { remaining += random.int(1...59) }
            if random.chance(8) { remaining = -random.int(0...600) }
            var due = now.addingTimeInterval(Double(random.int(-120...5 * 1440) * 60))
            if random.chance(20) { due.addTimeInterval(Double(random.int(1...59))) }
            let today = calendar.day(of: now)
            let notBefore = random.chance(30) ? calendar.startOfDay(today.adding(days: random.int(-1...4))) : nil
            var span: Int? = random.chance(50) ? nil : random.pick([600, 900, 1200, 1500, 1800, 2700, 3600, 5400])
            if random.chance(5) { span = random.int(700...4000) }
            let earliest = random.chance(30) ? TimeOfDay(minutes: random.int(7...21) * 60 + random.pick([0, 10, 30, 45])) : nil
            var item = WorkItem(
                id: ids[index], label: "Task\(ids[index])/Part", remainingSeconds: remaining, notBefore: notBefore,
                due: due, spanSeconds: span, earliest: earliest
            )
            // Priorities, and daily caps with work already done today or on a later day.
            item.priority = random.pick([-1, 0, 0, 0, 1])
            if random.chance(30) {
                item.maxPerDaySeconds = random.pick([1800, 3600, 5400, 7200]) + (random.chance(20) ? random.int(1...59) : 0)
                if random.chance(50) { item.usedPerDay[today] = random.int(0...90) * 60 + random.int(0...59) }
                if random.chance(20) { item.usedPerDay[today.adding(days: 1)] = random.int(0...90) * 60 }
            }
            items.append(item)
        }
        self.items = items
        self.now = now
    }
}

struct SchedulerPropertyTests {
    /// 600 instances in 6 groups, so they run side by side.
    static let groups = Array(0..<6)
    static let perGroup: UInt64 = 100

    static func seeds(_ group: Int) -> Range<UInt64> {
        (UInt64(group) * perGroup)..<(UInt64(group + 1) * perGroup)
    }

    @Test(arguments: groups)
    func everyBlockKeepsEveryRuleAndEveryItemGetsItsWorkOrIsAtRisk(group: Int) {
        var atRisk = 0
        var blocks = 0
        var capped = 0
        for seed in Self.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            let schedule = Scheduler.plan(items: instance.items, busy: instance.busy, now: instance.now, rules: instance.rules)
            let problems = ScheduleChecker.violations(
                schedule, items: instance.items, busy: instance.busy, now: instance.now, rules: instance.rules
            )
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
            atRisk += schedule.atRisk.count
            blocks += schedule.blocks.count
            capped += schedule.atRisk.filter { $0.capSeconds != nil }.count
        }
        // The instances exercise both outcomes.
        #expect(atRisk > 0, "group \(group): no instance had work at risk")
        #expect(capped > 0, "group \(group): no capped item was at risk because of its cap")
        #expect(blocks > 100, "group \(group): only \(blocks) blocks planned")
    }

    @Test(arguments: groups)
    func theSameInstanceInAnotherOrderGivesTheSamePlan(group: Int) {
        for seed in Self.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            let reference = Scheduler.plan(items: instance.items, busy: instance.busy, now: instance.now, rules: instance.rules)
            var random = SeededRandom(seed: seed ^ 0xDEAD_BEEF)
            let again = Scheduler.plan(
                items: random.shuffled(instance.items), busy: random.shuffled(instance.busy), now: instance.now, rules: instance.rules
            )
            #expect(again == reference, "seed \(seed)")
        }
    }

    @Test(arguments: groups)
    func freeSecondsIsAtLeastWhatALoneItemGets(group: Int) {
        for seed in Self.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            for item in instance.items where item.remainingSeconds > 0 {
                let alone = Scheduler.plan(items: [item], busy: instance.busy, now: instance.now, rules: instance.rules)
                let planned = alone.blocks.reduce(0) { $0 + $1.seconds }
                let free = Scheduler.freeSeconds(for: item, busy: instance.busy, now: instance.now, rules: instance.rules)
                #expect(free >= planned, "seed \(seed) item \(item.id): free \(free) < planned \(planned)")
                if let risk = alone.atRisk.first {
                    #expect(risk.freeSeconds == free, "seed \(seed) item \(item.id)")
                    #expect(risk.competitors.isEmpty, "seed \(seed) item \(item.id)")
                }
            }
        }
    }
}

/// Config `buffer` through the re-plan: every block keeps the buffer from every calendar event,
/// and the rest of the rules hold, on the same random instances.
struct BufferPropertyTests {
    @Test(arguments: SchedulerPropertyTests.groups)
    func everyBlockKeepsTheBufferFromEveryEvent(group: Int) {
        var blocks = 0
        for seed in SchedulerPropertyTests.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            var rules = instance.rules
            var random = SeededRandom(seed: seed ^ 0xB0FF)
            rules.bufferSeconds = random.pick([300, 600, 900, 1800]) + (random.chance(20) ? random.int(1...59) : 0)
            let calendar = rules.calendar
            let subtasks = instance.items.filter { $0.remainingSeconds > 0 }.map { item in
                PlanSubtask(subtask: Subtask(id: item.id, taskID: 0, title: "Part", estimateSeconds: item.remainingSeconds,
                                             startDate: item.notBefore.map { calendar.day(of: $0) }, due: item.due,
                                             spanSeconds: item.spanSeconds, earliest: item.earliest, createdAt: instance.now),
                            label: item.label, loggedSeconds: 0)
            }
            let result = Replanner.replan(ReplanInput(now: instance.now, rules: rules, planned: [], sessions: [], subtasks: subtasks,
                                                      running: nil, events: instance.busy))
            let problems = ScheduleChecker.violations(
                result.schedule, items: result.items, busy: instance.busy, now: instance.now, rules: rules, buffer: rules.bufferSeconds)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
            blocks += result.schedule.blocks.count
        }
        #expect(blocks > 100, "group \(group): only \(blocks) blocks planned")
    }
}
