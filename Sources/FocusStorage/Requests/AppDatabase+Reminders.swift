import FocusCore
import FoundationEssentials
import FocusSQLite

/// What `focus daemon` reads at each look: one consistent snapshot.
package struct ReminderState: Sendable, Equatable {
    /// Planned blocks overlapping the window, by start.
    package var blocks: [ReminderBlock]
    /// Reminders already sent for those blocks.
    package var sent: Set<SentReminder>
    /// The block of the running session, if it has one.
    package var runningBlockID: Int64?
}

extension AppDatabase {
    /// Planned blocks overlapping [from, to), the reminders sent for them and the running
    /// session's block, in one read.
    package func reminderState(from: Date, to: Date) throws(FocusError) -> ReminderState {
        try read { db in
            var blocks: [ReminderBlock] = []
            for row in try Row.fetchAll(db, sql: AppDatabase.blockSelectSQL + """
                 WHERE scheduledBlock.status = 'planned' AND scheduledBlock.startedAt >= ? AND scheduledBlock.startedAt < ?
                   AND scheduledBlock.endedAt > ?
                 ORDER BY scheduledBlock.startedAt, scheduledBlock.endedAt, scheduledBlock.id
                """, arguments: [from.unixSeconds - 2 * 86_400, to.unixSeconds, from.unixSeconds]) {
                let view = AppDatabase.blockView(row)
                guard let id = view.id else { continue }
                blocks.append(ReminderBlock(id: id, path: view.path, start: view.start, end: view.end))
            }
            var sent = Set<SentReminder>()
            if let first = blocks.first?.id {
                let ids = blocks.map(\.id)
                let low = ids.min() ?? first, high = ids.max() ?? first
                for row in try Row.fetchAll(db, sql: "SELECT blockId, kind FROM sentReminder WHERE blockId BETWEEN ? AND ?",
                                            arguments: [low, high]) {
                    if let kind = ReminderKind(rawValue: row.text("kind")) { sent.insert(SentReminder(blockID: row.id("blockId"), kind: kind)) }
                }
            }
            let running = try Row.fetchOne(db, sql: "SELECT blockId FROM activeSession WHERE id = 1")?.optionalID(0)
            return ReminderState(blocks: blocks, sent: sent, runningBlockID: running)
        }
    }

    /// Remembers reminders as sent, all in one transaction; one already remembered stays as it was.
    package func recordSent(_ reminders: [SentReminder], at now: Date) throws(FocusError) {
        guard !reminders.isEmpty else { return }
        try write { db in
            for r in reminders {
                try db.execute(sql: "INSERT OR IGNORE INTO sentReminder (blockId, kind, sentAt) VALUES (?, ?, ?)",
                               arguments: [r.blockID, r.kind.rawValue, now.unixSeconds])
            }
        }
    }

    /// The last local day an end-of-day summary was sent for.
    package func lastSummaryDay() throws(FocusError) -> LocalDate? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT max(day) FROM sentSummary")?.optionalNumber(0, .dayNumber).map { LocalDate(dayNumber: Int($0)) }
        }
    }

    /// Remembers the summary of `day` as sent; false when it already was (send nothing then).
    package func recordSummary(day: LocalDate, at now: Date) throws(FocusError) -> Bool {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO sentSummary (day, sentAt) VALUES (?, ?)", arguments: [day.dayNumber, now.unixSeconds])
            return db.changesCount > 0
        }
    }

    /// The focused seconds inside [from, to) (as the stats count them) and the sessions starting
    /// in it, completed and interrupted.
    package func dayTotals(from: Date, to: Date) throws(FocusError) -> (focusedSeconds: Int, completed: Int, interrupted: Int) {
        try read { db in
            // total(), not sum(): a sum of hand-edited values overflows in SQLite (an error), a total cannot.
            // Sessions count on the day they start; their focus is shared out by wall time, as
            // the stats count it.
            let row = try Row.fetchOne(db, sql: """
                SELECT total(status = 'completed'), total(status = 'interrupted')
                FROM timeLog WHERE startedAt >= ? AND startedAt < ?
                """, arguments: [from.unixSeconds, to.unixSeconds])
            let focused = StatsMath.seconds(try AppDatabase.focusInside(db, from: from, to: to))
            return (focused, row?.count(0) ?? 0, row?.count(1) ?? 0)
        }
    }
}
