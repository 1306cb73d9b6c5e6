import FocusCore
import FoundationEssentials
import FocusSQLite

/// Recurring work (README, "Planning"): a series' instances loaded for `RecurringWork`'s
/// decisions, and those decisions applied.
extension AppDatabase {
    /// The series of open tasks: read by every re-plan, through the `subtask_every` index. A
    /// series another app marked completed (through sync) makes no more instances.
    package static let seriesSQL = """
        SELECT \(Subtask.selection) FROM subtask JOIN task ON task.id = subtask.taskId
        WHERE subtask.every IS NOT NULL AND subtask.done = 0 AND task.archived = 0
        """
    /// The periods a series has instances for, through `subtask_series_period`.
    package static let periodsSQL = "SELECT periodStart FROM subtask WHERE seriesId = ?"

    /// Adds the instances every series of an open task lacks on the local day of `now`
    /// (`RecurringWork.missing`). Called by every re-plan, so instances appear without a command of
    /// their own. An instance whose title another subtask of the task already has is not added.
    static func addInstances(_ db: Database, now: Date, calendar: LocalCalendar) throws {
        let series = try Row.fetchAll(db, sql: AppDatabase.seriesSQL).map(Subtask.init(row:))
        guard !series.isEmpty else { return }
        let today = calendar.day(of: now)
        let periods = try db.cachedStatement(sql: AppDatabase.periodsSQL)
        for s in series {
            let existing = try String.fetchAll(periods, arguments: [s.id]).compactMap { DateParser.parseDate($0[...]) }
            for instance in RecurringWork.missing(series: s, existing: existing, today: today, calendar: calendar, now: now) {
                try insertInstance(instance, now: now, db)
            }
        }
    }

    /// Whether a series lacks an instance it must have now (a period began since the last
    /// re-plan): then the plan is out of date though nothing in the database changed.
    package func instancesAreDue(now: Date, calendar: LocalCalendar) throws(FocusError) -> Bool {
        try read { db in
            let series = try Row.fetchAll(db, sql: AppDatabase.seriesSQL).map(Subtask.init(row:))
            let periods = try db.cachedStatement(sql: AppDatabase.periodsSQL)
            for s in series {
                let existing = try String.fetchAll(periods, arguments: [s.id]).compactMap { DateParser.parseDate($0[...]) }
                if !RecurringWork.missing(series: s, existing: existing, today: calendar.day(of: now), calendar: calendar, now: now).isEmpty {
                    return true
                }
            }
            return false
        }
    }

    private static func insertInstance(_ instance: Subtask, now: Date, _ db: Database) throws {
        let clash = try Bool.fetchOne(db, sql: "SELECT 1 FROM subtask WHERE taskId = ? AND titleKey = ?",
                                      arguments: [instance.taskID, TaskCatalog.key(instance.title)]) == true
        guard !clash else { return }
        try db.execute(sql: "INSERT INTO pathId DEFAULT VALUES")
        let id = db.lastInsertedRowID
        try db.execute(sql: "INSERT INTO subtask (id, \(Subtask.columns), createdAt) VALUES (?, \(Subtask.placeholders), ?)",
                       arguments: [id] + instance.arguments + [now.unixSeconds])
    }

    /// The instances of a series, with their logged focus.
    static func instances(of seriesID: Int64, _ db: Database) throws -> [(instance: RecurringWork.Instance, loggedSeconds: Int)] {
        try Row.fetchAll(db, sql: "SELECT id, periodStart, due, done, loggedSeconds FROM subtask WHERE seriesId = ?",
                         arguments: [seriesID]).compactMap { row in
            guard let start = row.optionalText("periodStart").flatMap({ DateParser.parseDate($0[...]) }) else { return nil }
            let instance = RecurringWork.Instance(id: row.id("id"), periodStart: start, due: row.optionalDate("due"), done: row.bool("done"))
            return (instance, row.seconds("loggedSeconds"))
        }
    }

    /// The instances of a series, as the decisions read them.
    package func instances(ofSeries seriesID: Int64) throws(FocusError) -> [RecurringWork.Instance] {
        try read { db in try AppDatabase.instances(of: seriesID, db).map(\.instance) }
    }

    /// The instance work on a series is logged against now (`RecurringWork.current`), its
    /// instances added first when a period began since the last re-plan; with `reopening`, the
    /// one `task done --undo` reopens (`RecurringWork.lastDone`). Nil when there is none.
    package func currentInstance(ofSeries seriesID: Int64, now: Date, calendar: LocalCalendar,
                                 reopening: Bool = false) throws(FocusError) -> Int64? {
        try write { db in
            try AppDatabase.addInstances(db, now: now, calendar: calendar)
            let instances = try AppDatabase.instances(of: seriesID, db).map(\.instance)
            return reopening ? RecurringWork.lastDone(instances, now: now)?.id : RecurringWork.current(instances, now: now)?.id
        }
    }

    /// Saves a series' fields and carries them to its instances: a renamed series renames its
    /// instances; its open instances take its estimate, span, earliest time, priority and cap; a
    /// changed rule drops the open instances with no time logged
    /// (`RecurringWork.droppedOnRuleChange`) and adds the new rule's from the current period on.
    package func updateSeries(_ series: Subtask, previous: Subtask, now: Date, calendar: LocalCalendar) throws(FocusError) {
        try write { db in
            try AppDatabase.checkTitleFree(series, db)
            try db.execute(sql: """
                UPDATE subtask SET taskId = ?, title = ?, titleKey = ?, notes = ?, estimateSeconds = ?, startDate = ?,
                  due = ?, spanSeconds = ?, earliestMinutes = ?, done = ?, atRisk = ?, priority = ?, maxPerDaySeconds = ?,
                  every = ?, onDay = ?, seriesId = ?, periodStart = ?
                WHERE id = ?
                """, arguments: series.arguments + [series.id])
            guard let id = series.id else { return }
            let instances = try Row.fetchAll(db, sql: "SELECT \(Subtask.selection) FROM subtask WHERE seriesId = ?", arguments: [id])
                .map { (subtask: Subtask(row: $0), loggedSeconds: $0.seconds(12)) }
            let change = RecurringWork.afterEdit(series: series, previous: previous, instances: instances, now: now)
            for gone in change.dropped {
                try db.execute(sql: "DELETE FROM subtask WHERE id = ?", arguments: [gone])
            }
            for instance in change.updated {
                try db.execute(sql: """
                    UPDATE subtask SET title = ?, titleKey = ?, estimateSeconds = ?, spanSeconds = ?, earliestMinutes = ?,
                      priority = ?, maxPerDaySeconds = ? WHERE id = ?
                    """, arguments: [instance.title, TaskCatalog.key(instance.title), instance.estimateSeconds, instance.spanSeconds,
                                     instance.earliest?.minutes, instance.priority.rawValue, instance.maxPerDaySeconds, instance.id])
            }
            try AppDatabase.addInstances(db, now: now, calendar: calendar)
        }
    }

    /// Refuses a subtask title another subtask of the same task has.
    static func checkTitleFree(_ subtask: Subtask, _ db: Database) throws {
        let clash = try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE taskId = ? AND titleKey = ? AND id != ?",
                                       arguments: [subtask.taskID, TaskCatalog.key(subtask.title), subtask.id])
        if clash != nil {
            let taskName = try String.fetchOne(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [subtask.taskID]) ?? "?"
            throw FocusError.alreadyExists(path: "\(taskName)/\(subtask.title)")
        }
    }
}
