import FocusCore
import Foundation
import GRDB

// Rows are decoded by hand: faster than Codable and explicit about every column.
// Instants are stored as whole Unix seconds.

extension Date {
    init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
    var unixSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}

extension FocusTask {
    init(row: Row) {
        self.init(
            id: row["id"], title: row["title"], notes: row["notes"], archived: row["archived"],
            createdAt: Date(unixSeconds: row["createdAt"])
        )
    }
}

extension Subtask {
    /// The columns `init(row:)` reads, by position (GRDB's by-name lookup scans every column,
    /// which costs more than the rest of a 5,000-row listing).
    static let selection = """
        subtask.id, subtask.taskId, subtask.title, subtask.notes, subtask.estimateSeconds, subtask.startDate, subtask.due, \
        subtask.spanSeconds, subtask.earliestMinutes, subtask.done, subtask.atRisk, subtask.createdAt, subtask.loggedSeconds, \
        subtask.lastWorkedAt
        """

    init(row: Row) {
        let due: Int64? = row[6]
        let earliest: Int? = row[8]
        let start: String? = row[5]
        self.init(
            id: row[0], taskID: row[1], title: row[2], notes: row[3],
            estimateSeconds: row[4], startDate: start.flatMap { DateParser.parseDate($0[...]) },
            due: due.map(Date.init(unixSeconds:)), spanSeconds: row[7],
            earliest: earliest.map(TimeOfDay.init(minutes:)), done: row[9], atRisk: row[10],
            createdAt: Date(unixSeconds: row[11])
        )
    }

    /// Column values for INSERT/UPDATE, in `Subtask.columns` order.
    var arguments: StatementArguments {
        [taskID, title, TaskCatalog.key(title), notes, estimateSeconds, startDate?.description,
         due?.unixSeconds, spanSeconds, earliest?.minutes, done, atRisk]
    }

    static let columns = "taskId, title, titleKey, notes, estimateSeconds, startDate, due, spanSeconds, earliestMinutes, done, atRisk"
}

extension TimeLog {
    /// The columns `init(row:)` reads, by position, prefixed with the table name.
    static let selection = "timeLog.id, timeLog.taskId, timeLog.subtaskId, timeLog.startedAt, timeLog.endedAt, timeLog.plannedSeconds, timeLog.focusedSeconds, timeLog.status, timeLog.blockId, timeLog.note"

    init(row: Row) {
        let status: String = row[7]
        self.init(
            id: row[0], taskID: row[1], subtaskID: row[2],
            startedAt: Date(unixSeconds: row[3]), endedAt: Date(unixSeconds: row[4]),
            plannedSeconds: row[5], focusedSeconds: row[6],
            status: SessionStatus(rawValue: status) ?? .interrupted, blockID: row[8], note: row[9]
        )
    }
}

extension ScheduledBlock {
    init(row: Row) {
        let status: String = row["status"]
        self.init(
            id: row["id"], subtaskID: row["subtaskId"], startedAt: Date(unixSeconds: row["startedAt"]),
            endedAt: Date(unixSeconds: row["endedAt"]), status: BlockStatus(rawValue: status) ?? .planned
        )
    }
}
