import FoundationEssentials

/// A subtask the planner places work for: its constraints, its name, and the focus already logged.
package struct PlanSubtask: Sendable, Equatable {
    package var subtask: Subtask
    /// `Thesis/Chapter 2`.
    package var label: String
    package var loggedSeconds: Int
    /// Its sync name (UID) when it has one: with the label, what orders equal work the same way
    /// on every machine.
    package var syncName: String?

    package init(subtask: Subtask, label: String, loggedSeconds: Int, syncName: String? = nil) {
        self.subtask = subtask
        self.label = label
        self.loggedSeconds = loggedSeconds
        self.syncName = syncName
    }
}

/// The session running now, as the planner sees it.
package struct RunningWork: Sendable, Equatable {
    package var subtaskID: Int64?
    package var blockID: Int64?
    /// Focus of the current work phase so far (not logged yet).
    package var focusedSeconds: Int
    /// Work left in the current work phase (0 during a break).
    package var remainingSeconds: Int
    /// The time it holds: from its start to the end of its phase plus a break.
    package var busy: DateInterval

    package init(subtaskID: Int64?, blockID: Int64?, focusedSeconds: Int, remainingSeconds: Int, busy: DateInterval) {
        self.subtaskID = subtaskID
        self.blockID = blockID
        self.focusedSeconds = focusedSeconds
        self.remainingSeconds = remainingSeconds
        self.busy = busy
    }
}

/// Everything a re-plan reads.
package struct ReplanInput: Sendable {
    package var now: Date
    package var rules: SchedulingRules
    /// Every block whose status is still `planned`.
    package var planned: [ScheduledBlock]
    /// Sessions linked to those blocks, and sessions that overlap them.
    package var sessions: [TimeLog]
    /// Open subtasks with an estimate (those without a due date are reported, not planned).
    package var subtasks: [PlanSubtask]
    package var running: RunningWork?
    /// Calendar busy time from now to the last due date (timed events; the re-plan keeps
    /// `rules.bufferSeconds` free around each).
    package var events: [DateInterval]
    /// All-day events' busy time: no buffer around them (they fill their days anyway).
    package var allDayEvents: [DateInterval] = []
    /// Focus logged today (the local day of `now`) per subtask, for the daily cap.
    package var loggedToday: [Int64: Int] = [:]
    /// Blocks settled as missed or partial before their end: their time is spent until then
    /// (the work they held goes after them, not back into them).
    package var spent: [DateInterval] = []

    package init(now: Date, rules: SchedulingRules, planned: [ScheduledBlock], sessions: [TimeLog], subtasks: [PlanSubtask],
                 running: RunningWork?, events: [DateInterval]) {
        self.now = now
        self.rules = rules
        self.planned = planned
        self.sessions = sessions
        self.subtasks = subtasks
        self.running = running
        self.events = events
    }
}

/// What a re-plan decided.
package struct ReplanResult: Sendable {
    /// Planned blocks that now have their final status (`done`, `partial` or `missed`).
    /// A block worked ahead of its time (a linked session, before it started) is moved to
    /// when its sessions ran.
    package var settled: [ScheduledBlock]
    /// Planned blocks kept as they are: a session runs on them, they are running now and
    /// a session already ran on them, the person pinned them (`BlockPin`), or they are starting
    /// (begun less than `startingGraceSeconds` ago; later, unstarted, they are settled as missed).
    package var kept: [ScheduledBlock]
    /// Future planned blocks, replaced by the new plan.
    package var replaced: [ScheduledBlock]
    /// The work the scheduler was asked to place, and the busy time it avoided.
    package var items: [WorkItem]
    package var busy: [DateInterval]
    package var schedule: Schedule
    /// Open subtasks whose due date has passed with work left: never placed, always listed.
    package var overdue: [OverdueWork] = []
    /// Open subtasks with work left but no due date: never placed ("not planned: no due date").
    package var undated: [UndatedWork] = []
}

/// A subtask whose due date has passed with work left.
package struct OverdueWork: Sendable, Equatable {
    package var itemID: Int64
    package var label: String
    package var due: Date
    package var remainingSeconds: Int

    package init(itemID: Int64, label: String, due: Date, remainingSeconds: Int) {
        self.itemID = itemID
        self.label = label
        self.due = due
        self.remainingSeconds = remainingSeconds
    }
}

