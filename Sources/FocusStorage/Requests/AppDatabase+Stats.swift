import FocusCore
import Foundation
import GRDB

extension AppDatabase {
    /// Everything `focus stats` and `focus report` compute from, read in one transaction (one
    /// consistent snapshot): the sessions overlapping
    /// `[startOfDay(window.historyFrom), startOfDay(window.to + 1))` — an index range on the
    /// start time, so the cost follows the window, not the size of the history — and the
    /// estimate progress of the subtasks of the tasks shown. `taskPath` (`Thesis`,
    /// `Thesis/Chapter 2`, a prefix or `#ID`) keeps only that task's or subtask's sessions.
    package func statsInput(window: StatsWindow, calendar: LocalCalendar, now: Date, taskPath: String?) throws(FocusError) -> StatsInput {
        try read { db in
            var target: PathTarget?
            var filterName: String?
            if let taskPath {
                let catalog = try AppDatabase.catalog(db)
                let resolved = try catalog.resolve(taskPath)
                target = resolved
                filterName = catalog.path(of: resolved)
            }
            let loadFrom = calendar.startOfDay(window.historyFrom)
            let windowStart = calendar.startOfDay(window.from)
            let windowEnd = calendar.startOfDay(window.to.adding(days: 1))
            let sessions = try AppDatabase.statsSessions(db, loadFrom, windowEnd, subtaskID: target?.subtaskID,
                                                         taskID: target?.subtaskID == nil ? target?.taskID : nil)
            // The tasks shown: those with a session overlapping (or starting in) the window.
            var shown = Set<Int64>()
            for entry in sessions {
                let log = entry.log
                if log.startedAt < windowEnd, log.endedAt > windowStart || log.startedAt >= windowStart {
                    shown.insert(log.taskID)
                }
            }
            let progress = try AppDatabase.progress(db, taskIDs: shown, subtaskID: target?.subtaskID)
            return StatsInput(
                window: window, calendar: calendar, now: now, sessions: sessions, progress: progress,
                taskFilter: filterName, historyFrom: window.historyFrom)
        }
    }

    /// Sessions overlapping `[from, to)`, oldest first: what `sessions(overlapping:)` returns,
    /// read for speed. No join: titles come from a cache filled once per id, and columns are
    /// read by position from a cursor over a cached statement (a 12-week window over a decade
    /// of history is tens of thousands of rows: this is the hot path of `focus stats`). Sessions
    /// last at most a day, so the scan is the index range `[from - 1 day, to)` on the start.
    static func statsSessions(_ db: Database, _ from: Date, _ to: Date, subtaskID: Int64?, taskID: Int64?) throws -> [SessionEntry] {
        var sql = """
            SELECT id, taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, blockId, note
            FROM timeLog
            WHERE startedAt >= ? AND startedAt < ? AND (endedAt > ? OR startedAt >= ?)
            """
        let lo = from.unixSeconds
        var args: StatementArguments = [lo - 86_400, to.unixSeconds, lo, lo]
        if let subtaskID { sql += " AND subtaskId = ?"; args += [subtaskID] }
        if let taskID { sql += " AND taskId = ?"; args += [taskID] }
        sql += " ORDER BY startedAt, id"
        var names = TitleCache()
        var entries: [SessionEntry] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: args)
        while let row = try rows.next() {
            let task: Int64 = row[1]
            let subtask: Int64? = row[2]
            let status: String = row[7]
            let log = TimeLog(
                id: row[0], taskID: task, subtaskID: subtask,
                startedAt: Date(unixSeconds: row[3]), endedAt: Date(unixSeconds: row[4]),
                plannedSeconds: row[5], focusedSeconds: row[6],
                status: status == "completed" ? .completed : .interrupted, blockID: row[8], note: row[9])
            entries.append(SessionEntry(log: log, task: try names.task(task, db), subtask: try subtask.map { try names.subtask($0, db) }))
        }
        return entries
    }

    /// Subtasks with an estimate among `taskIDs` (or just `subtaskID`), with their logged totals.
    static func progress(_ db: Database, taskIDs: Set<Int64>, subtaskID: Int64?) throws -> [SubtaskProgress] {
        guard !taskIDs.isEmpty else { return [] }
        var sql = """
            SELECT task.title, subtask.title, subtask.estimateSeconds, subtask.loggedSeconds, subtask.done, subtask.lastWorkedAt
            FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.estimateSeconds IS NOT NULL
            """
        var args: StatementArguments = []
        if let subtaskID {
            sql += " AND subtask.id = ?"
            args += [subtaskID]
        } else {
            sql += " AND subtask.taskId IN (" + taskIDs.sorted().map { _ in "?" }.joined(separator: ",") + ")"
            for id in taskIDs.sorted() { args += [id] }
        }
        return try Row.fetchAll(db, sql: sql, arguments: args).map { row in
            let last: Int64? = row[5]
            return SubtaskProgress(
                task: row[0], subtask: row[1], estimateSeconds: row[2], loggedSeconds: row[3], done: row[4],
                lastWorkedAt: last.map(Date.init(unixSeconds:)))
        }
    }
}
