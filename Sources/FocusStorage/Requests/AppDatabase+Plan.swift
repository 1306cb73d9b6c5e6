import FocusCore
import FoundationEssentials
import FocusSQLite

/// What a re-plan needs from outside the store: the moment, the rules, and how to expand a
/// calendar's raw text.
package struct PlanContext {
    package var now: Date
    package var rules: SchedulingRules
    package var expand: CalendarExpansion

    package init(now: Date, rules: SchedulingRules, expand: @escaping CalendarExpansion) {
        self.now = now
        self.rules = rules
        self.expand = expand
    }
}

/// A re-plan inside a change of one subtask that refuses what does not fit (`task add/edit`).
package struct RefusalRequest {
    package var context: PlanContext
    /// `--force`: save it anyway, marked at risk or overdue.
    package var force: Bool

    package init(context: PlanContext, force: Bool) {
        self.context = context
        self.force = force
    }
}

extension AppDatabase {
    /// Re-plans in one transaction (`save`), or only computes what it would do (a read).
    package func replan(_ context: PlanContext, save: Bool, showFrom: Date) throws(FocusError) -> PlanOutcome {
        if save {
            return try write { db in try AppDatabase.replan(db, context, save: true, showFrom: showFrom) }
        }
        return try read { db in try AppDatabase.replan(db, context, save: false, showFrom: showFrom) }
    }

    /// Re-plans (and saves) when a change since the last re-plan has made the plan stale (see
    /// the `planState` migration); nil when it was current.
    package func replanIfStale(_ context: PlanContext, showFrom: Date) throws(FocusError) -> PlanOutcome? {
        try write { db in
            // A new period's instance of recurring work makes the plan stale too (its insert does).
            try AppDatabase.addInstances(db, now: context.now, calendar: context.rules.calendar)
            guard try Bool.fetchOne(db, sql: "SELECT stale FROM planState WHERE id = 1") ?? true else { return nil }
            return try AppDatabase.replan(db, context, save: true, showFrom: showFrom)
        }
    }

