import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// Everything `focus stats` and `focus report` compute from, read in one transaction (one
    /// consistent snapshot): every session overlapping
    /// `[startOfDay(window.historyFrom), startOfDay(window.to + 1))` (the window, the previous
    /// period, and the 12 weeks the streak and the heatmap look back over), one by one, by an
    /// index range on the start time, so the cost follows the window, not the size of the
    /// history; the titles of tasks and subtasks; and the estimate progress of the tasks shown.
    /// `taskPath` (`Thesis`, `Thesis/Chapter 2`, a prefix or `#ID`) keeps only that task's or
    /// subtask's sessions.
    ///
    /// `tag` keeps only the sessions filed under that tag (README, "Tags"); the sessions of the
    /// window that have tags are read once more with their tag names, for the "by tag" figures.
    package func statsInput(
        window: StatsWindow, calendar: LocalCalendar, now: Date, taskPath: String?, tag: String? = nil
    ) throws(FocusError) -> StatsInput {
        try read { db in
            var target: PathTarget?
            var filterName: String?
            if let taskPath {
                let catalog = try AppDatabase.catalog(db)
                let resolved = try catalog.resolve(taskPath)
                target = resolved
                filterName = catalog.path(of: resolved)
            }
            var filter = ""
            var filterIDs: [Int64] = []
            // The unary + keeps SQLite on the start-time index: the window, not all of a task's history.
            if let sub = target?.subtaskID, try Bool.fetchOne(db, sql: "SELECT every IS NOT NULL FROM subtask WHERE id = ?", arguments: [sub]) == true {
                // A series' sessions are those of its instances (README, "Planning"); its id is
                // written into the SQL (an integer from the database), as the tag's is below.
                filter = " AND +subtaskId IN (SELECT id FROM subtask WHERE seriesId = \(sub))"
            } else if let sub = target?.subtaskID {
                filter = " AND +subtaskId = ?"
                filterIDs = [sub]
            } else if let task = target?.taskID {
                filter = " AND +taskId = ?"
                filterIDs = [task]
            }
            if let tag {
                // The tag's id written into the SQL (an integer from the database, never text
                // from the person), so the filter's placeholders stay the task filter's alone.
                filter += " AND +id IN (SELECT timeLogId FROM timeLogTag WHERE tagId = \(try AppDatabase.existingTagID(tag, db) ?? -1))"
            }
            let windowStart = calendar.startOfDay(window.from)
            let windowEnd = calendar.startOfDay(window.to.adding(days: 1))
            let sessions = try AppDatabase.statsSessions(db, calendar.startOfDay(window.historyFrom), windowEnd, filter: filter, filterIDs)
            // The tasks shown: those with a session overlapping (or starting in) the window.
            let lo = windowStart.unixSeconds
            let shown = Set(sessions.filter { $0.end > lo || $0.start >= lo }.map(\.taskID))
            var input = StatsInput(
                window: window, calendar: calendar, now: now, sessions: sessions, titles: try AppDatabase.titles(db),
                progress: try AppDatabase.progress(db, taskIDs: shown.sorted(), subtaskID: target?.subtaskID, now: now),
                taskFilter: filterName, historyFrom: window.historyFrom)
            input.taggedSessions = try AppDatabase.taggedSessions(db, windowStart, windowEnd, filter: filter, filterIDs)
            input.tagFilter = tag
            return try AppDatabase.rollingUpInstances(input, db)
        }
    }

    /// Recurring work rolls up (README, "Planning"): the sessions of a series' instances count
    /// under the series, by its title, as one subtask.
    static func rollingUpInstances(_ input: StatsInput, _ db: Database) throws -> StatsInput {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM subtask WHERE every IS NOT NULL)") == true else { return input }
        var series: [Int64: Int64] = [:]
        let lookup = try db.cachedStatement(sql: """
            SELECT series.id, series.title FROM subtask JOIN subtask AS series ON series.id = subtask.seriesId WHERE subtask.id = ?
            """)
        var input = input
        for id in Set(input.sessions.map(\.subtaskID) + input.taggedSessions.map(\.session.subtaskID)) where id != 0 {
            guard let row = try Row.fetchOne(lookup, arguments: [id]) else { continue }
            series[id] = row.id(0)
            input.titles.set(row.id(0), row.text(1))
        }
        guard !series.isEmpty else { return input }
        for i in input.sessions.indices { input.sessions[i].subtaskID = series[input.sessions[i].subtaskID] ?? input.sessions[i].subtaskID }
        for i in input.taggedSessions.indices {
            let id = input.taggedSessions[i].session.subtaskID
            input.taggedSessions[i].session.subtaskID = series[id] ?? id
        }
        return input
    }

    /// How far before an instant the start-time index is read for the sessions running over it:
    /// a day. A session may last longer (a forgotten timer, README "Sessions longer than a day");
    /// those come from the `timeLog_long` index.
    static let dayReach: Int64 = 86_400

    /// The WHERE term of the `timeLog_long` partial index (the v8 migration), word for word:
    /// SQLite uses a partial index only for a query that repeats its term.
    static let longSessionTerm = "endedAt - startedAt > 86400"

    /// The columns a `StatsSession` is read from, by position (`statsSession`): all of them in
    /// the `timeLog_window` index, so no row of the table is read; the status as 1 (completed),
    /// 2 (open) or 0, so no text is made of it.
    static let entryColumns = "taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, (status = 'completed') + 2 * (status = 'open')"

    /// Sessions starting in `[from, to)`: an index range on the start time.
    package static let windowSessionsSQL = """
        SELECT \(entryColumns) FROM timeLog WHERE startedAt >= ? AND startedAt < ?
        """

    /// Every session overlapping `[from, to)` (or starting in it, zero-length ones included),
    /// `filter` applied, in no particular order: those begun from a day before `from` by the
    /// start-time index, and the earlier ones still running at `from` — longer than a day —
    /// from `timeLog_long`, which holds only those.
    ///
    /// Stepped through SQLite's C API (`RawColumns`, the same checked conversions as `Row`):
    /// copying each of a year's 10,000 rows into a `Row` cost more than SQLite's reading of
    /// them (docs/PERFORMANCE.md, "Fast paths"). `viaRow` reads them through `Row` instead, the plain way
    /// StatsReaderEqualityTests holds this one to.
    static func statsSessions(
        _ db: Database, _ from: Date, _ to: Date, filter: String, _ filterIDs: [Int64], viaRow: Bool = false
    ) throws -> [StatsSession] {
        let lo = from.unixSeconds, hi = to.unixSeconds
        let near = windowSessionsSQL + " AND (endedAt > ? OR startedAt >= ?)" + filter
        let long = "SELECT \(entryColumns) FROM timeLog INDEXED BY timeLog_long WHERE \(longSessionTerm) AND startedAt < ? AND endedAt > ?" + filter
        var sessions: [StatsSession] = []
        for (sql, args) in [(near, [lo - dayReach, hi, lo, lo]), (long, [lo - dayReach, lo])] {
            if viaRow {
                for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args + filterIDs)) {
                    sessions.append(statsSession(row) { .index($0) })
                }
                continue
            }
            let statement = try db.cachedStatement(sql: sql)
            statement.clearBindings()
            defer { statement.reset() }
            for (i, value) in (args + filterIDs).enumerated() { try statement.bind(value, at: Int32(i + 1)) }
            let columns = RawColumns(columns: statement.columns)
            while try statement.step() { sessions.append(statsSession(columns) { Int32($0) }) }
        }
        return sessions
    }

    /// The session in `entryColumns` order, column `k` of it being `column(k)`. A NULL subtask
    /// reads as 0, which no subtask has.
    static func statsSession<C: StoredColumns>(_ c: C, _ column: (Int) -> C.Column) -> StatsSession {
        let (start, end) = StoredNumber.session(start: c.storedInteger(column(2)), end: c.storedInteger(column(3)))
        let outcome = c.storedInteger(column(6))
        return StatsSession(
            taskID: c.id(column(0)), subtaskID: c.optionalID(column(1)) ?? 0, start: start, end: end,
            plannedSeconds: c.seconds(column(4)), focusedSeconds: min(c.seconds(column(5)), Int(end - start)),
            completed: outcome == 1, open: outcome == 2)
    }

    /// The sessions overlapping `[from, to)` (`filter` applied) that have tags, once per tag.
    /// Nothing is read when no session has a tag.
    static func taggedSessions(_ db: Database, _ from: Date, _ to: Date, filter: String, _ filterIDs: [Int64]) throws -> [TaggedStatsSession] {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM timeLogTag)") == true else { return [] }
        let lo = from.unixSeconds, hi = to.unixSeconds
        let columns = "id, taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status"
        let near = "SELECT \(columns) FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt >= ?\(filter)"
        let long = "SELECT \(columns) FROM timeLog INDEXED BY timeLog_long WHERE \(longSessionTerm) AND startedAt < ? AND endedAt > ?\(filter)"
        var out: [TaggedStatsSession] = []
        for (sql, args) in [(near, [lo - dayReach, hi, lo]), (long, [lo - dayReach, lo])] {
            let rows = try Row.fetchAll(db, sql: """
                SELECT tag.name, l.taskId, l.subtaskId, l.startedAt, l.endedAt, l.plannedSeconds, l.focusedSeconds,
                  (l.status = 'completed') + 2 * (l.status = 'open')
                FROM (\(sql)) AS l JOIN timeLogTag ON timeLogTag.timeLogId = l.id JOIN tag ON tag.id = timeLogTag.tagId
                """, arguments: StatementArguments(args + filterIDs))
            for row in rows {
                out.append(TaggedStatsSession(tag: row.text(0), session: statsSession(row) { .index($0 + 1) }))
            }
        }
        return out
    }

    /// The sessions `statsInput` reads for `[from, to)` (no filter): through the C API, or
    /// `viaRow`, through `Row` (for the test that holds one to the other).
    package func statsSessions(overlapping from: Date, _ to: Date, viaRow: Bool) throws(FocusError) -> [StatsSession] {
        try read { db in try AppDatabase.statsSessions(db, from, to, filter: "", [], viaRow: viaRow) }
    }

    /// The focused seconds inside `[from, to)` as the stats count them (each session's focus
    /// shared out by wall time, so a session across midnight, or a forgotten timer over three
    /// days, gives each day its part), from the sessions overlapping the range. "Today" in
    /// `status`, the countdown and the daemon's day summary is this.
    static func focusInside(_ db: Database, from: Date, to: Date) throws -> Double {
        let lo = from.unixSeconds, hi = to.unixSeconds
        guard lo < hi else { return 0 }
        var total = 0.0
        for session in try statsSessions(db, from, to, filter: "", []) {
            total += StatsMath.focusInside(focused: Double(session.focusedSeconds), start: Double(session.start), end: Double(session.end),
                                           lo: Double(lo), hi: Double(hi))
        }
        return total
    }

    /// The titles of every task and subtask, by id.
    static func titles(_ db: Database) throws -> StatsTitles {
        var titles = StatsTitles()
        for table in ["task", "subtask"] {
            for row in try Row.fetchAll(db, sql: "SELECT id, title FROM \(table)") {
                if let text = row.optionalText(1) { titles.set(row.id(0), text) }
            }
        }
        return titles
    }

    /// Subtasks with an estimate among `taskIDs` (or just `subtaskID`), with their logged totals.
    /// A series is never listed (its instances are), nor a missed instance of one (past due, not
    /// done: `RecurringWork.Instance.isMissed`), which would otherwise stay open in the list
    /// for ever (README, "Planning").
    static func progress(_ db: Database, taskIDs: [Int64], subtaskID: Int64?, now: Date) throws -> [SubtaskProgress] {
        guard !taskIDs.isEmpty else { return [] }
        var sql = """
            SELECT task.title, subtask.title, subtask.estimateSeconds, subtask.loggedSeconds, subtask.done, subtask.lastWorkedAt
            FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.estimateSeconds IS NOT NULL AND subtask.every IS NULL
            """
        var args: [Int64] = []
        if let subtaskID {
            // A series' progress is its instances' (README, "Planning").
            sql += " AND (subtask.id = ?1 OR subtask.seriesId = ?1)"
            args = [subtaskID]
        } else {
            args = taskIDs.sorted()
            sql += " AND subtask.taskId IN (" + args.map { _ in "?" }.joined(separator: ",") + ")"
        }
        sql += " AND (subtask.seriesId IS NULL OR subtask.done = 1 OR ifnull(subtask.due > ?, 1))"
        args.append(now.unixSeconds)
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)).map { row in
            SubtaskProgress(
                task: row.text(0), subtask: row.text(1), estimateSeconds: Int(row.number(2, .positiveSeconds)),
                loggedSeconds: row.seconds(3), done: row.bool(4), lastWorkedAt: row.optionalDate(5))
        }
    }
}
