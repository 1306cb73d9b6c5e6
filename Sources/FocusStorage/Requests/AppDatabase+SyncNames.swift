import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    // MARK: Names shared by every machine

    /// Gives the rows that have none their shared name: a task or subtask a random one, a
    /// session one made from its task's and subtask's names and its start, so two machines
    /// that hold the same session name it alike. Returns how many were named.
    @discardableResult
    package func assignSyncUIDs(random: () -> UInt64) throws(FocusError) -> Int {
        try write { db in
            var named = 0
            for (table, kind) in [("task", SyncKind.task), ("subtask", .subtask)] {
                let unnamed = kind == .subtask ? " AND seriesId IS NULL" : ""
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE syncUid IS NULL\(unnamed)")
                let update = try db.cachedStatement(sql: "UPDATE \(table) SET syncUid = ? WHERE id = ?")
                for id in ids {
                    try update.execute(arguments: [SyncIdentity.newUID(kind, random: random), id])
                    named += 1
                }
            }
            named += try AppDatabase.nameInstances(db)
            let rows = try Row.fetchAll(db, sql: """
                SELECT l.id, t.syncUid AS taskUid, s.syncUid AS subtaskUid, l.startedAt
                FROM timeLog l JOIN task t ON t.id = l.taskId LEFT JOIN subtask s ON s.id = l.subtaskId
                WHERE l.syncUid IS NULL
                """)
            let update = try db.cachedStatement(sql: "UPDATE OR IGNORE timeLog SET syncUid = ? WHERE id = ?")
            for row in rows {
                let uid = SyncIdentity.sessionUID(taskUID: row.text("taskUid"), subtaskUID: row.optionalText("subtaskUid"),
                                                  start: row.date("startedAt"))
                try update.execute(arguments: [uid, row.id("id")])
                named += 1
            }
            return named
        }
    }

    /// Names the instances of recurring work from their series' names and periods
    /// (`SyncIdentity.instanceUID`): the instance two machines make for one period is one item.
    static func nameInstances(_ db: Database) throws -> Int {
        let rows = try Row.fetchAll(db, sql: """
            SELECT i.id, i.periodStart, s.syncUid AS seriesUid FROM subtask i JOIN subtask s ON s.id = i.seriesId
            WHERE i.syncUid IS NULL AND s.syncUid IS NOT NULL
            """)
        let update = try db.cachedStatement(sql: "UPDATE OR IGNORE subtask SET syncUid = ? WHERE id = ?")
        var named = 0
        for row in rows {
            guard let period = row.optionalText("periodStart").flatMap({ DateParser.parseDate($0[...]) }) else { continue }
            try update.execute(arguments: [SyncIdentity.instanceUID(seriesUID: row.text("seriesUid"), periodStart: period), row.id("id")])
            named += 1
        }
        return named
    }

    /// Gives a local row the name of a remote item it stands for, when the row was never synced
    /// (no agreed version): a task of the same title, a subtask of the same title in the task
    /// the item names, a session of the same task, subtask and start. Items must come in the
    /// order tasks, subtasks, sessions.
    package func adoptSyncUIDs(_ items: [SyncItem]) throws(FocusError) {
        guard !items.isEmpty else { return }
        try write { db in
            let unsynced = "(syncUid IS NULL OR syncUid NOT IN (SELECT uid FROM syncItem))"
            for item in items {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM \(AppDatabase.table(item.kind)) WHERE syncUid = ?", arguments: [item.uid]) == true { continue }
                switch item {
                case let .task(t):
                    try db.execute(sql: "UPDATE task SET syncUid = ? WHERE titleKey = ? AND \(unsynced)",
                                   arguments: [t.uid, TaskCatalog.key(t.title)])
                case let .subtask(s):
                    try db.execute(sql: """
                        UPDATE subtask SET syncUid = ? WHERE titleKey = ? AND \(unsynced)
                          AND taskId = (SELECT id FROM task WHERE syncUid = ?)
                        """, arguments: [s.uid, TaskCatalog.key(s.title), s.taskUID])
                case let .session(s):
                    try db.execute(sql: """
                        UPDATE timeLog SET syncUid = ? WHERE startedAt = ? AND \(unsynced)
                          AND taskId = (SELECT id FROM task WHERE syncUid = ?)
                          AND ifnull(subtaskId, 0) = ifnull((SELECT id FROM subtask WHERE syncUid = ?), 0)
                        """, arguments: [s.uid, s.start.unixSeconds, s.taskUID, s.subtaskUID])
                }
            }
        }
    }

    static func table(_ kind: SyncKind) -> String {
        switch kind {
        case .task: "task"
        case .subtask: "subtask"
        case .session: "timeLog"
        }
    }
}
