import Foundation
import Testing
import FocusCore

/// #41, "Defaults a person accepts": with the settings a newcomer has, the plan fits a working
/// week (Monday to Friday 09:00–17:00, lunch free, at most 4h of one subtask a day), keeps the
/// Pomodoro rhythm (a long break after every 4 blocks in a row) and puts blocks on 5-minute marks.
struct PlanningDefaultsTests: SchedulerTestHelpers {
    let rules = SchedulingRules(config: FocusConfig(), calendar: SchedulerFixtures.berlin)

    func item(_ id: Int64, _ title: String, _ seconds: Int, due: String) -> WorkItem {
        var item = WorkItem(id: id, label: "Thesis/\(title)", remainingSeconds: seconds, due: local(due))
        item.maxPerDaySeconds = rules.maxPerDaySeconds
        return item
    }

    /// The issue's three subtasks, seen by a newcomer on Monday morning.
    var newcomerPlan: Schedule {
        // Monday 7 Dec 2026, 08:25:37: a time with seconds.
        let now = local("2026-12-07 08:25:37")
        return Scheduler.plan(items: [
            item(1, "Outline", 45 * 60, due: "2026-12-08 17:00"),
            item(2, "Draft", 2 * 3600, due: "2026-12-10 17:00"),
            item(3, "Chapter", 6 * 3600, due: "2026-12-11 17:00"),
        ], busy: [], now: now, rules: rules)
    }

    @Test func aNewcomersPlanFitsAWorkingWeekWithLunchFree() {
        let plan = newcomerPlan
        #expect(plan.atRisk.isEmpty)
        #expect(plan.blocks.reduce(0) { $0 + $1.seconds } == (45 + 120 + 360) * 60)
        for block in plan.blocks {
            let day = berlin.day(of: block.start)
            #expect(day.weekday != 0 && day.weekday != 6, "a block on a weekend: \(block)")
            let start = berlin.timeOfDay(of: block.start).minutes
            let end = berlin.timeOfDay(of: block.end).minutes
            #expect(start >= 9 * 60 && end <= 17 * 60, "outside 09:00–17:00: \(block)")
            #expect(end <= 12 * 60 || start >= 13 * 60, "over lunch: \(block)")
        }
        // As early as possible within those limits: Monday at 09:00.
        #expect(plan.blocks.first?.start == local("2026-12-07 09:00"))
        // No subtask gets more than 4h on one day.
        var perDay: [String: Int] = [:]
        for block in plan.blocks { perDay["\(block.itemID) \(berlin.day(of: block.start))", default: 0] += block.seconds }
        #expect(perDay.values.allSatisfy { $0 <= 4 * 3600 }, "\(perDay)")
    }

    @Test func blocksBeginAndEndOnFiveMinuteMarks() {
        var odd = item(4, "Odd", 32 * 60 + 17, due: "2026-12-08 17:00")
        odd.spanSeconds = 23 * 60
        let plan = Scheduler.plan(items: [odd] , busy: [busy("2026-12-07 09:00", "2026-12-07 09:13:20")],
                                  now: local("2026-12-07 08:59:41"), rules: rules)
        #expect(!plan.blocks.isEmpty)
        for block in newcomerPlan.blocks + plan.blocks {
            #expect(Int(block.start.timeIntervalSince1970) % 300 == 0 && Int(block.end.timeIntervalSince1970) % 300 == 0, "\(block)")
        }
        // After an event ending 09:13:20, the first block starts at 09:15, never 09:14.
        #expect(plan.blocks.first?.start == local("2026-12-07 09:15"))
    }

    /// #41: when the daily cap keeps work from fitting, the plan names the cap, even where other
    /// work takes part of its time too.
    @Test func theDailyCapIsNamedWhenItIsWhatBinds() {
        var capped = item(1, "Draft", 7 * 3600, due: "2026-12-09 17:00")
        capped.maxPerDaySeconds = 2 * 3600
        var other = item(2, "Other", 10 * 3600, due: "2026-12-08 17:00")
        other.maxPerDaySeconds = nil
        let plan = Scheduler.plan(items: [capped, other], busy: [], now: local("2026-12-07 08:00"), rules: rules)
        let risk = plan.atRisk.first { $0.itemID == 1 }
        #expect(risk?.capSeconds == 2 * 3600, "\(plan.atRisk)")
        let message = PlanRefusal.message(plan.atRisk.filter { $0.itemID == 1 }, label: "Thesis/Draft", calendar: berlin)
        #expect(message.contains("at 2h a day (its daily cap; raise it with --max-per-day)"), "\(message)")
    }

