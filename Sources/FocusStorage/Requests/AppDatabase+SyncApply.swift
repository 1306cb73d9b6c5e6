import FocusCore
import FoundationEssentials
import FocusSQLite

/// What applying a sync's local changes did.
package struct AppliedSync: Sendable {
    package var inserted = 0
    package var updated = 0
    package var deleted = 0
    /// Tasks and subtasks archived here, deleted in another app (`LocalSyncChange.archive`).
    package var archived = 0
    /// Tasks and subtasks made here, archived, for sessions that arrived in them
    /// (`LocalSyncChange.keepGone`): their names and labels.
    package var keptGone: [(uid: String, label: String)] = []
    /// Items that could not be applied (a session whose task is nowhere), with the reason.
    package var skipped: [String] = []
    /// Their UIDs: no version is agreed for them, so the next sync tries again (and never
    /// reads their absence here as a deletion).
    package var skippedUIDs: Set<String> = []
    /// The same, as `focus sync status` lists them.
    package var unapplied: [(label: String, conflict: SyncConflict)] = []
    /// A deletion here waits (for the session running now to end): the sync token stays
    /// where it was, so the next sync reads the deletion again. An item that cannot apply
    /// never holds the token (README).
    package var waits = false
    /// The local tables' fingerprint once applied, when nothing else changed them since they
    /// were read for the merge; nil otherwise.
    package var fingerprint: String?
}

extension AppDatabase {
    /// Applies a sync's local changes and the versions now agreed, in one transaction: inserts
    /// and updates parents first, deletions children first. Each changed row's `modifiedAt`
    /// is the merged item's, not the time of the sync.
    /// `readAs`: the fingerprint the merge's items were read with.
    /// `renaming`: rows that take another machine's name for the same work (`SyncPlan.unify`),
    /// renamed first.
    package func applySync(_ changes: [LocalSyncChange], states: [SyncState], forgetting gone: [String],
                           renaming: [(kind: SyncKind, from: String, to: String)] = [], now: Date,
                           readAs: String? = nil) throws(FocusError) -> AppliedSync {
        try write { db in
            var applied = AppliedSync()
            // Another program's edit since the merge read the tables: its result is not agreed yet.
            let untouched = try readAs != nil && AppDatabase.localFingerprint(db) == readAs
            for rename in renaming {
                try db.executeCached(sql: "UPDATE \(AppDatabase.table(rename.kind)) SET syncUid = ? WHERE syncUid = ?", arguments: [rename.to, rename.from])
            }
            var titles = FreeTitles()
            for change in LocalSyncChange.inApplyOrder(changes) {
                switch change {
                case let .upsert(item):
                    switch try AppDatabase.upsert(item, now: now, titles: &titles, db) {
                    case .inserted: applied.inserted += 1
                    case .updated: applied.updated += 1
                    case let .skipped(reason):
                        applied.skipped.append(reason)
                        applied.skippedUIDs.insert(item.uid)
                        applied.unapplied.append((reason, SyncConflict(uid: item.uid, field: "not applied", local: "", remote: reason, chosen: .local)))
                    }
                case let .completeInstance(seriesUID):
                    // The earliest open instance is the current one (`RecurringWork`).
                    try db.executeCached(sql: """
                        UPDATE subtask SET done = 1 WHERE id = (SELECT i.id FROM subtask i JOIN subtask s ON s.id = i.seriesId
                          WHERE s.syncUid = ? AND i.done = 0 ORDER BY i.periodStart LIMIT 1)
                        """, arguments: [seriesUID])
                case let .archive(uid, kind):
                    let closed = kind == .task ? "archived = 1" : "done = 1"
                    try db.executeCached(sql: "UPDATE \(AppDatabase.table(kind)) SET \(closed), deletedElsewhere = 1 WHERE syncUid = ?", arguments: [uid])
                    applied.archived += db.changesCount
                case let .delete(uid, kind):
                    let table = AppDatabase.table(kind)
                    // A session that is running now keeps its task and subtask until it ends.
                    if kind != .session, try Bool.fetchOneCached(db, sql: """
                        SELECT 1 FROM activeSession a JOIN \(table) x ON x.syncUid = ? AND (a.\(kind == .task ? "taskId" : "subtaskId") = x.id)
                        """, arguments: [uid]) == true {
                        applied.skipped.append("a deletion waits for the session running now to end")
                        applied.skippedUIDs.insert(uid)
                        applied.waits = true
                        continue
                    }
                    try db.executeCached(sql: "DELETE FROM \(table) WHERE syncUid = ?", arguments: [uid])
                    applied.deleted += db.changesCount
                case let .keepGone(item, label):
                    if try AppDatabase.keepGone(item, now: now, titles: &titles, db) { applied.keptGone.append((item.uid, label)) }
                }
            }
            try AppDatabase.record(states.filter { !applied.skippedUIDs.contains($0.uid) }, forgetting: gone.filter { !applied.skippedUIDs.contains($0) }, db)
            try AppDatabase.purgeEmptyDeletedElsewhere(db)
            if untouched { applied.fingerprint = try AppDatabase.localFingerprint(db) }
            return applied
        }
    }

