import FocusCore
import FoundationEssentials
import FocusSQLite

/// Performs the steps that apply one arriving item (`SyncArrival.steps`), through statements
/// prepared once per connection: a sync applies thousands of items with a few dozen statements.
struct SyncArrivalRun {
    enum Outcome { case inserted, updated, skipped(String) }

    let item: SyncItem
    let now: Date
    let db: Database
    let names: SyncNamesHere
    private(set) var outcome = Outcome.updated
    /// The item's own row once written, and the stand-in a step made.
    private var written: Int64?
    private var standIn: Int64?

    init(_ item: SyncItem, now: Date, names: SyncNamesHere, _ db: Database) {
        self.item = item
        self.now = now
        self.names = names
        self.db = db
    }

    mutating func perform(_ step: SyncApplyStep, titles: inout FreeTitles) throws {
        switch step {
        case let .skip(reason): outcome = .skipped(reason)
        case let .adoptInstance(id):
            try execute("UPDATE subtask SET syncUid = ? WHERE id = ?", [item.uid, id])
            names.forget()
        case let .writeTask(t, over): try write(t, over: over, titles: &titles)
        case let .writeSubtask(s, task, series, over): try write(s, task: task, series: series, over: over, titles: &titles)
        case let .writeSession(s, task, subtask, over): try write(s, task: task, subtask: subtask.map(row), over: over)
        case let .nameSession(s, id):
            try execute("UPDATE OR IGNORE timeLog SET syncUid = ? WHERE id = ?", [s.uid, id])
            try AppDatabase.setTags(s.tags, session: id, db)
        case let .makeStandIn(uid, task): standIn = try makeStandIn(uid, task: row(task))
        case let .setStandIn(uid, due, estimate, done, modified, p):
            try execute("""
                UPDATE subtask SET due = ?, estimateSeconds = ?, done = ?, startDate = ?, spanSeconds = ?, earliestMinutes = ?, priority = ?,
                  maxPerDaySeconds = ? WHERE syncUid = ?
                """, [due?.unixSeconds, estimate, done ? 1 : 0, p.startDate, p.spanSeconds, p.earliestMinutes, p.priority, p.maxPerDaySeconds, uid])
            try AppDatabase.renameStandIn(ofTask: try row(.written), db)
            try execute("UPDATE subtask SET modifiedAt = ? WHERE syncUid = ?", [modified, uid])
        case let .takeStandInWork(uid, parent):
            try execute("UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = ? WHERE subtaskId = (SELECT id FROM subtask WHERE syncUid = ?)",
                        [parent, row(.written), uid])
            try execute("DELETE FROM subtask WHERE syncUid = ? AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.subtaskId = subtask.id)", [uid])
            names.forget()
        case let .takeSessionsOfSubtask(old):
            try execute("UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = NULL WHERE subtaskId = ?", [row(.written), old])
            try execute("DELETE FROM subtask WHERE id = ?", [old])
            names.forget()
        case let .takeWorkOfTask(old, parent):
            let new = try row(.written)
            try execute("UPDATE OR IGNORE subtask SET taskId = ? WHERE taskId = ? AND id <> ?", [parent, old, new])
            try execute("UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = ifnull(subtaskId, ?) WHERE taskId = ?", [parent, new, old])
            let left = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM subtask WHERE taskId = ?"), arguments: [old]) == true
            try perform(SyncArrival.afterTakingWork(of: old, subtasksLeft: left), titles: &titles)
        case let .deleteTask(id):
            try execute("DELETE FROM task WHERE id = ?", [id])
            names.forget()
        case let .unnameTask(id):
            try execute("UPDATE task SET syncUid = NULL WHERE id = ?", [id])
            names.forget()
        case let .keepGoneTask(title): try keepGone(title: title, task: nil, titles: &titles)
        case let .keepGoneSubtask(title, task): try keepGone(title: title, task: task, titles: &titles)
        }
    }

    private func row(_ ref: SyncRowRef) throws -> Int64 {
        let id: Int64?
        switch ref {
        case let .here(here): id = here
        case .written: id = written
        case .standIn: id = standIn
        }
        guard let id else { throw FocusError.storeRule("a sync step named a row no step made (\(item.uid))") }
        return id
    }

