import FoundationEssentials

extension RunningWork {
    /// What the running session holds of the plan: the time from its start to the end of its
    /// phase (plus the break that follows work), the focus of its work phase so far, and the
    /// work left in it.
    package init(active: ActiveSession, now: Date, breakSeconds: Int) {
        let snap = active.snapshot
        let isWork = snap.phase == .work
        let remaining = active.remainingSeconds(at: now)
        let start = min(snap.workStartedAt ?? snap.phaseStartedAt, now)
        let end = now.addingTimeInterval(Double(remaining + (isWork ? breakSeconds : 0)))
        self.init(subtaskID: active.subtaskID, blockID: active.blockID,
                  focusedSeconds: isWork ? snap.focusedSeconds : 0, remainingSeconds: isWork ? remaining : 0,
                  busy: DateInterval(start: start, end: max(start, end)))
    }
}

/// Which rows a new plan keeps: a new block identical (subtask, start, end, to the second) to a
/// replaced one keeps that block's id, so ids people saw (`#12`) stay valid across re-plans; so
/// does a block of the same subtask moved within its local day (README, "Planning": the
/// published event is updated, not replaced), the subtask's remaining blocks of a day paired
/// with its new ones of that day in time order.
package enum BlockIdentity {
    /// The new plan's blocks as rows (`id` nil for a row to insert), the ids of the replaced
    /// blocks no new block kept (rows to delete), and the kept ids whose times changed (rows to
    /// update; their reminders are due again at the new time).
    package static func assign(_ planned: [PlannedBlock], replacing replaced: [ScheduledBlock], calendar: LocalCalendar)
        -> (blocks: [ScheduledBlock], removed: [Int64], moved: [Int64])
    {
        struct Key: Hashable { let subtask: Int64, start: Int64, end: Int64 }
        struct Day: Hashable { let subtask: Int64, day: LocalDate }
        func seconds(_ date: Date) -> Int64 { TimeRange.seconds(date.timeIntervalSince1970) }
        var reusable: [Key: [Int64]] = [:]
        for block in replaced {
            guard let id = block.id else { continue }
            reusable[Key(subtask: block.subtaskID, start: seconds(block.startedAt), end: seconds(block.endedAt)), default: []].append(id)
        }
        var blocks: [ScheduledBlock] = []
        for block in planned {
            let key = Key(subtask: block.itemID, start: seconds(block.start), end: seconds(block.end))
            var id: Int64?
            if var ids = reusable[key], !ids.isEmpty {
                id = ids.removeFirst()
                reusable[key] = ids
            }
            blocks.append(ScheduledBlock(id: id, subtaskID: block.itemID, startedAt: block.start, endedAt: block.end))
        }
        // Blocks moved within their day: the rest of each subtask's day, paired in time order.
        let left = Set(reusable.values.joined())
        var waiting: [Day: [ScheduledBlock]] = [:]
        for block in replaced.sorted(by: { ($0.startedAt, $0.id ?? 0) < ($1.startedAt, $1.id ?? 0) })
        where block.id.map(left.contains) ?? false {
            waiting[Day(subtask: block.subtaskID, day: calendar.day(of: block.startedAt)), default: []].append(block)
        }
        var moved: [Int64] = []
        for index in blocks.indices where blocks[index].id == nil {
            let day = Day(subtask: blocks[index].subtaskID, day: calendar.day(of: blocks[index].startedAt))
            guard var candidates = waiting[day], !candidates.isEmpty else { continue }
            let old = candidates.removeFirst()
            waiting[day] = candidates
            blocks[index].id = old.id
            if let id = old.id { moved.append(id) }
        }
        let kept = Set(blocks.compactMap(\.id))
        return (blocks, left.filter { !kept.contains($0) }.sorted(), moved.sorted())
    }
}

/// A change of a subtask's scheduling fields, for the refusal policy: what it was before (nil
/// for a new subtask) and what it is now.
package struct SubtaskChange: Sendable {
    package var previous: Subtask?
    package var current: Subtask
    /// `--force`: save it even if it does not fit (marked at risk, or overdue).
    package var force: Bool

    package init(previous: Subtask?, current: Subtask, force: Bool) {
        self.previous = previous
        self.current = current
        self.force = force
    }
}

/// What a re-plan after a change of one subtask says about it.
package struct PlanVerdict: Sendable, Equatable {
    /// Subtasks without enough time because of the change (the changed one first).
    package var problems: [AtRiskItem]
    /// The changed subtask itself, when its due date has passed with work left.
    package var overdue: OverdueWork?

    package init(problems: [AtRiskItem] = [], overdue: OverdueWork? = nil) {
        self.problems = problems
        self.overdue = overdue
    }

    package var isEmpty: Bool { problems.isEmpty && overdue == nil }
}

