import FocusCore
import FoundationEssentials
import FocusSQLite

// Rows are decoded by hand: faster than Codable and explicit about every column.
// Instants are stored as whole Unix seconds.

extension Date {
    init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
    /// Whole Unix seconds (saturating: a date from anywhere never traps here).
    var unixSeconds: Int64 { SQLiteNumber.integer(timeIntervalSince1970.rounded(.down)) }
}

extension FocusTask {
    init(row: Row) {
        self.init(
            id: row.id("id"), title: row.text("title"), notes: row.optionalText("notes"), archived: row.bool("archived"),
            createdAt: row.date("createdAt")
        )
    }
}

extension Subtask {
    /// The columns `init(row:)` reads, by position (a by-name lookup scans the column names,
    /// which costs more than the rest of a 5,000-row listing).
    static let selection = """
        subtask.id, subtask.taskId, subtask.title, subtask.notes, subtask.estimateSeconds, subtask.startDate, subtask.due, \
        subtask.spanSeconds, subtask.earliestMinutes, subtask.done, subtask.atRisk, subtask.createdAt, subtask.loggedSeconds, \
        subtask.lastWorkedAt, subtask.priority, subtask.maxPerDaySeconds, subtask.every, subtask.onDay, subtask.seriesId, \
        subtask.periodStart
        """

    /// The first column after `selection`.
    static let selectionCount = 20

    init(row: Row) { self.init(stored: row, columns: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), planning: (14, 15), series: (16, 17, 18, 19)) }

    /// Decodes the columns of `Subtask.selection` from the current row of a raw statement.
    init(_ c: RawColumns) { self.init(stored: c, columns: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), planning: (14, 15), series: (16, 17, 18, 19)) }

    private init<C: StoredColumns>(
        stored c: C, columns k: (C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column, C.Column),
        planning p: (C.Column, C.Column), series r: (C.Column, C.Column, C.Column, C.Column)
    ) {
        let start = c.optionalText(k.5)
        self.init(
            id: c.id(k.0), taskID: c.id(k.1), title: c.text(k.2), notes: c.optionalText(k.3),
            estimateSeconds: c.optionalNumber(k.4, .positiveSeconds).map { Int($0) }, startDate: start.flatMap { DateParser.parseDate($0[...]) },
            due: c.optionalDate(k.6), spanSeconds: c.optionalNumber(k.7, .positiveSeconds).map { Int($0) },
            earliest: c.optionalNumber(k.8, .minuteOfDay).map { TimeOfDay(minutes: Int($0)) }, done: c.bool(k.9), atRisk: c.bool(k.10),
            createdAt: c.date(k.11)
        )
        priority = c.optionalNumber(p.0, .priority).flatMap { Priority(rawValue: Int($0)) } ?? .normal
        maxPerDaySeconds = c.optionalNumber(p.1, .positiveSeconds).map { Int($0) }
        // A rule this focus does not know reads as no rule (the row is then plain work).
        if let every = c.optionalText(r.0).flatMap(Recurrence.Every.init(rawValue:)) {
            recurrence = Recurrence(every: every, stored: c.optionalNumber(r.1, .count).map { Int($0) })
        }
        seriesID = c.optionalID(r.2)
        periodStart = c.optionalText(r.3).flatMap { DateParser.parseDate($0[...]) }
    }

    /// Column values for INSERT/UPDATE, in `Subtask.columns` order.
    var arguments: StatementArguments {
        [taskID, title, TaskCatalog.key(title), notes, estimateSeconds, startDate?.description,
         due?.unixSeconds, spanSeconds, earliest?.minutes, done, atRisk, priority.rawValue, maxPerDaySeconds,
         recurrence?.every.rawValue, recurrence?.on, seriesID, periodStart?.description]
    }

    static let columns = "taskId, title, titleKey, notes, estimateSeconds, startDate, due, spanSeconds, earliestMinutes, done, atRisk, "
        + "priority, maxPerDaySeconds, every, onDay, seriesId, periodStart"
    /// The placeholders of `columns`.
    static let placeholders = Array(repeating: "?", count: 17).joined(separator: ", ")
}

extension TimeLog {
    /// The columns `init(row:)` reads, by position, prefixed with the table name.
    static let selection = "timeLog.id, timeLog.taskId, timeLog.subtaskId, timeLog.startedAt, timeLog.endedAt, timeLog.plannedSeconds, timeLog.focusedSeconds, timeLog.status, timeLog.blockId, timeLog.note"

    /// Read within the rules of the table (see `StoredNumber.session`): a hand-edited end
    /// before the start or days after it, or focus longer than the session, is read as the
    /// nearest session the store holds.
    init(row: Row) {
        let (start, end) = StoredNumber.session(start: row.storedInteger(3), end: row.storedInteger(4))
        self.init(
            id: row.id(0), taskID: row.id(1), subtaskID: row.optionalID(2),
            startedAt: Date(unixSeconds: start), endedAt: Date(unixSeconds: end),
            plannedSeconds: row.seconds(5), focusedSeconds: min(row.seconds(6), Int(end - start)),
            status: SessionStatus(rawValue: row.text(7)) ?? .interrupted, blockID: row.optionalID(8), note: row.optionalText(9)
        )
    }
}

extension ScheduledBlock {
    /// Read within the rules of the table: a block ends after it starts.
    init(row: Row) {
        let start = row.unixSeconds("startedAt")
        self.init(
            id: row.id("id"), subtaskID: row.id("subtaskId"), startedAt: Date(unixSeconds: start),
            endedAt: Date(unixSeconds: StoredNumber.blockEnd(start: start, end: row.unixSeconds("endedAt"))),
            status: BlockStatus(rawValue: row.text("status")) ?? .planned, pinnedUID: row.optionalText("pinnedUid")
        )
    }
}
