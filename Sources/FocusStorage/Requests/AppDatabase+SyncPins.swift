import FocusCore
import FocusSQLite
import FoundationEssentials

extension AppDatabase {
    /// The blocks pinned here (moved by the person in a calendar app) whose work has a sync
    /// name: they travel with the settings (README, "Two machines").
    package func travellingPins() throws(FocusError) -> [SyncSettings.Pin] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.syncUid, b.startedAt, b.endedAt, b.pinnedUid FROM scheduledBlock b JOIN subtask s ON s.id = b.subtaskId
                WHERE b.pinnedUid IS NOT NULL AND b.status = 'planned' AND s.syncUid IS NOT NULL
                """).map { row in
                SyncSettings.Pin(subtaskUID: row.text("syncUid"), start: row.date("startedAt"), end: row.date("endedAt"),
                                 eventUID: row.text("pinnedUid"))
            }
        }
    }

    /// Pins and unpins what the other machines did: a pin arriving holds a planned block of its
    /// work at its time (the block pinned there before moves, or one is made); an unpin hands the
    /// block back to the planner. The plan is then stale. Returns the paths pinned, with their
    /// start, and those unpinned, for what the sync says.
    package func applyPins(_ pins: [SyncSettings.Pin], unpin: [String]) throws(FocusError) -> (pinned: [(path: String, start: Date)], unpinned: [String]) {
        try write { db in
            var pinned: [(path: String, start: Date)] = [], unpinned: [String] = []
            func path(_ subtaskID: Int64) throws -> String {
                let row = try Row.fetchOne(db, sql: "SELECT t.title AS task, s.title AS subtask FROM subtask s JOIN task t ON t.id = s.taskId WHERE s.id = ?",
                                           arguments: [subtaskID])
                return row.map { $0.text("task") + "/" + $0.text("subtask") } ?? "#\(subtaskID)"
            }
            for pin in pins {
                guard let subtaskID = try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE syncUid = ? AND done = 0", arguments: [pin.subtaskUID])
                else { continue }
                try db.execute(sql: "UPDATE scheduledBlock SET startedAt = ?, endedAt = ?, subtaskId = ? WHERE pinnedUid = ? AND status = 'planned'",
                               arguments: [pin.start.unixSeconds, pin.end.unixSeconds, subtaskID, pin.eventUID])
                if db.changesCount == 0 {
                    try db.execute(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status, pinnedUid) VALUES (?, ?, ?, 'planned', ?)",
                                   arguments: [subtaskID, pin.start.unixSeconds, pin.end.unixSeconds, pin.eventUID])
                }
                pinned.append((try path(subtaskID), pin.start))
            }
            for uid in unpin {
                for id in try Int64.fetchAll(db, sql: "SELECT subtaskId FROM scheduledBlock WHERE pinnedUid = ? AND status = 'planned'", arguments: [uid]) {
                    unpinned.append(try path(id))
                }
                try db.execute(sql: "UPDATE scheduledBlock SET pinnedUid = NULL WHERE pinnedUid = ? AND status = 'planned'", arguments: [uid])
            }
            if !pinned.isEmpty || !unpinned.isEmpty { try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1") }
            return (pinned, unpinned)
        }
    }
}
