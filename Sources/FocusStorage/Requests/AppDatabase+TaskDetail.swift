import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// The blocks of one subtask, or of every subtask of a task, by start (`focus task show`).
    /// Read through the subtask index, so a task's history of other work is never scanned.
    package func blocks(of target: PathTarget) throws(FocusError) -> [BlockView] {
        try read { db in
            let filter: String
            let args: StatementArguments
            switch target {
            case let .task(id): filter = "subtask.taskId = ?"; args = [id]
            // A series' blocks are its instances' (README, "Planning").
            case let .subtask(_, id):
                filter = "(scheduledBlock.subtaskId = ?1 OR scheduledBlock.subtaskId IN (SELECT id FROM subtask WHERE seriesId = ?1))"
                args = [id]
            }
            return try Row.fetchAll(db, sql: AppDatabase.blockSelectSQL + """
                 WHERE \(filter) ORDER BY scheduledBlock.startedAt, scheduledBlock.endedAt, scheduledBlock.id
                """, arguments: args).map(AppDatabase.blockView)
        }
    }

    /// The sessions of one subtask, or of a task (its subtasks' included), newest first: at most
    /// `limit` of them (all without one), with the count and focus of all.
    package func sessions(of target: PathTarget, limit: Int? = nil) throws(FocusError) -> SessionPage {
        try read { db in
            let (filter, args) = AppDatabase.sessionFilter(target)
            var sql = AppDatabase.entrySelectSQL + " WHERE \(filter) ORDER BY timeLog.startedAt DESC, timeLog.id DESC"
            var pageArgs = args
            if let limit { sql += " LIMIT ?"; pageArgs += [max(0, limit)] }
            let entries = try Row.fetchAll(db, sql: sql, arguments: pageArgs).map(AppDatabase.entry)
            let totals = try AppDatabase.sessionTotals(db, filter: filter, args)
            return SessionPage(entries: entries, count: totals.count, focusedSeconds: totals.focusedSeconds)
        }
    }

    /// Deletes every session of a subtask, or of a task (its subtasks' included), in one
    /// transaction, unless a running session is recording that work (`isRunning` says whether the
    /// process holding the running-session slot is alive). Returns what was deleted.
    package func removeSessions(of target: PathTarget, isRunning: () -> Bool) throws(FocusError) -> (count: Int, focusedSeconds: Int) {
        try write { db in
            try AppDatabase.refuseIfRecording(target, isRunning: isRunning, db)
            let (filter, args) = AppDatabase.sessionFilter(target)
            let totals = try AppDatabase.sessionTotals(db, filter: filter, args)
            try db.execute(sql: "DELETE FROM timeLog WHERE \(filter)", arguments: args)
            return totals
        }
    }

    /// Refuses (exit 69) while a running session records its work on `target`: checked before
    /// asking whether to delete its sessions, and again in the transaction that deletes them.
    package func refuseIfRecording(_ target: PathTarget, isRunning: () -> Bool) throws(FocusError) {
        try read { db in try AppDatabase.refuseIfRecording(target, isRunning: isRunning, db) }
    }

    private static func refuseIfRecording(_ target: PathTarget, isRunning: () -> Bool, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") else { return }
        let running = ActiveSession(row: row)
        if running.records(target), isRunning() {
            throw FocusError.unavailable(
                "a running session is recording this work. Stop it with `focus stop` first, then delete its sessions.")
        }
    }

    /// Makes today's daily backup now if it is not there yet, so that it holds the database as it
    /// is before a change that deletes history (README: Backups).
    package func backUpBeforeDeleting() {
        dailyBackup?.afterWrite(self)
    }

    private static func sessionFilter(_ target: PathTarget) -> (String, StatementArguments) {
        switch target {
        case let .task(id): return ("timeLog.taskId = ?", [id])
        // A series' sessions are its instances' (README, "Planning").
        case let .subtask(_, id): return ("(timeLog.subtaskId = ?1 OR timeLog.subtaskId IN (SELECT id FROM subtask WHERE seriesId = ?1))", [id])
        }
    }

    private static func sessionTotals(_ db: Database, filter: String, _ args: StatementArguments) throws -> (count: Int, focusedSeconds: Int) {
        let row = try Row.fetchOne(db, sql: "SELECT count(*), total(focusedSeconds) FROM timeLog WHERE \(filter)", arguments: args)
        return (row?.count(0) ?? 0, row?.seconds(1) ?? 0)
    }
}