/// A subtask with an estimate and work left, but no due date to plan it before.
package struct UndatedWork: Sendable, Equatable {
    package var itemID: Int64
    package var label: String
    package var remainingSeconds: Int

    package init(itemID: Int64, label: String, remainingSeconds: Int) {
        self.itemID = itemID
        self.label = label
        self.remainingSeconds = remainingSeconds
    }
}

/// Re-planning, as a pure function: settle the blocks whose time has passed, keep the one
/// running, and place the remaining work of every open subtask again from now.
package enum Replanner {
    /// A block counts as fully worked when its sessions cover all but this much of it
    /// (a session started a few seconds late still completes its block).
    package static let doneToleranceSeconds = 60

    /// A block whose start has passed is *starting* for this long (README, "Planning"): re-plans keep its
    /// place and id, so it is reminded of once. Not started by then, it is missed: settled,
    /// its time spent, and its work planned again after it, once.
    package static let startingGraceSeconds = 600

    package static func replan(_ input: ReplanInput) -> ReplanResult {
        let now = input.now
        var linked: [Int64: [TimeLog]] = [:]
        var unlinked: [Int64: [TimeLog]] = [:]
        for log in input.sessions {
            if let block = log.blockID {
                linked[block, default: []].append(log)
            } else if let sub = log.subtaskID {
                unlinked[sub, default: []].append(log)
            }
        }

        var settled: [ScheduledBlock] = []
        var kept: [ScheduledBlock] = []
        var replaced: [ScheduledBlock] = []
        var spent = input.spent
        var starting = Set<Int64>()
        let open = Set(input.subtasks.compactMap(\.subtask.id))
        for block in input.planned {
            let id = block.id ?? -1
            let own = linked[id] ?? []
            if input.running?.blockID == id || (block.startedAt <= now && now < block.endedAt && !own.isEmpty) {
                // Being worked on: a session runs on it, or ran on it earlier in its time.
                kept.append(block)
            } else if block.endedAt <= now {
                var b = block
                b.status = status(of: block, linked: own, others: unlinked[block.subtaskID] ?? [])
                settled.append(b)
            } else if !own.isEmpty {
                // Worked ahead of its time: it happened when its sessions ran.
                var b = block
                b.status = status(of: block, linked: own, others: [])
                b.startedAt = own.map(\.startedAt).min() ?? block.startedAt
                b.endedAt = max(own.map(\.endedAt).max() ?? block.endedAt, b.startedAt.addingTimeInterval(1))
                settled.append(b)
            } else if BlockPin.holds(block, openSubtasks: open) {
                // Moved by the person in a calendar app: planned around and counted as promised work.
                kept.append(block)
            } else if block.startedAt < now, now < block.startedAt.addingTimeInterval(Double(startingGraceSeconds)) {
                // Starting: due to start and not started yet; it holds its place and its work
                // (all of it: it has not begun) for the grace period.
                kept.append(block)
                starting.insert(id)
            } else if block.startedAt < now {
                // Missed: not started in the grace period. Its time is spent; its work goes after it.
                var b = block
                b.status = status(of: block, linked: [], others: unlinked[block.subtaskID] ?? [])
                settled.append(b)
                spent.append(DateInterval(start: block.startedAt, end: block.endedAt))
            } else {
                replaced.append(block)
            }
        }

        // Work already promised: the rest of each kept block, and the running session.
        var credit: [Int64: Int] = [:]
        var keptRest: [Int64: Int] = [:]
        for block in kept {
            let from = block.id.map(starting.contains) ?? false ? block.startedAt : max(block.startedAt, now)
            let rest = max(0, Int(block.endedAt.timeIntervalSince(from).rounded()))
            credit[block.subtaskID, default: 0] += rest
            if let id = block.id { keptRest[id] = rest }
        }
        if let running = input.running, let sub = running.subtaskID {
            let onBlock = running.blockID.flatMap { keptRest[$0] } ?? 0
            credit[sub, default: 0] += running.focusedSeconds + max(0, running.remainingSeconds - onBlock)
        }

        let calendar = input.rules.calendar
        let used = usedPerDay(input, kept: kept)
        // Work already overdue cannot be placed: it is listed as overdue, not at risk; work with
        // no due date has nothing to be planned before.
        var items: [WorkItem] = []
        var overdue: [OverdueWork] = []
        var undated: [UndatedWork] = []
        for entry in input.subtasks {
            guard let id = entry.subtask.id, let estimate = entry.subtask.estimateSeconds else { continue }
            let left = estimate - entry.loggedSeconds - (credit[id] ?? 0)
            guard let due = entry.subtask.due else {
                if left > 0 { undated.append(UndatedWork(itemID: id, label: entry.label, remainingSeconds: left)) }
                continue
            }
            if due <= now {
                if left > 0 { overdue.append(OverdueWork(itemID: id, label: entry.label, due: due, remainingSeconds: left)) }
                continue
            }
            if var item = workItem(entry, credit: credit[id] ?? 0, calendar: calendar) {
                item.maxPerDaySeconds = entry.subtask.maxPerDaySeconds ?? input.rules.maxPerDaySeconds
                if item.maxPerDaySeconds != nil { item.usedPerDay = used[id] ?? [:] }
                items.append(item)
            }
        }
        overdue.sort { ($0.due, $0.label, $0.itemID) < ($1.due, $1.label, $1.itemID) }
        undated.sort { ($0.label, $0.itemID) < ($1.label, $1.itemID) }
        var busy = Buffer.widen(input.events, by: input.rules.bufferSeconds) + input.allDayEvents
        let pause = Double(input.rules.breakSeconds)
        for block in kept where block.endedAt > now {
            busy.append(DateInterval(start: block.startedAt, end: block.endedAt.addingTimeInterval(pause)))
        }
        busy += spent.map { DateInterval(start: $0.start, end: $0.end.addingTimeInterval(pause)) }
        if let running = input.running { busy.append(running.busy) }
        let schedule = Scheduler.plan(items: items, busy: busy, now: now, rules: input.rules)
        return ReplanResult(settled: settled, kept: kept, replaced: replaced, items: items, busy: busy, schedule: schedule,
                            overdue: overdue, undated: undated)
    }

    /// The scheduler's view of a subtask: remaining = estimate − logged focus − work already
    /// promised (`credit`). Nil without an estimate, a due date or an id.
    package static func workItem(_ entry: PlanSubtask, credit: Int, calendar: LocalCalendar) -> WorkItem? {
        let s = entry.subtask
        guard let id = s.id, let estimate = s.estimateSeconds, let due = s.due else { return nil }
        var item = WorkItem(
            id: id, label: entry.label, remainingSeconds: estimate - entry.loggedSeconds - credit,
            notBefore: s.startDate.map(calendar.startOfDay), due: due, spanSeconds: s.spanSeconds, earliest: s.earliest,
            priority: s.priority.rawValue)
        item.syncName = entry.syncName
        return item
    }

    /// What counts against each subtask's daily cap besides new blocks: focus logged today,
    /// the running session's work phase (today), and kept blocks (on their days).
    static func usedPerDay(_ input: ReplanInput, kept: [ScheduledBlock]) -> [Int64: [LocalDate: Int]] {
        let calendar = input.rules.calendar
        let today = calendar.day(of: input.now)
        var used: [Int64: [LocalDate: Int]] = [:]
        for (id, seconds) in input.loggedToday { used[id, default: [:]][today, default: 0] += seconds }
        if let running = input.running, let id = running.subtaskID {
            used[id, default: [:]][today, default: 0] += running.focusedSeconds + running.remainingSeconds
        }
        for block in kept where block.endedAt > input.now && input.running?.blockID != block.id {
            let start = max(block.startedAt, input.now)
            used[block.subtaskID, default: [:]][calendar.day(of: start), default: 0] += Int(block.endedAt.timeIntervalSince(start))
        }
        return used
    }

    /// `done` when the block's time was fully worked, `partial` when some of it was, else `missed`.
    /// Sessions linked to the block count whole; other sessions of its subtask count for the
    /// part of them inside the block (their focus in proportion to wall time).
    package static func status(of block: ScheduledBlock, linked: [TimeLog], others: [TimeLog]) -> BlockStatus {
        let worked = workedSeconds(in: block, linked: linked, others: others)
        let length = block.endedAt.timeIntervalSince(block.startedAt)
        if worked >= length - Double(doneToleranceSeconds) { return .done }
        return worked >= 1 ? .partial : .missed
    }

    static func workedSeconds(in block: ScheduledBlock, linked: [TimeLog], others: [TimeLog]) -> Double {
        var worked = Double(linked.reduce(0) { $0 + $1.focusedSeconds })
        for log in others {
            worked += StatsMath.focusInside(focused: log.focusedSeconds, start: log.startedAt, end: log.endedAt,
                                            from: block.startedAt, to: block.endedAt)
        }
        return worked
    }
}