    private enum Upserted { case inserted, updated, skipped(String) }

    /// Makes the task or subtask `item` (`LocalSyncChange.keepGone`) archived and "deleted
    /// elsewhere" unless a row of its name is here; returns whether it made it.
    private static func keepGone(_ item: SyncItem, now: Date, titles: inout FreeTitles, _ db: Database) throws -> Bool {
        guard try Bool.fetchOneCached(db, sql: "SELECT 1 FROM \(table(item.kind)) WHERE syncUid = ?", arguments: [item.uid]) != true else { return false }
        switch item {
        case let .task(t):
            let title = try titles.free(t.title, table: "task", parent: nil, except: nil, db)
            try db.executeCached(sql: "INSERT INTO pathId DEFAULT VALUES")
            try db.executeCached(sql: """
                INSERT INTO task (id, title, titleKey, archived, deletedElsewhere, createdAt, syncUid) VALUES (?, ?, ?, 1, 1, ?, ?)
                """, arguments: [db.lastInsertedRowID, title, TaskCatalog.key(title), now.unixSeconds, t.uid])
        case let .subtask(s):
            guard let taskID = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [s.taskUID]) else { return false }
            let title = try titles.free(s.title, table: "subtask", parent: taskID, except: nil, db)
            try db.executeCached(sql: "INSERT INTO pathId DEFAULT VALUES")
            try db.executeCached(sql: """
                INSERT INTO subtask (id, taskId, title, titleKey, done, deletedElsewhere, createdAt, syncUid) VALUES (?, ?, ?, ?, 1, 1, ?, ?)
                """, arguments: [db.lastInsertedRowID, taskID, title, TaskCatalog.key(title), now.unixSeconds, s.uid])
        case .session:
            return false
        }
        return true
    }

    /// A task or subtask kept for its sessions after another app deleted it goes once none of
    /// its sessions is left (deleted there too, or here): there is nothing left to keep, and a
    /// machine that read both deletions at once never kept it (README, "Two machines").
    static func purgeEmptyDeletedElsewhere(_ db: Database) throws {
        try db.executeCached(sql: """
            DELETE FROM subtask WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.subtaskId = subtask.id)
            """)
        try db.executeCached(sql: """
            DELETE FROM task WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.taskId = task.id)
              AND NOT EXISTS (SELECT 1 FROM subtask WHERE subtask.taskId = task.id)
            """)
    }

    /// The columns of recurring work an arriving subtask sets (README, "Planning"): a series'
    /// rule; an instance's series (when this machine has it) and period.
    private static func recurringValues(_ s: SyncedSubtask, _ db: Database) throws -> [(String, (any DatabaseValueConvertible)?)] {
        let rule = s.every.flatMap(Recurrence.Every.init(rawValue:)).map { Recurrence(every: $0, stored: s.onDay) }
        let seriesID = try s.seriesUID.flatMap { try Int64.fetchOneCached(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [$0]) }
        return [("every", rule?.every.rawValue), ("onDay", rule?.on), ("seriesId", seriesID),
                ("periodStart", seriesID == nil ? nil : s.periodStart)]
    }

    /// The instance this machine made for the period of an arriving one, under another name
    /// (a series named again since): it takes the arriving name, one instance per period.
    private static func adoptedInstance(_ s: SyncedSubtask, _ db: Database) throws -> Int64? {
        guard let series = s.seriesUID, let period = s.periodStart else { return nil }
        guard let id = try Int64.fetchOneCached(db, sql: """
            SELECT i.id FROM subtask i JOIN subtask s ON s.id = i.seriesId WHERE s.syncUid = ? AND i.periodStart = ?
            """, arguments: [series, period]) else { return nil }
        try db.executeCached(sql: "UPDATE subtask SET syncUid = ? WHERE id = ?", arguments: [s.uid, id])
        return id
    }

    private static func upsert(_ item: SyncItem, now: Date, titles: inout FreeTitles, _ db: Database) throws -> Upserted {
        let table = table(item.kind)
        let existing = try Int64.fetchOneCached(db, sql: "SELECT id FROM \(table) WHERE syncUid = ?", arguments: [item.uid])
        let result: Upserted
        switch item {
        case let .task(t):
            let title = try titles.free(Titles.normalized(t.title), table: "task", parent: nil, except: existing, db)
            if let existing {
                try db.executeCached(sql: "UPDATE task SET title = ?, titleKey = ?, notes = ?, archived = ? WHERE id = ?",
                               arguments: [title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, existing])
                result = .updated
            } else {
                try db.executeCached(sql: "INSERT INTO pathId DEFAULT VALUES")
                try db.executeCached(sql: "INSERT INTO task (id, title, titleKey, notes, archived, createdAt, syncUid) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [db.lastInsertedRowID, title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, now.unixSeconds, t.uid])
                result = .inserted
            }
            try standIn(for: t, title: title, now: now, db)
        case let .subtask(arrived):
            let s = arrived.stored
            guard let taskID = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [s.taskUID]) else {
                return .skipped("'\(s.title)' belongs to a task this machine does not have")
            }
            if let series = s.seriesUID, try Int64.fetchOneCached(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [series]) == nil {
                return .skipped("'\(s.title)' is an instance of recurring work this machine does not have")
            }
            let existing = try existing ?? adoptedInstance(s, db)
            let title = try titles.free(Titles.normalized(s.title), table: "subtask", parent: taskID, except: existing, db)
            let values: [(String, (any DatabaseValueConvertible)?)] = [
                ("taskId", taskID), ("title", title), ("titleKey", TaskCatalog.key(title)), ("notes", s.notes),
                ("estimateSeconds", s.estimateSeconds), ("startDate", s.startDate), ("due", s.due?.unixSeconds), ("spanSeconds", s.spanSeconds),
                ("earliestMinutes", s.earliestMinutes), ("done", s.done ? 1 : 0), ("priority", s.priority), ("maxPerDaySeconds", s.maxPerDaySeconds),
            ] + (try recurringValues(s, db))
            if let existing {
                try db.executeCached(sql: "UPDATE subtask SET " + values.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                               arguments: StatementArguments(values.map(\.1) + [existing]))
                result = .updated
            } else {
                try db.executeCached(sql: "INSERT INTO pathId DEFAULT VALUES")
                let id = db.lastInsertedRowID
                try db.executeCached(sql: "INSERT INTO subtask (id, " + values.map(\.0).joined(separator: ", ") + ", createdAt, syncUid) VALUES (?"
                                   + String(repeating: ", ?", count: values.count + 2) + ")",
                               arguments: StatementArguments([id] + values.map(\.1) + [now.unixSeconds, s.uid]))
                result = .inserted
            }
        case let .session(arrived):
            let s = arrived.stored
            guard let taskID = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [s.taskUID]) else {
                return .skipped("a session of '\(s.label)' belongs to a task this machine does not have")
            }
            var subtaskID: Int64?
            if let sub = s.subtaskUID {
                // Work on a task's stand-in whose due date is gone since: the stand-in again.
                if sub == SyncIdentity.standInUID(taskUID: s.taskUID),
                   try Bool.fetchOneCached(db, sql: "SELECT 1 FROM subtask WHERE syncUid = ?", arguments: [sub]) != true,
                   let title = try String.fetchOneCached(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [taskID]) {
                    try insertStandIn(taskID: taskID, uid: sub, title: title, now: now, db)
                }
                guard let id = try Int64.fetchOneCached(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [sub]) else {
                    return .skipped("a session of '\(s.label)' belongs to a subtask this machine does not have")
                }
                subtaskID = id
            }
            let start = s.start.unixSeconds
            let values: [(String, (any DatabaseValueConvertible)?)] = [
                ("taskId", taskID), ("subtaskId", subtaskID), ("startedAt", start), ("endedAt", s.end.unixSeconds),
                ("plannedSeconds", s.plannedSeconds), ("focusedSeconds", s.focusedSeconds), ("status", s.status), ("note", s.note),
            ]
            if let existing {
                try db.executeCached(sql: "UPDATE OR IGNORE timeLog SET " + values.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                               arguments: StatementArguments(values.map(\.1) + [existing]))
                result = .updated
            } else {
                // The same session may be here already under no shared name (both machines
                // imported one file): it becomes this one.
                try db.executeCached(sql: "INSERT OR IGNORE INTO timeLog (" + values.map(\.0).joined(separator: ", ") + ", createdAt, syncUid) VALUES (?"
                                   + String(repeating: ", ?", count: values.count + 1) + ")",
                               arguments: StatementArguments(values.map(\.1) + [now.unixSeconds, s.uid]))
                if db.changesCount == 0 {
                    try db.executeCached(sql: """
                        UPDATE OR IGNORE timeLog SET syncUid = ? WHERE taskId = ? AND ifnull(subtaskId, 0) = ifnull(?, 0) AND startedAt = ?
                        """, arguments: [s.uid, taskID, subtaskID, start])
                    try applyTags(s, db)
                    return .updated
                }
                result = .inserted
            }
            try applyTags(s, db)
        }
        try db.executeCached(sql: "UPDATE \(table) SET modifiedAt = ? WHERE syncUid = ?", arguments: [item.modified, item.uid])
        if item.kind != .session {
            // Back there (made again, or adopted by title): it travels again.
            try db.executeCached(sql: "UPDATE \(table) SET deletedElsewhere = 0 WHERE syncUid = ? AND deletedElsewhere = 1", arguments: [item.uid])
            try db.executeCached(sql: "DELETE FROM syncDeleted WHERE uid = ?", arguments: [item.uid])
        }
        if case .inserted = result { try moveIfKindChanged(item, db) }
        return result
    }

    /// Files the session named `s.uid` under `s.tags` (README, "Tags": tags travel with sync).
    private static func applyTags(_ s: SyncedSession, _ db: Database) throws {
        guard let id = try Int64.fetchOneCached(db, sql: "SELECT id FROM timeLog WHERE syncUid = ?", arguments: [s.uid]) else { return }
        try setTags(s.tags, session: id, db)
    }

    /// A task with a due date or estimate (another app's to-do without a parent, README "Two
    /// machines") has a stand-in subtask of its title that carries them, so it is planned; the
    /// stand-in is done when the to-do is. One whose due date and estimate went keeps its work,
    /// without them.
    private static func standIn(for t: SyncedTask, title: String, now: Date, _ db: Database) throws {
        guard let taskID = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [t.uid]) else { return }
        let uid = SyncIdentity.standInUID(taskUID: t.uid)
        let exists = try Bool.fetchOneCached(db, sql: "SELECT 1 FROM subtask WHERE syncUid = ?", arguments: [uid]) == true
        guard exists || t.due != nil || t.estimateSeconds != nil else { return }
        if !exists { try insertStandIn(taskID: taskID, uid: uid, title: title, now: now, db) }
        let p = t.stored.planning
        try db.executeCached(sql: """
            UPDATE subtask SET due = ?, estimateSeconds = ?, done = ?, startDate = ?, spanSeconds = ?, earliestMinutes = ?, priority = ?,
              maxPerDaySeconds = ? WHERE syncUid = ?
            """, arguments: [t.due?.unixSeconds, t.stored.estimateSeconds, t.archived ? 1 : 0, p.startDate, p.spanSeconds, p.earliestMinutes,
                             p.priority, p.maxPerDaySeconds, uid])
        // It takes the task's name, as `updateTask` gives it here (when no other subtask has it).
        try db.executeCached(sql: """
            UPDATE subtask SET title = ?, titleKey = ? WHERE syncUid = ? AND title <> ?
              AND NOT EXISTS (SELECT 1 FROM subtask o WHERE o.taskId = ? AND o.titleKey = ? AND o.syncUid IS NOT ?)
            """, arguments: [title, TaskCatalog.key(title), uid, title, taskID, TaskCatalog.key(title), uid])
        try db.executeCached(sql: "UPDATE subtask SET modifiedAt = ? WHERE syncUid = ?", arguments: [t.modified, uid])
    }

    private static func insertStandIn(taskID: Int64, uid: String, title: String, now: Date, _ db: Database) throws {
        var titles = FreeTitles()
        let free = try titles.free(title, table: "subtask", parent: taskID, except: nil, db)
        try db.executeCached(sql: "INSERT INTO pathId DEFAULT VALUES")
        try db.executeCached(sql: "INSERT INTO subtask (id, taskId, title, titleKey, createdAt, syncUid) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [db.lastInsertedRowID, taskID, free, TaskCatalog.key(free), now.unixSeconds, uid])
    }

    /// An item whose kind changed (a to-do dragged under a task in another app, or out from
    /// under one) moves with its sessions (README): the row of the old kind that had its name
    /// gives its sessions (and a task its subtasks) to the new row, then goes. A task whose
    /// subtasks cannot all move (a title taken there) stays, without the name.
    private static func moveIfKindChanged(_ item: SyncItem, _ db: Database) throws {
        switch item {
        case .task:
            guard let old = try Int64.fetchOneCached(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [item.uid]),
                  let new = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [item.uid]) else { return }
            try db.executeCached(sql: "UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = NULL WHERE subtaskId = ?", arguments: [new, old])
            try db.executeCached(sql: "DELETE FROM subtask WHERE id = ?", arguments: [old])
        case .subtask:
            guard let old = try Int64.fetchOneCached(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [item.uid]),
                  let row = try Row.fetchOne(db, sql: "SELECT id, taskId FROM subtask WHERE syncUid = ?", arguments: [item.uid]) else { return }
            let (new, parent) = (row.id("id"), row.id("taskId"))
            // The task's stand-in was this work itself: its sessions are the subtask's now, and
            // it goes (unless a session of it cannot move).
            let standIn = SyncIdentity.standInUID(taskUID: item.uid)
            try db.executeCached(sql: "UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = ? WHERE subtaskId = (SELECT id FROM subtask WHERE syncUid = ?)",
                                 arguments: [parent, new, standIn])
            try db.executeCached(sql: """
                DELETE FROM subtask WHERE syncUid = ? AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.subtaskId = subtask.id)
                """, arguments: [standIn])
            try db.executeCached(sql: "UPDATE OR IGNORE subtask SET taskId = ? WHERE taskId = ? AND id <> ?", arguments: [parent, old, new])
            try db.executeCached(sql: "UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = ifnull(subtaskId, ?) WHERE taskId = ?", arguments: [parent, new, old])
            if try Bool.fetchOneCached(db, sql: "SELECT 1 FROM subtask WHERE taskId = ?", arguments: [old]) == true {
                try db.executeCached(sql: "UPDATE task SET syncUid = NULL WHERE id = ?", arguments: [old])
            } else {
                try db.executeCached(sql: "DELETE FROM task WHERE id = ?", arguments: [old])
            }
        case .session:
            return
        }
    }
}

// A sync applies thousands of items with a few dozen statements: each is prepared once per
// connection (the statement cache), not once per item.
private extension Database {
    func executeCached(sql: String, arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

private extension DatabaseValueConvertible {
    static func fetchOneCached(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
