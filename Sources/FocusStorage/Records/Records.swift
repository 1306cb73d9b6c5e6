import FocusCore
import Foundation
import GRDB
import GRDBSQLite

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

/// Column readers over SQLite's C API: for listings of thousands of rows, where GRDB's generic
/// decoding (metadata lookups per value) costs more than the reads themselves.
struct RawColumns {
    let stmt: OpaquePointer

    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(stmt, i) }
    func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(stmt, i)) }
    func bool(_ i: Int32) -> Bool { sqlite3_column_int64(stmt, i) != 0 }
    func optionalInt64(_ i: Int32) -> Int64? { isNull(i) ? nil : int64(i) }
    func optionalInt(_ i: Int32) -> Int? { isNull(i) ? nil : int(i) }
    func text(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, i) else { return "" }
        return String(cString: p)
    }
    func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
}

extension Subtask {
    /// Decodes the columns of `Subtask.selection` from the current row of a raw statement.
    init(_ c: RawColumns) {
        let start = c.optionalText(5)
        self.init(
            id: c.int64(0), taskID: c.int64(1), title: c.text(2), notes: c.optionalText(3),
            estimateSeconds: c.optionalInt(4), startDate: start.flatMap { DateParser.parseDate($0[...]) },
            due: c.optionalInt64(6).map(Date.init(unixSeconds:)), spanSeconds: c.optionalInt(7),
            earliest: c.optionalInt(8).map(TimeOfDay.init(minutes:)), done: c.bool(9), atRisk: c.bool(10),
            createdAt: Date(unixSeconds: c.int64(11))
        )
    }
}
