import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// Which instances recurring work has, which one work goes to, and how they are planned
/// (README, "Planning"). Europe/Berlin; 2026-11-25 is a Wednesday.
struct RecurringWorkTests: SchedulerTestHelpers {
    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d) }

    /// A series made at `created` (local), with id 10 under task 9.
    func series(_ every: Recurrence.Every, on: Int? = nil, created: String = "2026-11-20 09:00", estimate: Int = 3600) -> Subtask {
        var s = Subtask(id: 10, taskID: 9, title: "Weekly review", estimateSeconds: estimate, createdAt: local(created))
        s.recurrence = Recurrence(every: every, on: on)
        s.spanSeconds = 1800
        s.priority = .high
        s.maxPerDaySeconds = 2700
        return s
    }

    @Test func aWeeklySeriesGainsThisWeeksAndNextWeeksInstancesDueAtTheEndOfTheirOnDay() {
        let now = local("2026-11-25 10:00")
        let made = RecurringWork.missing(series: series(.week, on: 5), existing: [], today: day(2026, 11, 25), calendar: berlin, now: now)
        #expect(made.map(\.title) == ["Weekly review · 2026-11-27", "Weekly review · 2026-12-04"])
        #expect(made.map(\.due) == [local("2026-11-28 00:00"), local("2026-12-05 00:00")])
        #expect(made.map(\.startDate) == [day(2026, 11, 23), day(2026, 11, 30)])
        #expect(made.map(\.periodStart) == [day(2026, 11, 23), day(2026, 11, 30)])
        // Each instance copies the series' constraints and points to it.
        #expect(made.allSatisfy { $0.seriesID == 10 && $0.estimateSeconds == 3600 && $0.spanSeconds == 1800 })
        #expect(made.allSatisfy { $0.priority == .high && $0.maxPerDaySeconds == 2700 && $0.recurrence == nil && $0.taskID == 9 })
    }

    @Test func existingInstancesDoneOrMissedAreNeverMadeAgainAndTheNextOneStillComes() {
        let now = local("2026-11-28 10:00")
        // Saturday: this week's Friday is over, so only next week's is due to exist.
        let made = RecurringWork.missing(series: series(.week, on: 5), existing: [day(2026, 11, 23)], today: day(2026, 11, 28),
                                         calendar: berlin, now: now)
        #expect(made.map(\.periodStart) == [day(2026, 11, 30)])
        let none = RecurringWork.missing(series: series(.week, on: 5), existing: [day(2026, 11, 23), day(2026, 11, 30)],
                                         today: day(2026, 11, 28), calendar: berlin, now: now)
        #expect(none.isEmpty)
    }

    @Test func aSeriesMadeAfterItsPeriodsDueDayStartsWithTheNextPeriod() {
        // Made on Saturday, due on Fridays: this week's Friday came before the series.
        let s = series(.week, on: 5, created: "2026-11-28 09:00")
        let made = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 28), calendar: berlin, now: local("2026-11-28 09:00"))
        #expect(made.map(\.title) == ["Weekly review · 2026-12-04"])
        // A series that begins later (--start) counts its periods from its first day.
        var later = series(.month)
        later.startDate = day(2027, 2, 10)
        let first = RecurringWork.missing(series: later, existing: [], today: day(2026, 11, 25), calendar: berlin, now: local("2026-11-25 09:00"))
        #expect(first.map(\.due) == [local("2027-03-01 00:00"), local("2027-04-01 00:00")])
    }

    @Test(arguments: [
        // --on 31 in short months, and February in a leap year.
        (Recurrence(every: .month, on: 31), LocalDate(year: 2026, month: 4, day: 10), ["2026-04-30", "2026-05-31"]),
        (Recurrence(every: .month, on: 31), LocalDate(year: 2028, month: 1, day: 31), ["2028-01-31", "2028-02-29"]),
        (Recurrence(every: .month), LocalDate(year: 2027, month: 2, day: 3), ["2027-02-28", "2027-03-31"]),
        (Recurrence(every: .month, on: 30), LocalDate(year: 2026, month: 12, day: 31), ["2027-01-30"]),
        // Weekdays skip the weekend: on Friday, Friday and Monday; on Saturday, Monday and Tuesday.
        (Recurrence(every: .weekdays), LocalDate(year: 2026, month: 11, day: 27), ["2026-11-27", "2026-11-30"]),
        (Recurrence(every: .weekdays), LocalDate(year: 2026, month: 11, day: 28), ["2026-11-30", "2026-12-01"]),
        // Days across the DST change in Berlin (25 Oct 2026 has 25 hours).
        (Recurrence(every: .day), LocalDate(year: 2026, month: 10, day: 25), ["2026-10-25", "2026-10-26"]),
        // A week across the year's end.
        (Recurrence(every: .week, on: 1), LocalDate(year: 2026, month: 12, day: 29), ["2027-01-04"]),
    ] as [(Recurrence, LocalDate, [String])])
    func instancesFollowTheCalendar(rule: Recurrence, today: LocalDate, dueDays: [String]) {
        var s = series(.day, created: "2020-01-01 09:00")
        s.recurrence = rule
        let made = RecurringWork.missing(series: s, existing: [], today: today, calendar: berlin, now: berlin.startOfDay(today))
        #expect(made.map { String($0.title.split(separator: " ").last!) } == dueDays)
        // Each is due at the start of the day after its due day, a local midnight.
        for instance in made {
            let due = instance.due!
            #expect(berlin.startOfDay(berlin.day(of: due)) == due)
        }
    }

    @Test func theDueInstantOfADayOnTheDSTChangeIsItsLocalMidnight() {
        let s = { () -> Subtask in var s = series(.day, created: "2020-01-01 09:00"); s.recurrence = Recurrence(every: .day); return s }()
        let made = RecurringWork.missing(series: s, existing: [], today: day(2026, 10, 25), calendar: berlin, now: local("2026-10-25 09:00"))
        #expect(made.first?.due == utc("2026-10-25T23:00:00Z"))
        let spring = RecurringWork.missing(series: s, existing: [], today: day(2026, 3, 29), calendar: berlin, now: local("2026-03-29 09:00"))
        #expect(spring.first?.due == utc("2026-03-29T22:00:00Z"))
    }

    @Test func workGoesToTheEarliestOpenInstanceAndSkipsDoneAndMissedOnes() {
        let now = local("2026-11-25 10:00")
        let missed = RecurringWork.Instance(id: 1, periodStart: day(2026, 11, 16), due: local("2026-11-21 00:00"), done: false)
        let this = RecurringWork.Instance(id: 2, periodStart: day(2026, 11, 23), due: local("2026-11-28 00:00"), done: false)
        let next = RecurringWork.Instance(id: 3, periodStart: day(2026, 11, 30), due: local("2026-12-05 00:00"), done: false)
        #expect(RecurringWork.current([next, this, missed], now: now)?.id == 2)
        var done = this
        done.done = true
        #expect(RecurringWork.current([next, done, missed], now: now)?.id == 3)
        #expect(RecurringWork.lastDone([next, done, missed], now: now)?.id == 2)
        var nextDone = next
        nextDone.done = true
        #expect(RecurringWork.current([nextDone, done, missed], now: now) == nil)
        #expect(missed.isMissed(now: now) && !this.isMissed(now: now))
    }

    @Test func aChangedRuleDropsOnlyOpenInstancesWithNoTimeLogged() {
        let now = local("2026-11-25 10:00")
        let missed = RecurringWork.Instance(id: 1, periodStart: day(2026, 11, 16), due: local("2026-11-21 00:00"), done: false)
        let worked = RecurringWork.Instance(id: 2, periodStart: day(2026, 11, 23), due: local("2026-11-28 00:00"), done: false)
        let next = RecurringWork.Instance(id: 3, periodStart: day(2026, 11, 30), due: local("2026-12-05 00:00"), done: false)
        let done = RecurringWork.Instance(id: 4, periodStart: day(2026, 11, 9), due: local("2026-11-14 00:00"), done: true)
        let dropped = RecurringWork.droppedOnRuleChange([(missed, 0), (worked, 600), (next, 0), (done, 0)], now: now)
        #expect(dropped == [3])
    }

    @Test func anEditOfASeriesRenamesItsInstancesAndGivesTheOpenOnesItsFields() {
        let now = local("2026-11-25 10:00")
        let s = series(.week, on: 5)
        var made = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 18), calendar: berlin, now: now)
            + RecurringWork.missing(series: s, existing: [day(2026, 11, 16), day(2026, 11, 23)], today: day(2026, 11, 25), calendar: berlin, now: now)
        for i in made.indices { made[i].id = Int64(20 + i) }
        made[1].done = true  // this week's: done; last week's (20) missed; next week's (22) open
        var edited = s
        edited.title = "Review"
        edited.estimateSeconds = 7200
        let same = RecurringWork.afterEdit(series: edited, previous: s, instances: made.map { ($0, 0) }, now: now)
        #expect(same.dropped.isEmpty)
        #expect(same.updated.map(\.title) == ["Review · 2026-11-20", "Review · 2026-11-27", "Review · 2026-12-04"])
        #expect(same.updated.map(\.estimateSeconds) == [3600, 3600, 7200], "only the open instance takes the new estimate")
        edited.recurrence = Recurrence(every: .month)
        let ruled = RecurringWork.afterEdit(series: edited, previous: s, instances: made.map { ($0, 0) }, now: now)
        #expect(ruled.dropped == [22])
        #expect(ruled.updated.map(\.id) == [20, 21])
    }

    @Test func aListingShowsASeriesOnceAsItsCurrentInstance() {
        let now = local("2026-11-25 10:00")
        let s = series(.week, on: 5)
        var made = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 25), calendar: berlin, now: now)
        made[0].id = 11
        made[1].id = 12
        let other = Subtask(id: 5, taskID: 9, title: "Inbox", estimateSeconds: 600, due: local("2026-12-01 00:00"), createdAt: now)
        let rows = [SubtaskOverview(subtask: other, loggedSeconds: 0), SubtaskOverview(subtask: s, loggedSeconds: 0),
                    SubtaskOverview(subtask: made[0], loggedSeconds: 1200), SubtaskOverview(subtask: made[1], loggedSeconds: 0)]
        let folded = RecurringWork.fold(rows, now: now, calendar: berlin)
        #expect(folded.map(\.subtask.title) == ["Weekly review", "Inbox"])
        #expect(folded[0].subtask.due == local("2026-11-28 00:00"))
        #expect(folded[0].loggedSeconds == 1200)
        #expect(folded[0].currentInstanceID == 11)
        // This week's done: the next one is shown.
        var rowsDone = rows
        rowsDone[2].subtask.done = true
        let next = RecurringWork.fold(rowsDone, now: now, calendar: berlin)
        #expect(next.first { $0.subtask.id == 10 }?.subtask.due == local("2026-12-05 00:00"))
        #expect(next.first { $0.subtask.id == 10 }?.loggedSeconds == 0)
        // No instance yet: the rule's period.
        let bare = RecurringWork.fold([SubtaskOverview(subtask: s, loggedSeconds: 0)], now: now, calendar: berlin)
        #expect(bare.first?.subtask.due == local("2026-11-28 00:00"))
    }

    @Test func aSeriesIsNeverPlannedNorAMissedInstanceButOpenOnesAre() {
        let now = local("2026-11-25 10:00")
        let s = series(.week, on: 5)
        var missed = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 18), calendar: berlin, now: now)[0]
        missed.id = 20
        let current = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 25), calendar: berlin, now: now)[0]
        #expect(!RecurringWork.isPlanned(s, now: now))
        #expect(!RecurringWork.isPlanned(missed, now: now))
        #expect(RecurringWork.isPlanned(current, now: now))
        #expect(RecurringWork.renamed("Weekly review · 2026-11-27", from: "Weekly review", to: "Review") == "Review · 2026-11-27")
    }

    /// Instances planned with other work: each only inside its period, the cap per day holds,
    /// and work due first gets the time first.
    @Test func instancesArePlannedLikeAnyOtherWorkInsideTheirPeriods() {
        let now = local("2026-11-26 20:00")
        var s = series(.week, on: 5, estimate: 7200)
        s.priority = .normal
        var made = RecurringWork.missing(series: s, existing: [], today: day(2026, 11, 26), calendar: berlin, now: now)
        made[0].id = 11
        made[1].id = 12
        // Thursday evening: two hours left tonight, a deadline tomorrow evening that needs
        // most of Friday, and this week's review due at Friday's end.
        let essay = Subtask(id: 5, taskID: 8, title: "Essay", estimateSeconds: 12 * 3600, due: local("2026-11-27 22:00"), createdAt: now)
        let subtasks = [PlanSubtask(subtask: essay, label: "Uni/Essay", loggedSeconds: 0)]
            + made.map { PlanSubtask(subtask: $0, label: "Admin/\($0.title)", loggedSeconds: 0) }
        let input = ReplanInput(now: now, rules: defaultRules, planned: [], sessions: [], subtasks: subtasks, running: nil, events: [])
        let schedule = Replanner.replan(input).schedule
        let items = schedule.blocks
        // Next week's instance waits for its period: nothing before Monday 30 Nov.
        #expect(items.filter { $0.itemID == 12 }.allSatisfy { $0.start >= local("2026-11-30 00:00") })
        #expect(items.filter { $0.itemID == 12 }.reduce(0) { $0 + $1.seconds } == 7200)
        // Its daily cap of 45 minutes holds every day, for both instances.
        var perDay: [Int64: [LocalDate: Int]] = [:]
        for b in items where b.itemID != 5 { perDay[b.itemID, default: [:]][berlin.day(of: b.start), default: 0] += b.seconds }
        #expect(perDay.values.allSatisfy { $0.values.allSatisfy { $0 <= 2700 } })
        // The essay, due first, gets tonight's time first.
        #expect(items.first { $0.start < local("2026-11-27 00:00") }?.itemID == 5)
        #expect(items.filter { $0.itemID == 11 }.allSatisfy { $0.end <= local("2026-11-28 00:00") })
    }

    /// Every rule, at many moments around month ends and the DST change, with other work
    /// competing: each plan keeps every rule the scheduler's checker states (span, cap, working
    /// hours, due dates, no overlap), and no instance is worked outside its own period.
    @Test(arguments: Recurrence.Every.allCases)
    func plansWithInstancesKeepEveryRuleAndEachInstanceInItsPeriod(every: Recurrence.Every) {
        for (n, moment) in ["2026-10-23 16:10", "2026-10-24 21:30", "2026-10-25 08:00", "2026-10-30 12:45", "2026-12-31 18:00",
                            "2028-02-28 09:05"].enumerated() {
            let now = local(moment)
            var s = series(every, on: every == .week ? 3 : every == .month ? 31 : nil, created: "2020-01-01 09:00", estimate: 5400)
            s.spanSeconds = 1500
            var made = RecurringWork.missing(series: s, existing: [], today: berlin.day(of: now), calendar: berlin, now: now)
            for i in made.indices { made[i].id = Int64(100 + i) }
            let other = Subtask(id: 1, taskID: 8, title: "Essay", estimateSeconds: 3 * 3600 + n * 600,
                                due: now.addingTimeInterval(Double(2 + n) * 86_400), createdAt: now)
            let subtasks = [PlanSubtask(subtask: other, label: "Uni/Essay", loggedSeconds: 0)]
                + made.map { PlanSubtask(subtask: $0, label: "Admin/\($0.title)", loggedSeconds: 0) }
            let input = ReplanInput(now: now, rules: defaultRules, planned: [], sessions: [], subtasks: subtasks, running: nil,
                                    events: [DateInterval(start: now.addingTimeInterval(1800), duration: 7200)])
            let result = Replanner.replan(input)
            let problems = ScheduleChecker.violations(result.schedule, items: result.items, busy: result.busy, now: now, rules: defaultRules)
            #expect(problems.isEmpty, "\(every) at \(moment): \(problems)")
            for instance in made {
                let blocks = result.schedule.blocks.filter { $0.itemID == instance.id }
                let from = berlin.startOfDay(instance.startDate!)
                #expect(blocks.allSatisfy { $0.start >= from && $0.end <= instance.due! }, "\(every) at \(moment): \(instance.title)")
            }
        }
    }
}
