import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    static let blockSelectSQL = """
        SELECT scheduledBlock.*, subtask.title AS subtaskTitle, task.title AS taskTitle, subtask.syncUid AS subtaskSyncUid
        FROM scheduledBlock JOIN subtask ON subtask.id = scheduledBlock.subtaskId JOIN task ON task.id = subtask.taskId
        """

    static func blockView(_ row: Row) -> BlockView {
        let b = ScheduledBlock(row: row)
        return BlockView(id: b.id, subtaskID: b.subtaskID, task: row.text("taskTitle"), subtask: row.text("subtaskTitle"),
                         start: b.startedAt, end: b.endedAt, status: b.status, pinnedUID: b.pinnedUID,
                         subtaskSyncUID: row.optionalText("subtaskSyncUid"))
    }

    /// Blocks overlapping [from, to), by start. Blocks last less than two days, so this reads an
    /// index range on the start.
    package func blocks(overlapping from: Date, _ to: Date) throws(FocusError) -> [BlockView] {
        try read { db in
            try Row.fetchAll(db, sql: AppDatabase.blockSelectSQL + """
                 WHERE scheduledBlock.startedAt >= ? AND scheduledBlock.startedAt < ? AND scheduledBlock.endedAt > ?
                 ORDER BY scheduledBlock.startedAt, scheduledBlock.endedAt, scheduledBlock.id
                """, arguments: [from.unixSeconds - 2 * 86_400, to.unixSeconds, from.unixSeconds]).map(AppDatabase.blockView)
        }
    }

    /// Blocks starting at or after `from`, by start.
    package func blocks(startingFrom from: Date) throws(FocusError) -> [BlockView] {
        try read { db in
            try Row.fetchAll(db, sql: AppDatabase.blockSelectSQL + """
                 WHERE scheduledBlock.startedAt >= ? ORDER BY scheduledBlock.startedAt, scheduledBlock.endedAt, scheduledBlock.id
                """, arguments: [from.unixSeconds]).map(AppDatabase.blockView)
        }
    }

    /// What the last saved plan found at risk, in due order.
    package func savedRisks() throws(FocusError) -> [RiskView] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT planRisk.*, subtask.due, subtask.title AS subtaskTitle, task.title AS taskTitle
                FROM planRisk JOIN subtask ON subtask.id = planRisk.subtaskId JOIN task ON task.id = subtask.taskId
                WHERE subtask.due IS NOT NULL ORDER BY subtask.due, subtask.id
                """).map { row in
                let competitors = row.text("competitors")
                return RiskView(subtaskID: row.id("subtaskId"), task: row.text("taskTitle"), subtask: row.text("subtaskTitle"),
                                due: row.date("due"), neededSeconds: row.seconds("neededSeconds"), freeSeconds: row.seconds("freeSeconds"),
                                competitors: competitors.isEmpty ? [] : competitors.split(separator: "\n").map(String.init))
            }
        }
    }

    /// Open subtasks whose due date has passed with estimated work left (as the last re-plan
    /// counts it, less the focus logged since), earliest due first. A missed instance of
    /// recurring work is not overdue: the next period's is there to plan (README, "Planning").
    package func overdueWork(now: Date) throws(FocusError) -> [OverdueView] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT subtask.id, subtask.title, subtask.due, subtask.estimateSeconds - subtask.loggedSeconds AS remaining,
                       task.title AS taskTitle
                FROM subtask JOIN task ON task.id = subtask.taskId
                WHERE subtask.done = 0 AND task.archived = 0 AND subtask.due <= ? AND subtask.estimateSeconds > subtask.loggedSeconds
                  AND subtask.seriesId IS NULL
                ORDER BY subtask.due, subtask.id
                """, arguments: [now.unixSeconds]).map { row in
                OverdueView(subtaskID: row.id("id"), task: row.text("taskTitle"), subtask: row.text("title"),
                            due: row.date("due"), remainingSeconds: row.seconds("remaining"))
            }
        }
    }

    /// Subtasks due in (from, to]: a due instant at midnight belongs to the day it ends.
    package func subtasksDue(after from: Date, through to: Date) throws(FocusError) -> [DueView] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT subtask.*, task.title AS taskTitle FROM subtask JOIN task ON task.id = subtask.taskId
                WHERE subtask.due > ? AND subtask.due <= ? ORDER BY subtask.due, task.titleKey, subtask.titleKey
                """, arguments: [from.unixSeconds, to.unixSeconds]).map { row in
                DueView(subtaskID: row.id("id"), task: row.text("taskTitle"), subtask: row.text("title"), due: row.date("due"),
                        estimateSeconds: row.optionalNumber("estimateSeconds", .positiveSeconds).map { Int($0) }, loggedSeconds: row.seconds("loggedSeconds"), done: row.bool("done"))
            }
        }
    }
}
