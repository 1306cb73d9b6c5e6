import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    static let entrySelectSQL = entrySelectSQL(index: nil)

    /// `entrySelectSQL` reading timeLog through `index` (SQLite's INDEXED BY), when given.
    static func entrySelectSQL(index: String?) -> String {
        """
        SELECT \(TimeLog.selection), task.title AS taskTitle, subtask.title AS subtaskTitle, \(tagNamesColumn) AS tagNames
        FROM timeLog\(index.map { " INDEXED BY " + $0 } ?? "") JOIN task ON task.id = timeLog.taskId
        LEFT JOIN subtask ON subtask.id = timeLog.subtaskId
        """
    }

    static func entry(_ row: Row) -> SessionEntry {
        var log = TimeLog(row: row)
        log.tags = tags(row.optionalText(12))
        return SessionEntry(log: log, task: row.text(10), subtask: row.optionalText(11))
    }

    /// Records one session and returns its id.
    package func recordSession(_ log: TimeLog, now: Date) throws(FocusError) -> Int64 {
        try write { db in try AppDatabase.insert(log, now: now, db) }
    }

    static func insert(_ log: TimeLog, now: Date, _ db: Database) throws -> Int64 {
        let start = log.startedAt.unixSeconds
        let end = max(start, log.endedAt.unixSeconds)
        let focused = min(max(0, log.focusedSeconds), Int(end - start))
        try db.execute(
            sql: """
                INSERT INTO timeLog (taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, blockId, note, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [log.taskID, log.subtaskID, start, end, max(0, log.plannedSeconds), focused,
                        log.status.rawValue, log.blockID, log.note, now.unixSeconds])
        let id = db.lastInsertedRowID
        if !log.tags.isEmpty { try setTags(log.tags, session: id, db) }
        return id
    }

    package func session(id: Int64) throws(FocusError) -> SessionEntry? {
        try read { db in
            try Row.fetchOne(db, sql: AppDatabase.entrySelectSQL + " WHERE timeLog.id = ?", arguments: [id]).map(AppDatabase.entry)
        }
    }

    /// The most recent sessions, newest first.
    package func recentSessions(limit: Int, subtaskID: Int64? = nil) throws(FocusError) -> [SessionEntry] {
        try read { db in
            let filter = subtaskID == nil ? "" : " WHERE timeLog.subtaskId = ?"
            var args: StatementArguments = []
            if let subtaskID { args += [subtaskID] }
            args += [limit]
            return try Row.fetchAll(db, sql: AppDatabase.entrySelectSQL + filter + " ORDER BY timeLog.startedAt DESC, timeLog.id DESC LIMIT ?",
                                    arguments: args).map(AppDatabase.entry)
        }
    }

    /// The session that ended last (`focus continue`), or nil when none is recorded.
    package func lastEndedSession() throws(FocusError) -> SessionEntry? {
        try read { db in
            try Row.fetchOne(db, sql: AppDatabase.entrySelectSQL + " ORDER BY timeLog.endedAt DESC, timeLog.id DESC LIMIT 1")
                .map(AppDatabase.entry)
        }
    }

    /// Sessions overlapping [from, to), oldest first. Reads an index range on the start time from
    /// `from - 1 day`, and before that only the sessions longer than a day (`timeLog_long`: a
    /// forgotten timer, README "Sessions longer than a day"), which all start earlier than the others.
    package func sessions(overlapping from: Date, _ to: Date, subtaskID: Int64? = nil, taskID: Int64? = nil) throws(FocusError) -> [SessionEntry] {
        try read { db in try AppDatabase.sessions(db, from, to, subtaskID: subtaskID, taskID: taskID) }
    }

    static func sessions(_ db: Database, _ from: Date, _ to: Date, subtaskID: Int64? = nil, taskID: Int64? = nil) throws -> [SessionEntry] {
        let lo = from.unixSeconds, hi = to.unixSeconds
        let reach = lo.subtractingReportingOverflow(dayReach)
        let dayBack = reach.overflow ? Int64.min : reach.partialValue
        var filter = ""
        var filterArgs: StatementArguments = []
        if let subtaskID { filter += " AND timeLog.subtaskId = ?"; filterArgs += [subtaskID] }
        if let taskID { filter += " AND timeLog.taskId = ?"; filterArgs += [taskID] }
        let order = " ORDER BY timeLog.startedAt, timeLog.id"
        // Begun before `from - 1 day` and still running at `from`: longer than a day.
        let long = AppDatabase.entrySelectSQL(index: "timeLog_long") + """
             WHERE \(longSessionTerm) AND timeLog.startedAt < ? AND timeLog.startedAt < ? AND timeLog.endedAt > ?
            """
        var entries = try Row.fetchAll(db, sql: long + filter + order, arguments: [dayBack, hi, lo] + filterArgs).map(AppDatabase.entry)
        let sql = AppDatabase.entrySelectSQL + """
             WHERE timeLog.startedAt >= ? AND timeLog.startedAt < ?
               AND (timeLog.endedAt > ? OR timeLog.startedAt >= ?)
            """
        entries += try Row.fetchAll(db, sql: sql + filter + order, arguments: [dayBack, hi, lo, lo] + filterArgs).map(AppDatabase.entry)
        return entries
    }

    /// Replaces a session's fields (the id stays).
    package func updateSession(_ log: TimeLog) throws(FocusError) {
        try write { db in
            guard let id = log.id, try Bool.fetchOne(db, sql: "SELECT 1 FROM timeLog WHERE id = ?", arguments: [id]) == true else {
                throw FocusError.noSuchLog(id: log.id ?? 0)
            }
            let start = log.startedAt.unixSeconds
            let end = log.endedAt.unixSeconds
            try db.execute(
                sql: """
                    UPDATE timeLog SET taskId = ?, subtaskId = ?, startedAt = ?, endedAt = ?, plannedSeconds = ?,
                      focusedSeconds = ?, status = ?, note = ? WHERE id = ?
                    """,
                arguments: [log.taskID, log.subtaskID, start, end, log.plannedSeconds,
                            min(log.focusedSeconds, Int(end - start)), log.status.rawValue, log.note, id])
            try AppDatabase.setTags(log.tags, session: id, db)
        }
    }

    package func removeSession(id: Int64) throws(FocusError) {
        try write { db in
            try db.execute(sql: "DELETE FROM timeLog WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw FocusError.noSuchLog(id: id) }
        }
    }

    /// Sessions overlapping [start, end) other than `excluding`: for the overlap warning. Those
    /// begun more than a day before `start` are longer than a day, and counted from their index.
    package func overlappingCount(_ start: Date, _ end: Date, excluding id: Int64? = nil) throws(FocusError) -> Int {
        try read { db in
            let lo = start.unixSeconds, hi = end.unixSeconds
            let near = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt > ? AND id != ?
                """, arguments: [lo - AppDatabase.dayReach, hi, lo, id ?? -1]) ?? 0
            let long = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM timeLog INDEXED BY timeLog_long
                WHERE \(AppDatabase.longSessionTerm) AND startedAt < ? AND startedAt < ? AND endedAt > ? AND id != ?
                """, arguments: [lo - AppDatabase.dayReach, hi, lo, id ?? -1]) ?? 0
            return near + long
        }
    }
}
