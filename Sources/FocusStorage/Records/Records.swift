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
            id: row.int64("id"), title: row.text("title"), notes: row.optionalText("notes"), archived: row.bool("archived"),
            createdAt: Date(unixSeconds: row.int64("createdAt"))
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
        let due = row.optionalInt64(6)
        let earliest = row.optionalInt(8).map { min(max($0, 0), 1439) }
        let start = row.optionalText(5)
        self.init(
            id: row.int64(0), taskID: row.int64(1), title: row.text(2), notes: row.optionalText(3),
            estimateSeconds: row.optionalInt(4), startDate: start.flatMap { DateParser.parseDate($0[...]) },
            due: due.map(Date.init(unixSeconds:)), spanSeconds: row.optionalInt(7),
            earliest: earliest.map(TimeOfDay.init(minutes:)), done: row.bool(9), atRisk: row.bool(10),
            createdAt: Date(unixSeconds: row.int64(11))
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
        self.init(
            id: row.int64(0), taskID: row.int64(1), subtaskID: row.optionalInt64(2),
            startedAt: Date(unixSeconds: row.int64(3)), endedAt: Date(unixSeconds: row.int64(4)),
            plannedSeconds: row.int(5), focusedSeconds: row.int(6),
            status: SessionStatus(rawValue: row.text(7)) ?? .interrupted, blockID: row.optionalInt64(8), note: row.optionalText(9)
        )
    }
}

extension ScheduledBlock {
    init(row: Row) {
        self.init(
            id: row.int64("id"), subtaskID: row.int64("subtaskId"), startedAt: Date(unixSeconds: row.int64("startedAt")),
            endedAt: Date(unixSeconds: row.int64("endedAt")), status: BlockStatus(rawValue: row.text("status")) ?? .planned
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
            earliest: c.optionalInt(8).map { TimeOfDay(minutes: min(max($0, 0), 1439)) }, done: c.bool(9), atRisk: c.bool(10),
            createdAt: Date(unixSeconds: c.int64(11))
        )
    }
}