    private mutating func write(_ t: SyncedTask, over: Int64?, titles: inout FreeTitles) throws {
        let title = try titles.free(t.title, table: "task", parent: nil, except: over, db)
        if let over {
            try execute("UPDATE task SET title = ?, titleKey = ?, notes = ?, archived = ? WHERE id = ?",
                        [title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, over])
        } else {
            try execute("INSERT INTO pathId DEFAULT VALUES")
            try execute("INSERT INTO task (id, title, titleKey, notes, archived, createdAt, syncUid) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [db.lastInsertedRowID, title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, now.unixSeconds, t.uid])
        }
        try wrote(over ?? db.lastInsertedRowID, inserted: over == nil, table: "task")
    }

    private mutating func write(_ s: SyncedSubtask, task: Int64, series: Int64?, over: Int64?, titles: inout FreeTitles) throws {
        let title = try titles.free(s.title, table: "subtask", parent: task, except: over, db)
        let values: [(String, (any DatabaseValueConvertible)?)] = [
            ("taskId", task), ("title", title), ("titleKey", TaskCatalog.key(title)), ("notes", s.notes),
            ("estimateSeconds", s.estimateSeconds), ("startDate", s.startDate), ("due", s.due?.unixSeconds), ("spanSeconds", s.spanSeconds),
            ("earliestMinutes", s.earliestMinutes), ("done", s.done ? 1 : 0), ("priority", s.priority), ("maxPerDaySeconds", s.maxPerDaySeconds),
            ("every", s.every), ("onDay", s.onDay), ("seriesId", series), ("periodStart", s.periodStart),
        ]
        try write(values, table: "subtask", over: over, newID: true)
        try wrote(over ?? db.lastInsertedRowID, inserted: over == nil, table: "subtask")
    }

    private mutating func write(_ s: SyncedSession, task: Int64, subtask: Int64?, over: Int64?) throws {
        let values: [(String, (any DatabaseValueConvertible)?)] = [
            ("taskId", task), ("subtaskId", subtask), ("startedAt", s.start.unixSeconds), ("endedAt", s.end.unixSeconds),
            ("plannedSeconds", s.plannedSeconds), ("focusedSeconds", s.focusedSeconds), ("status", s.status), ("note", s.note),
        ]
        try write(values, table: "timeLog", over: over, newID: false, orIgnore: true)
        if over == nil, db.changesCount == 0 { return }  // the identity is taken after all: nothing was written
        let id = over ?? db.lastInsertedRowID
        // Tags first: filing a session under a tag stamps it with the time of the change.
        try AppDatabase.setTags(s.tags, session: id, db)
        try wrote(id, inserted: over == nil, table: "timeLog")
    }

    /// Updates row `over` of `table` with `values`, or inserts a row named as the item (with an
    /// id of the shared task and subtask path space when `newID`); a write that breaks a
    /// unique key is left out when `orIgnore` (a session's start, task and subtask).
    private func write(_ values: [(String, (any DatabaseValueConvertible)?)], table: String, over: Int64?, newID: Bool,
                       orIgnore: Bool = false) throws {
        let or = orIgnore ? " OR IGNORE" : ""
        if let over {
            try execute("UPDATE\(or) \(table) SET " + values.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                        StatementArguments(values.map(\.1) + [over]))
            return
        }
        var columns = values.map(\.0) + ["createdAt", "syncUid"], arguments = values.map(\.1) + [now.unixSeconds, item.uid]
        if newID {
            try execute("INSERT INTO pathId DEFAULT VALUES")
            (columns, arguments) = (["id"] + columns, [db.lastInsertedRowID] + arguments)
        }
        try execute("INSERT\(or) INTO \(table) (" + columns.joined(separator: ", ") + ") VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")", StatementArguments(arguments))
    }

    /// The item's row is written: its edit time is the item's, and a task or subtask gone
    /// elsewhere or deleted here is back (made again, or adopted by title): it travels again.
    private mutating func wrote(_ id: Int64, inserted: Bool, table: String) throws {
        written = id
        outcome = inserted ? .inserted : .updated
        names.named(item.uid, item.kind, id: id)
        guard item.kind != .session else {
            return try execute("UPDATE timeLog SET modifiedAt = ? WHERE id = ?", [item.modified, id])
        }
        try execute("UPDATE \(table) SET modifiedAt = ?, deletedElsewhere = 0 WHERE id = ?", [item.modified, id])
        try execute("DELETE FROM syncDeleted WHERE uid = ?", [item.uid])
        // A task back is back with its stand-in (its to-do itself).
        if item.kind == .task {
            try execute("UPDATE subtask SET deletedElsewhere = 0 WHERE syncUid = ? AND deletedElsewhere = 1", [SyncIdentity.standInUID(taskUID: item.uid)])
        }
    }

    /// A task's stand-in subtask, of the task's title (a free one under it).
    private func makeStandIn(_ uid: String, task: Int64) throws -> Int64 {
        let title = try String.fetchOne(db.cachedStatement(sql: "SELECT title FROM task WHERE id = ?"), arguments: [task]) ?? ""
        var titles = FreeTitles()
        let free = try titles.free(title, table: "subtask", parent: task, except: nil, db)
        try execute("INSERT INTO pathId DEFAULT VALUES")
        let id = db.lastInsertedRowID
        // Under a task kept after another app deleted its to-do, closed and "deleted elsewhere"
        // with it, as the machines that had it hold it.
        try execute("""
            INSERT INTO subtask (id, taskId, title, titleKey, createdAt, syncUid, done, deletedElsewhere)
              SELECT ?, ?, ?, ?, ?, ?, deletedElsewhere, deletedElsewhere FROM task WHERE id = ?
            """, [id, task, free, TaskCatalog.key(free), now.unixSeconds, uid, task])
        names.named(uid, .subtask, id: id)
        return id
    }

    /// A task (`task` nil) or subtask of `task` made archived (done) and "deleted elsewhere",
    /// for the sessions that arrive in it (`LocalSyncChange.keepGone`).
    private mutating func keepGone(title: String, task: Int64?, titles: inout FreeTitles) throws {
        let free = try titles.free(title, table: task == nil ? "task" : "subtask", parent: task, except: nil, db)
        try execute("INSERT INTO pathId DEFAULT VALUES")
        let id = db.lastInsertedRowID
        if let task {
            try execute("INSERT INTO subtask (id, taskId, title, titleKey, done, deletedElsewhere, createdAt, syncUid) VALUES (?, ?, ?, ?, 1, 1, ?, ?)",
                        [id, task, free, TaskCatalog.key(free), now.unixSeconds, item.uid])
        } else {
            try execute("INSERT INTO task (id, title, titleKey, archived, deletedElsewhere, createdAt, syncUid) VALUES (?, ?, ?, 1, 1, ?, ?)",
                        [id, free, TaskCatalog.key(free), now.unixSeconds, item.uid])
        }
        names.named(item.uid, item.kind, id: id)
        outcome = .inserted
    }

    private func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
