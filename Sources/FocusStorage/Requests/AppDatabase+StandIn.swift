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
}