    /// Whether time alone has made the plan stale: a block still `planned` has ended, unworked
    /// and unsettled (a re-plan settles it and places its work again). Read through the
    /// `(status, startedAt)` index.
    package func planIsStaleByTime(now: Date) throws(FocusError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM scheduledBlock WHERE status = 'planned' AND startedAt < ?1 AND endedAt <= ?1)
                """, arguments: [now.unixSeconds]) ?? false
        }
    }

    /// Marks the plan stale for a change the database cannot see (the settings file).
    package func markPlanStale() throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1") }
    }

    /// Loads a re-plan's input, lets `Replanner` decide, and (when `save`) applies the decision:
    /// settled blocks, the new plan (keeping the ids of unchanged blocks), the at-risk flags and
    /// figures the agenda reads, and the plan marked current.
    package static func replan(_ db: Database, _ context: PlanContext, save: Bool, showFrom: Date) throws -> PlanOutcome {
        // Recurring work gains its instances here, on the path every re-plan takes (a dry run
        // only reads, and plans the instances that exist).
        if save { try addInstances(db, now: context.now, calendar: context.rules.calendar) }
        let (input, titles) = try loadReplanInput(db, context)
        let result = Replanner.replan(input)
        var (newBlocks, removed, moved) = BlockIdentity.assign(result.schedule.blocks, replacing: result.replaced,
                                                              calendar: context.rules.calendar)
        if save { try apply(result, newBlocks: &newBlocks, removed: removed, moved: moved, db) }
        return try outcome(result, newBlocks: newBlocks, titles: titles, showFrom: showFrom, db)
    }

    /// Everything `Replanner` reads, and the titles of the open subtasks.
    static func loadReplanInput(_ db: Database, _ context: PlanContext) throws -> (ReplanInput, [Int64: (task: String, subtask: String)]) {
        let now = context.now
        let planned = try Row.fetchAll(db, sql: "SELECT * FROM scheduledBlock WHERE status = 'planned'").map(ScheduledBlock.init(row:))

        var titles: [Int64: (task: String, subtask: String)] = [:]
        var subtasks: [PlanSubtask] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT \(Subtask.selection), task.title AS taskTitle, subtask.syncUid AS syncUid
            FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.done = 0 AND task.archived = 0 AND subtask.estimateSeconds IS NOT NULL
            ORDER BY task.title, subtask.title, subtask.syncUid
            """) {
            let s = Subtask(row: row)
            guard RecurringWork.isPlanned(s, now: now) else { continue }
            let taskTitle = row.text("taskTitle")
            titles[s.id ?? 0] = (taskTitle, s.title)
            subtasks.append(PlanSubtask(subtask: s, label: "\(taskTitle)/\(s.title)", loggedSeconds: row.seconds("loggedSeconds"),
                                        syncName: row.optionalText("syncUid")))
        }

        var sessions: [TimeLog] = []
        if let earliest = planned.map(\.startedAt).min() {
            var seen = Set<Int64>()
            let linkedSQL = "SELECT \(TimeLog.selection) FROM timeLog WHERE blockId IN (SELECT id FROM scheduledBlock WHERE status = 'planned')"
            for log in try Row.fetchAll(db, sql: linkedSQL).map(TimeLog.init(row:)) where seen.insert(log.id ?? 0).inserted {
                sessions.append(log)
            }
            if earliest < now {
                for entry in try AppDatabase.sessions(db, earliest, now.addingTimeInterval(1)) where seen.insert(entry.log.id ?? 0).inserted {
                    sessions.append(entry.log)
                }
            }
        }

        let running = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1").map {
            RunningWork(active: ActiveSession(row: $0), now: now, breakSeconds: context.rules.breakSeconds)
        }

        var events: [DateInterval] = []
        var allDay: [DateInterval] = []
        if let lastDue = subtasks.compactMap(\.subtask.due).max(), lastDue > now {
            let until = min(lastDue, now.addingTimeInterval(3660 * 86_400))
            // Reached a buffer early, so an event just before now still keeps its buffer.
            let from = now.addingTimeInterval(-Double(max(0, context.rules.bufferSeconds)))
            for event in try busyEvents(db, from: from, to: until, zone: context.rules.calendar, expand: context.expand)
            where event.end > event.start {
                if event.allDay { allDay.append(DateInterval(start: event.start, end: event.end)) } else {
                    events.append(DateInterval(start: event.start, end: event.end))
                }
            }
        }
        events += try declinedSlots(db, now: now)
        var input = ReplanInput(now: now, rules: context.rules, planned: planned, sessions: sessions,
                                subtasks: subtasks, running: running, events: events)
        input.allDayEvents = allDay
        input.spent = try Row.fetchAll(db, sql: """
            SELECT startedAt, endedAt FROM scheduledBlock WHERE status IN ('missed', 'partial') AND endedAt > ?1 AND startedAt <= ?1
            """, arguments: [now.unixSeconds]).map { DateInterval(start: $0.date(0), end: max($0.date(0), $0.date(1))) }
        input.loggedToday = try loggedToday(db, now: now, rules: context.rules, subtasks: subtasks)
        return (input, titles)
    }

    /// Focus logged on the local day of `now` per capped subtask (its share of a session that
    /// began the day before), for the daily cap (README, "Planning").
    static func loggedToday(_ db: Database, now: Date, rules: SchedulingRules, subtasks: [PlanSubtask]) throws -> [Int64: Int] {
        guard rules.maxPerDaySeconds != nil || subtasks.contains(where: { $0.subtask.maxPerDaySeconds != nil }) else { return [:] }
        let calendar = rules.calendar
        let midnight = calendar.startOfDay(calendar.day(of: now))
        // Exact per subtask, rounded once: as the stats and `status` count today (StatsMath.focusInside).
        var logged: [Int64: Double] = [:]
        for entry in try sessions(db, midnight, now.addingTimeInterval(1)) {
            guard let id = entry.log.subtaskID else { continue }
            logged[id, default: 0] += StatsMath.focusInside(focused: entry.log.focusedSeconds, start: entry.log.startedAt,
                                                            end: entry.log.endedAt, from: midnight, to: now)
        }
        return logged.mapValues(StatsMath.seconds)
    }

    /// Writes a re-plan's decision; inserted blocks get their ids in `newBlocks`.
    static func apply(_ result: ReplanResult, newBlocks: inout [ScheduledBlock], removed: [Int64], moved: [Int64], _ db: Database) throws {
        let update = try db.cachedStatement(sql: "UPDATE scheduledBlock SET status = ?, startedAt = ?, endedAt = ? WHERE id = ?")
        for block in result.settled {
            try update.setUncheckedArguments([block.status.rawValue, block.startedAt.unixSeconds, block.endedAt.unixSeconds, block.id])
            try update.execute()
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM scheduledBlock WHERE id = ?")
        for id in removed {
            try delete.setUncheckedArguments([id])
            try delete.execute()
        }
        // A block moved within its day keeps its row; its reminders are due at its new time.
        let move = try db.cachedStatement(sql: "UPDATE scheduledBlock SET startedAt = ?, endedAt = ? WHERE id = ?")
        let forget = try db.cachedStatement(sql: "DELETE FROM sentReminder WHERE blockId = ?")
        let movedIDs = Set(moved)
        for b in newBlocks where b.id.map(movedIDs.contains) ?? false {
            try move.setUncheckedArguments([b.startedAt.unixSeconds, b.endedAt.unixSeconds, b.id])
            try move.execute()
            try forget.setUncheckedArguments([b.id])
            try forget.execute()
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status) VALUES (?, ?, ?, 'planned')")
        for index in newBlocks.indices where newBlocks[index].id == nil {
            let b = newBlocks[index]
            try insert.setUncheckedArguments([b.subtaskID, b.startedAt.unixSeconds, b.endedAt.unixSeconds])
            try insert.execute()
            newBlocks[index].id = db.lastInsertedRowID
        }
        try db.execute(sql: "UPDATE subtask SET atRisk = 0 WHERE atRisk = 1")
        try db.execute(sql: "DELETE FROM planRisk")
        let flag = try db.cachedStatement(sql: "UPDATE subtask SET atRisk = 1 WHERE id = ?")
        let risk = try db.cachedStatement(sql: "INSERT INTO planRisk (subtaskId, neededSeconds, freeSeconds, competitors) VALUES (?, ?, ?, ?)")
        for item in result.schedule.atRisk {
            try flag.setUncheckedArguments([item.itemID])
            try flag.execute()
            try risk.setUncheckedArguments([item.itemID, max(0, item.neededSeconds), max(0, item.freeSeconds), item.competitors.joined(separator: "\n")])
            try risk.execute()
        }
        try db.execute(sql: "UPDATE planState SET stale = 0 WHERE id = 1")
    }

    /// What to show: settled and kept blocks, the new plan, blocks settled earlier, and the lists.
    static func outcome(_ result: ReplanResult, newBlocks: [ScheduledBlock], titles: [Int64: (task: String, subtask: String)],
                        showFrom: Date, _ db: Database) throws -> PlanOutcome {
        var titles = titles
        var shown = result.settled + result.kept + newBlocks
        shown += try Row.fetchAll(db, sql: "SELECT * FROM scheduledBlock WHERE status != 'planned' AND endedAt > ? AND startedAt >= ?",
                                  arguments: [showFrom.unixSeconds, showFrom.unixSeconds - 86_400]).map(ScheduledBlock.init(row:))
            .filter { block in !result.settled.contains { $0.id == block.id } }
        shown = shown.filter { $0.endedAt > showFrom }
        try fillTitles(&titles, for: Set(shown.map(\.subtaskID)), db)
        func names(_ id: Int64) -> (task: String, subtask: String) { titles[id] ?? ("?", "?") }
        let blocks = shown.map { b in
            BlockView(id: b.id, subtaskID: b.subtaskID, task: names(b.subtaskID).task, subtask: names(b.subtaskID).subtask,
                      start: b.startedAt, end: b.endedAt, status: b.status, pinnedUID: b.pinnedUID)
        }.sorted(by: BlockView.ordered)
        let atRisk = result.schedule.atRisk.map { item in
            RiskView(subtaskID: item.itemID, task: names(item.itemID).task, subtask: names(item.itemID).subtask,
                     due: item.due, neededSeconds: item.neededSeconds, freeSeconds: item.freeSeconds, competitors: item.competitors,
                     capSeconds: item.capSeconds)
        }
        let overdue = result.overdue.map {
            OverdueView(subtaskID: $0.itemID, task: names($0.itemID).task, subtask: names($0.itemID).subtask,
                        due: $0.due, remainingSeconds: $0.remainingSeconds)
        }
        let undated = result.undated.map {
            UndatedView(subtaskID: $0.itemID, task: names($0.itemID).task, subtask: names($0.itemID).subtask, remainingSeconds: $0.remainingSeconds)
        }
        return PlanOutcome(blocks: blocks, atRisk: atRisk, overdue: overdue, undated: undated, result: result)
    }

    /// Re-plans and saves inside a change of one subtask, then applies the refusal policy
    /// (`PlanRefusal.decide`): a refusal throws, which rolls the whole change back.
    static func replanRefusing(_ db: Database, _ request: RefusalRequest, change: SubtaskChange) throws -> PlanVerdict {
        let result = try replan(db, request.context, save: true, showFrom: request.context.now).result
        return try PlanRefusal.decide(result, change: change, now: request.context.now, rules: request.context.rules)
    }

    private static func fillTitles(_ titles: inout [Int64: (task: String, subtask: String)], for ids: Set<Int64>, _ db: Database) throws {
        let missing = ids.filter { titles[$0] == nil }
        guard !missing.isEmpty else { return }
        let list = missing.map(String.init).joined(separator: ",")
        for row in try Row.fetchAll(db, sql: """
            SELECT subtask.id, subtask.title, task.title AS taskTitle FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.id IN (\(list))
            """) {
            titles[row.id("id")] = (row.text("taskTitle"), row.text("title"))
        }
    }
}
