import FocusCore
import FoundationEssentials
import FocusSQLite

/// A stored number outside the domain focus reads its column within (see `StoredNumber`), or of
/// the wrong type: a hand edit, or a file restored from elsewhere. Focus reads it clamped (or
/// converted as SQLite converts it); `focus doctor` and `focus restore` list it.
package struct OutOfRangeValue: Sendable, Equatable {
    package var table: String
    /// The row's id (for `sentReminder`, which has none, its block's id).
    package var id: Int64
    package var column: String
    /// The value as SQLite's `quote()` writes it: `9223372036854775807`, `1.0e+300`, `'soon'`.
    package var value: String
    /// What the column holds: `an instant in the years 0001-9999`.
    package var expected: String

    /// `timeLog #1 endedAt = 9223372036854775807 (expected an instant in the years 0001-9999)`.
    package var description: String {
        "\(table) #\(id) \(column) = \(value) (expected \(expected))"
    }
}

extension AppDatabase {
    /// Every numeric column of the schema, with the domain its values are read within. The
    /// `id` expression names the row (`rowid`, or a key for a table without one).
    static let numericColumns: [(table: String, id: String, columns: [(String, StoredNumber.Domain)])] = [
        ("task", "id", [("id", .id), ("archived", .flag), ("loggedSeconds", .seconds), ("sessionCount", .count), ("createdAt", .instant)]),
        ("subtask", "id", [("id", .id), ("taskId", .id), ("estimateSeconds", .positiveSeconds), ("due", .instant), ("spanSeconds", .positiveSeconds),
                           ("earliestMinutes", .minuteOfDay), ("done", .flag), ("atRisk", .flag), ("loggedSeconds", .seconds),
                           ("lastWorkedAt", .instant), ("createdAt", .instant), ("priority", .priority),
                           ("maxPerDaySeconds", .positiveSeconds), ("onDay", .count), ("seriesId", .id)]),
        ("scheduledBlock", "id", [("id", .id), ("subtaskId", .id), ("startedAt", .instant), ("endedAt", .instant)]),
        ("timeLog", "id", [("id", .id), ("taskId", .id), ("subtaskId", .id), ("startedAt", .instant), ("endedAt", .instant),
                           ("plannedSeconds", .seconds), ("focusedSeconds", .seconds), ("blockId", .id), ("createdAt", .instant)]),
        ("calendar", "id", [("id", .id), ("horizonStart", .instant), ("horizonEnd", .instant), ("importedAt", .instant),
                            ("eventCount", .count), ("longestSeconds", .seconds), ("occurrenceCount", .count)]),
        ("busyEvent", "id", [("id", .id), ("calendarId", .id), ("startedAt", .instant), ("endedAt", .instant), ("allDay", .flag)]),
        ("activeSession", "id", [("pid", .id), ("taskId", .id), ("subtaskId", .id), ("blockId", .id), ("cycle", .positiveCount),
                                 ("cycles", .positiveCount), ("workStartedAt", .instant), ("phaseStartedAt", .instant),
                                 ("plannedSeconds", .seconds), ("workPlannedSeconds", .seconds), ("focusedSeconds", .seconds),
                                 ("remainingSeconds", .seconds), ("endsAt", .instant), ("checkpointAt", .instant)]),
        ("planRisk", "subtaskId", [("subtaskId", .id), ("neededSeconds", .seconds), ("freeSeconds", .seconds)]),
        ("sentReminder", "blockId", [("blockId", .id), ("sentAt", .instant)]),
        ("sentSummary", "day", [("day", .dayNumber), ("sentAt", .instant)]),
    ]

    /// Rules between the columns of a row that reads rely on (the tables' CHECK constraints, which
    /// a hand edit can walk past): the column named, the condition that breaks the rule, and
    /// what is expected instead. Checked on rows whose columns are each within their domain.
    static let rowRules: [(table: String, id: String, column: String, broken: String, expected: String)] = [
        ("timeLog", "id", "endedAt", "endedAt < startedAt OR endedAt - startedAt > \(StoredNumber.longestSession)",
         "an end from startedAt to a day after it"),
        ("timeLog", "id", "focusedSeconds", "endedAt >= startedAt AND focusedSeconds > endedAt - startedAt",
         "no more focus than the session lasts"),
        ("scheduledBlock", "id", "endedAt", "endedAt <= startedAt", "an end after startedAt"),
    ]

    /// The stored numbers outside their column's domain, or not integers, table by table, then
    /// the rows that break `rowRules`: at most `limit` of them, and how many there are in all.
    /// A clean table costs one scan (this is a check for `focus doctor` and `focus restore`,
    /// not something every command runs).
    package static func outOfRangeValues(_ db: Database, limit: Int = 20) throws -> (values: [OutOfRangeValue], total: Int) {
        let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        var found: [OutOfRangeValue] = []
        var total = 0
        /// Lists the rows of `table` where `condition` holds, as values of `column`.
        func collect(_ table: String, _ idColumn: String, _ column: String, _ condition: String, _ expected: String) throws {
            let count = try Row.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(condition)")?.count(0) ?? 0
            guard count > 0 else { return }
            total += count
            guard found.count < limit else { return }
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(idColumn), substr(quote(\(column)), 1, 60) FROM \(table) WHERE \(condition)
                ORDER BY \(idColumn) LIMIT \(limit - found.count)
                """)
            for row in rows {
                found.append(OutOfRangeValue(table: table, id: row.storedInteger(0) ?? 0, column: column, value: row.text(1), expected: expected))
            }
        }
        // Per table: the condition that its row's numbers are all within their domains.
        var inDomain: [String: String] = [:]
        for (table, idColumn, columns) in numericColumns where tables.contains(table) {
            let present = try Set(Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0.text("name") })
            let checks = columns.filter { present.contains($0.0) }.map { column, domain -> (String, StoredNumber.Domain, String) in
                let r = domain.range
                // typeof() first: a text or a real is listed whatever it compares as.
                let bad = "(\(column) IS NOT NULL AND (typeof(\(column)) != 'integer' OR \(column) < \(r.lowerBound) OR \(column) > \(r.upperBound)))"
                return (column, domain, bad)
            }
            guard !checks.isEmpty else { continue }
            let anyBad = checks.map(\.2).joined(separator: " OR ")
            inDomain[table] = "NOT (\(anyBad))"
            // One scan settles a clean table; only a table with a bad value is read column by column.
            guard try Row.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE \(anyBad) LIMIT 1") != nil else { continue }
            for (column, domain, bad) in checks {
                try collect(table, idColumn, column, bad, domain.summary)
            }
        }
        for (table, idColumn, column, broken, expected) in rowRules where tables.contains(table) {
            try collect(table, idColumn, column, "(\(broken)) AND \(inDomain[table] ?? "1")", expected)
        }
        return (found, total)
    }

    /// The schema version (`PRAGMA user_version`) and the journal mode, as `focus doctor` shows them.
    package func schemaAndJournalMode() throws(FocusError) -> (schema: Int, journalMode: String) {
        try read { db in (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?") }
    }

    /// `outOfRangeValues` of this database.
    package func outOfRangeValues(limit: Int = 20) throws(FocusError) -> (values: [OutOfRangeValue], total: Int) {
        try read { db in try AppDatabase.outOfRangeValues(db, limit: limit) }
    }
}
