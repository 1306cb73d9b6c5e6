import FocusCore
import Foundation
import GRDB

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

/// A block as `plan` and `agenda` show it.
package struct BlockView: Sendable, Equatable {
    /// Nil for a block a dry run would create.
    package var id: Int64?
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var start: Date
    package var end: Date
    package var status: BlockStatus

    package init(id: Int64?, subtaskID: Int64, task: String, subtask: String, start: Date, end: Date, status: BlockStatus) {
        self.id = id
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.start = start
        self.end = end
        self.status = status
    }

    package var path: String { "\(task)/\(subtask)" }

    static func ordered(_ a: BlockView, _ b: BlockView) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return (a.id ?? .max) < (b.id ?? .max)
    }
}

/// A subtask the plan cannot fit before its due date.
package struct RiskView: Sendable, Equatable {
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var due: Date
    package var neededSeconds: Int
    package var freeSeconds: Int
    package var competitors: [String]

    package init(subtaskID: Int64, task: String, subtask: String, due: Date, neededSeconds: Int, freeSeconds: Int, competitors: [String]) {
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.due = due
        self.neededSeconds = neededSeconds
        self.freeSeconds = freeSeconds
        self.competitors = competitors
    }
}

/// A re-plan's answer: the blocks ending after `showFrom`, the at-risk list, and the decision.
package struct PlanOutcome: Sendable {
    package var blocks: [BlockView]
    package var atRisk: [RiskView]
    package var result: ReplanResult
}

extension AppDatabase {
    /// Re-plans in one transaction (`save`), or only computes what it would do (a read).
    package func replan(_ context: PlanContext, save: Bool, showFrom: Date) throws(FocusError) -> PlanOutcome {
        if save {
            return try write { db in try AppDatabase.replan(db, context, save: true, showFrom: showFrom) }
        }
        return try read { db in try AppDatabase.replan(db, context, save: false, showFrom: showFrom) }
    }