    /// Long breaks (15 minutes up to an hour) between blocks of one plan, checking that no more
    /// than 4 blocks come in a row and that the others are a short break (5 minutes) apart.
    func longBreaks(_ blocks: [PlannedBlock]) -> Int {
        var inARow = 1
        var longBreaks = 0
        for (a, b) in zip(blocks, blocks.dropFirst()) {
            let gap = b.start.timeIntervalSince(a.end)
            if gap >= 900 || berlin.day(of: a.start) != berlin.day(of: b.start) {
                if gap >= 900 && gap < 3600 { longBreaks += 1 }
                inARow = 1
                continue
            }
            #expect(gap == 300, "a break of \(gap) s between \(a) and \(b)")
            inARow += 1
            #expect(inARow <= 4, "more than 4 blocks in a row, up to \(b)")
        }
        return longBreaks
    }

    @Test func aLongBreakFollowsEveryFourBlocksInARowAndAShortOneTheOthers() {
        #expect(longBreaks(newcomerPlan.blocks) > 0)
        // A morning of one subtask alone: 09:00–10:55 four blocks, a long break, then on.
        var long = item(5, "Long", 3 * 3600, due: "2026-12-07 17:00")
        long.maxPerDaySeconds = nil
        let alone = Scheduler.plan(items: [long], busy: [], now: local("2026-12-07 07:00"), rules: rules).blocks
        #expect(longBreaks(alone) >= 1)
        #expect(alone.count >= 5 && alone[3].end == local("2026-12-07 10:55") && alone[4].start == local("2026-12-07 11:10"))
    }
}

/// The Pomodoro rhythm, lunch and 5-minute marks on the random instances of the property tests.
struct RhythmPropertyTests {
    @Test(arguments: SchedulerPropertyTests.groups)
    func blocksKeepTheirMarksLunchAndTheLongBreakOnRandomInstances(group: Int) {
        var blocks = 0
        for seed in SchedulerPropertyTests.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            var rules = instance.rules
            rules.grainMinutes = 5
            rules.cycles = 4
            rules.breakSeconds = max(300, rules.breakSeconds)
            rules.longBreakSeconds = rules.breakSeconds + 600
            rules.lunch = DayHours(start: TimeOfDay(hour: 12, minute: 0), end: TimeOfDay(hour: 13, minute: 0))
            let schedule = Scheduler.plan(items: instance.items, busy: instance.busy, now: instance.now, rules: rules)
            let calendar = rules.calendar
            let busy = instance.busy.filter { $0.duration > 0 }
            var inARow = 1
            for (index, block) in schedule.blocks.enumerated() {
                #expect(Int(block.start.timeIntervalSince1970) % 300 == 0 && Int(block.end.timeIntervalSince1970) % 300 == 0,
                        "seed \(seed): \(block) is off the 5-minute marks")
                let day = calendar.day(of: block.start)
                let lunch = DateInterval(start: calendar.instant(day, TimeOfDay(hour: 12, minute: 0)),
                                         end: calendar.instant(day, TimeOfDay(hour: 13, minute: 0)))
                #expect(!(block.start < lunch.end && lunch.start < block.end), "seed \(seed): \(block) over lunch")
                for event in busy where event.start < block.end && block.start < event.end {
                    Issue.record("seed \(seed): \(block) overlaps busy \(event)")
                }
                guard index > 0 else { continue }
                let previous = schedule.blocks[index - 1]
                let gap = block.start.timeIntervalSince(previous.end)
                let between = busy.contains { $0.start < block.start && $0.end > previous.end }
                #expect(gap >= 300 || between, "seed \(seed): \(previous) and \(block) only \(gap) s apart")
                inARow = gap == Double(rules.breakSeconds) && !between ? inARow + 1 : 1
                #expect(inARow <= 4, "seed \(seed): more than 4 blocks in a row up to \(block)")
            }
            blocks += schedule.blocks.count
        }
        #expect(blocks > 100, "group \(group): only \(blocks) blocks planned")
    }
}