extension PlanRefusal {
    /// The refusal policy of `task add`/`task edit`: work that does not fit before its due date,
    /// work that would push another subtask past its due date, and work already overdue are
    /// refused (`doesNotFit`, exit 65; the caller's transaction is rolled back), unless forced,
    /// when they are saved and the verdict says what to warn about.
    package static func decide(_ result: ReplanResult, change: SubtaskChange, now: Date, rules: SchedulingRules) throws(FocusError) -> PlanVerdict {
        guard let target = change.current.id else { return PlanVerdict() }
        if let overdue = result.overdue.first(where: { $0.itemID == target }) {
            if !change.force { throw .doesNotFit(overdueMessage(overdue, now: now, calendar: rules.calendar)) }
            return PlanVerdict(overdue: overdue)
        }
        guard let item = result.items.first(where: { $0.id == target }) else { return PlanVerdict() }
        var cached: Schedule?
        func planBefore() -> Schedule {
            if let cached { return cached }
            var before = result.items.filter { $0.id != target }
            if let previous = change.previous {
                // The same focus logged and work promised as now: only the edited fields differ.
                let spent = (change.current.estimateSeconds ?? 0) - item.remainingSeconds
                if var old = Replanner.workItem(PlanSubtask(subtask: previous, label: item.label, loggedSeconds: spent,
                                                                         syncName: item.syncName),
                                                credit: 0, calendar: rules.calendar), old.due > now {
                    old.maxPerDaySeconds = previous.maxPerDaySeconds ?? rules.maxPerDaySeconds
                    old.usedPerDay = item.usedPerDay
                    before.append(old)
                }
            }
            let schedule = Scheduler.plan(items: before, busy: result.busy, now: now, rules: rules)
            cached = schedule
            return schedule
        }
        let problems = problems(after: result.schedule, target: target, before: planBefore)
        if !problems.isEmpty, !change.force {
            // An edit that makes nothing worse (work already at risk, now short of no more time,
            // and nothing else pushed out) is saved without --force (README, "Planning").
            if change.previous != nil, problems.allSatisfy({ $0.itemID == target }),
               let shortNow = shortfall(of: target, in: result.schedule),
               let shortBefore = shortfall(of: target, in: planBefore()), shortNow <= shortBefore {
                return PlanVerdict(problems: problems)
            }
            throw .doesNotFit(message(problems, label: item.label, calendar: rules.calendar, now: now))
        }
        return PlanVerdict(problems: problems)
    }

    /// The work an item at risk lacks in a plan (needed minus planned, in seconds); nil when it
    /// is not at risk there.
    static func shortfall(of item: Int64, in schedule: Schedule) -> Int? {
        guard let risk = schedule.atRisk.first(where: { $0.itemID == item }) else { return nil }
        let planned = schedule.blocks.filter { $0.itemID == item }.reduce(0) { $0 + $1.seconds }
        return max(0, risk.neededSeconds - planned)
    }

    /// `'X/Past due' is overdue: it was due Fri 20 Nov (end of day) and needs 1h of work. …`
    package static func overdueMessage(_ item: OverdueWork, now: Date, calendar: LocalCalendar) -> String {
        "'\(item.label)' is overdue: it was due \(RelativeTime.shortDateTime(item.due, calendar: calendar, now: now)) and still needs "
            + "\(DurationParser.format(item.remainingSeconds)) of work. Give it a due date after now, or add --force to save it marked overdue."
    }

    /// The `--force` warning for a verdict.
    package static func warning(_ verdict: PlanVerdict, calendar: LocalCalendar) -> String? {
        if let overdue = verdict.overdue {
            return "warning: saved although '\(overdue.label)' is overdue (due \(RelativeTime.shortDateTime(overdue.due, calendar: calendar)), "
                + "\(DurationParser.format(overdue.remainingSeconds)) of work left). Listed as overdue; see `focus plan`."
        }
        return verdict.problems.isEmpty ? nil : warning(verdict.problems)
    }
}

extension SchedulingRules {
    /// What a subtask's earliest time of day means under the working hours: nil when it falls
    /// inside them; a refusal (`doesNotFit`) when no work could ever start then, because the
    /// working day ends first; a note when the working day starts later anyway.
    /// (Working hours per weekday count: the latest end and the earliest start of the week.)
    package func earliestNote(_ earliest: TimeOfDay?, label: String) throws(FocusError) -> String? {
        guard let earliest else { return nil }
        let windows = hours.weeklyWindows
        guard let latestEnd = windows.map(\.end).max(), let earliestStart = windows.map(\.start).min() else { return nil }
        let room = windows.map { min($0.end.minutes, 1440) - max(earliest.minutes, $0.start.minutes) }.max() ?? 0
        if room * 60 < minimumBlockSeconds {
            throw .doesNotFit("'\(label)' can never be planned: its earliest time, \(earliest), leaves "
                + (room <= 0 ? "nothing" : DurationParser.format(room * 60)) + " before working hours end at "
                + "\(latestEnd) (the shortest block is \(DurationParser.format(minimumBlockSeconds))). Choose an earlier "
                + "--earliest, or end the working day later: `focus config set day_end HH:MM`.")
        }
        if earliest < earliestStart {
            return "note: working hours start at \(earliestStart), so '\(label)' is planned from \(earliestStart), not \(earliest) "
                + "(`focus config set day_start \(earliest)` to work earlier)."
        }
        return nil
    }
}