    /// Settles past blocks, replaces future planned ones with a new plan for every open subtask
    /// with an estimate and a due date, and (when `save`) writes it all, with each subtask's
    /// at-risk flag and the at-risk figures the agenda reads.
    package static func replan(_ db: Database, _ context: PlanContext, save: Bool, showFrom: Date) throws -> PlanOutcome {
        let now = context.now
        let planned = try Row.fetchAll(db, sql: "SELECT * FROM scheduledBlock WHERE status = 'planned'").map(ScheduledBlock.init(row:))

        var titles: [Int64: (task: String, subtask: String)] = [:]
        var subtasks: [PlanSubtask] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT \(Subtask.selection), task.title AS taskTitle FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.done = 0 AND task.archived = 0 AND subtask.estimateSeconds IS NOT NULL AND subtask.due IS NOT NULL
            """) {
            let s = Subtask(row: row)
            let taskTitle = row.text(14)
            titles[s.id ?? 0] = (taskTitle, s.title)
            subtasks.append(PlanSubtask(subtask: s, label: "\(taskTitle)/\(s.title)", loggedSeconds: row.seconds(12)))
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

        var running: RunningWork?
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") {
            let active = ActiveSession(row: row)
            let snap = active.snapshot
            let isWork = snap.phase == .work
            let remaining = active.remainingSeconds(at: now)
            let start = min(snap.workStartedAt ?? snap.phaseStartedAt, now)
            let end = now.addingTimeInterval(Double(remaining + (isWork ? context.rules.breakSeconds : 0)))
            running = RunningWork(subtaskID: active.subtaskID, blockID: active.blockID,
                                  focusedSeconds: isWork ? snap.focusedSeconds : 0, remainingSeconds: isWork ? remaining : 0,
                                  busy: DateInterval(start: start, end: max(start, end)))
        }

        var events: [DateInterval] = []
        if let lastDue = subtasks.compactMap(\.subtask.due).max(), lastDue > now {
            let until = min(lastDue, now.addingTimeInterval(3660 * 86_400))
            events = try busyEvents(db, from: now, to: until, zone: context.rules.calendar, expand: context.expand)
                .compactMap { $0.end > $0.start ? DateInterval(start: $0.start, end: $0.end) : nil }
        }

        let result = Replanner.replan(ReplanInput(now: now, rules: context.rules, planned: planned, sessions: sessions,
                                                  subtasks: subtasks, running: running, events: events))

        // New blocks identical to replaced ones keep their rows (and ids).
        struct Key: Hashable { let subtask: Int64, start: Int64, end: Int64 }
        var reusable: [Key: [Int64]] = [:]
        for block in result.replaced {
            reusable[Key(subtask: block.subtaskID, start: block.startedAt.unixSeconds, end: block.endedAt.unixSeconds), default: []].append(block.id ?? 0)
        }
        var newBlocks: [ScheduledBlock] = []
        for block in result.schedule.blocks {
            let key = Key(subtask: block.itemID, start: block.start.unixSeconds, end: block.end.unixSeconds)
            var id: Int64?
            if var ids = reusable[key], !ids.isEmpty {
                id = ids.removeFirst()
                reusable[key] = ids
            }
            newBlocks.append(ScheduledBlock(id: id, subtaskID: block.itemID, startedAt: block.start, endedAt: block.end))
        }

        if save {
            let update = try db.cachedStatement(sql: "UPDATE scheduledBlock SET status = ?, startedAt = ?, endedAt = ? WHERE id = ?")
            for block in result.settled {
                update.setUncheckedArguments([block.status.rawValue, block.startedAt.unixSeconds, block.endedAt.unixSeconds, block.id])
                try update.execute()
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM scheduledBlock WHERE id = ?")
            for id in reusable.values.joined() {
                delete.setUncheckedArguments([id])
                try delete.execute()
            }
            let insert = try db.cachedStatement(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status) VALUES (?, ?, ?, 'planned')")
            for index in newBlocks.indices where newBlocks[index].id == nil {
                let b = newBlocks[index]
                insert.setUncheckedArguments([b.subtaskID, b.startedAt.unixSeconds, b.endedAt.unixSeconds])
                try insert.execute()
                newBlocks[index].id = db.lastInsertedRowID
            }
            try db.execute(sql: "UPDATE subtask SET atRisk = 0 WHERE atRisk = 1")
            try db.execute(sql: "DELETE FROM planRisk")
            let flag = try db.cachedStatement(sql: "UPDATE subtask SET atRisk = 1 WHERE id = ?")
            let risk = try db.cachedStatement(sql: "INSERT INTO planRisk (subtaskId, neededSeconds, freeSeconds, competitors) VALUES (?, ?, ?, ?)")
            for item in result.schedule.atRisk {
                flag.setUncheckedArguments([item.itemID])
                try flag.execute()
                risk.setUncheckedArguments([item.itemID, max(0, item.neededSeconds), max(0, item.freeSeconds), item.competitors.joined(separator: "\n")])
                try risk.execute()
            }
        }

        // What to show: settled and kept blocks, the new plan, and blocks settled earlier.
        var shown = result.settled + result.kept + newBlocks
        shown += try Row.fetchAll(db, sql: "SELECT * FROM scheduledBlock WHERE status != 'planned' AND endedAt > ? AND startedAt >= ?",
                                  arguments: [showFrom.unixSeconds, showFrom.unixSeconds - 86_400]).map(ScheduledBlock.init(row:))
            .filter { block in !result.settled.contains { $0.id == block.id } }
        shown = shown.filter { $0.endedAt > showFrom }
        try fillTitles(&titles, for: Set(shown.map(\.subtaskID)), db)
        let blocks = shown.map { b in
            BlockView(id: b.id, subtaskID: b.subtaskID, task: titles[b.subtaskID]?.task ?? "?", subtask: titles[b.subtaskID]?.subtask ?? "?",
                      start: b.startedAt, end: b.endedAt, status: b.status)
        }.sorted(by: BlockView.ordered)
        let atRisk = result.schedule.atRisk.map { item in
            RiskView(subtaskID: item.itemID, task: titles[item.itemID]?.task ?? "?", subtask: titles[item.itemID]?.subtask ?? "?",
                     due: item.due, neededSeconds: item.neededSeconds, freeSeconds: item.freeSeconds, competitors: item.competitors)
        }
        return PlanOutcome(blocks: blocks, atRisk: atRisk, result: result)
    }

    /// Re-plans and saves inside the caller's transaction, then refuses (throws `doesNotFit`, which
    /// rolls the transaction back) when the subtask `target` does not fit, or pushes out another
    /// subtask that fitted before; `previous` is the subtask before an edit (nil for a new one).
    /// With `force`, or when the target's due date has already passed, it returns the problems
    /// instead (saved, marked at risk).
    package static func replanRefusing(
        _ db: Database, _ context: PlanContext, target: Int64, previous: Subtask?, force: Bool
    ) throws -> [AtRiskItem] {
        let outcome = try replan(db, context, save: true, showFrom: context.now)
        let result = outcome.result
        guard let item = result.items.first(where: { $0.id == target }) else { return [] }
        let problems = try PlanRefusal.problems(after: result.schedule, target: target) {
            var before = result.items.filter { $0.id != target }
            if let previous {
                // The same focus logged and work promised as now: only the edited fields differ.
                let estimate = try Row.fetchOne(db, sql: "SELECT estimateSeconds FROM subtask WHERE id = ?", arguments: [target])?.optionalNumber(0, .positiveSeconds).map { Int($0) } ?? 0
                let spent = estimate - item.remainingSeconds
                if let old = Replanner.workItem(PlanSubtask(subtask: previous, label: item.label, loggedSeconds: spent),
                                                credit: 0, calendar: context.rules.calendar) {
                    before.append(old)
                }
            }
            return Scheduler.plan(items: before, busy: result.busy, now: context.now, rules: context.rules)
        }
        if problems.isEmpty { return [] }
        // A due date already passed is not a planning question (old work being recorded): saved, with the warning.
        if !force, item.due > context.now {
            throw FocusError.doesNotFit(PlanRefusal.message(problems, label: item.label, calendar: context.rules.calendar))
        }
        return problems
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
