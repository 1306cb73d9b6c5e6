import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// Whether the subtask `id` is its task's stand-in (`SyncIdentity.standInUID`, `StandInEdits`).
    package func isStandIn(subtaskID id: Int64) throws(FocusError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: """
                SELECT 1 FROM subtask s JOIN task t ON t.id = s.taskId
                WHERE s.id = ? AND s.syncUid = \(SyncIdentity.standInUID(sqlColumn: "t.syncUid"))
                """, arguments: [id]) == true
        }
    }

    /// A task's stand-in takes the task's name, unless another subtask of the task has it: one
    /// rule for a task renamed here and for one that arrives renamed.
    static func renameStandIn(ofTask task: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE subtask SET title = t.title, titleKey = t.titleKey
              FROM (SELECT title, titleKey, \(SyncIdentity.standInUID(sqlColumn: "syncUid")) AS standIn FROM task WHERE id = ?) t
              WHERE subtask.syncUid = t.standIn AND subtask.title <> t.title
              AND NOT EXISTS (SELECT 1 FROM subtask o WHERE o.taskId = ? AND o.titleKey = t.titleKey AND o.syncUid IS NOT t.standIn)
            """).execute(arguments: [task, task])
    }
}
