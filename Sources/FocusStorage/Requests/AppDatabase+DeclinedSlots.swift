import FocusCore
import FocusSQLite
import FoundationEssentials

extension AppDatabase {
    /// A future block whose event was deleted in the calendar app (README, "Publishing": "not in
    /// this slot"): the block goes, and its slot is busy time for planning until `until` (the
    /// end of its local day), so the work is planned elsewhere. False when the block is no
    /// longer planned here.
    package func declineSlot(blockID: Int64, until: Date) throws(FocusError) -> Bool {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT subtaskId, startedAt, endedAt FROM scheduledBlock WHERE id = ? AND status = 'planned'",
                                             arguments: [blockID]) else { return false }
            try db.execute(sql: "INSERT INTO declinedSlot (subtaskId, startedAt, endedAt, until) VALUES (?, ?, ?, ?)",
                           arguments: [row.id("subtaskId"), row.date("startedAt").unixSeconds, row.date("endedAt").unixSeconds, until.unixSeconds])
            try db.execute(sql: "DELETE FROM scheduledBlock WHERE id = ?", arguments: [blockID])
            try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1")
            return true
        }
    }

    /// The slots declined in the calendar that still hold (`declineSlot`), as busy time.
    static func declinedSlots(_ db: Database, now: Date) throws -> [DateInterval] {
        try Row.fetchAll(db, sql: "SELECT startedAt, endedAt FROM declinedSlot WHERE until > ?", arguments: [now.unixSeconds]).compactMap { row in
            let (start, end) = (row.date("startedAt"), row.date("endedAt"))
            return end > start ? DateInterval(start: start, end: end) : nil
        }
    }
}
