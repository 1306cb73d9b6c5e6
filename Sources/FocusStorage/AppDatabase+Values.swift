import FocusCore
import Foundation
import GRDB

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
    package var domain: StoredNumber.Domain

    /// `timeLog #1 endedAt = 9223372036854775807 (expected an instant in the years 0001-9999)`.
    package var description: String {
        "\(table) #\(id) \(column) = \(value) (expected \(domain.summary))"
    }
}

extension AppDatabase {
    /// Every numeric column of the schema, with the domain its values are read within. The
    /// `id` expression names the row (`rowid`, or a key for a table without one).
    static let numericColumns: [(table: String, id: String, columns: [(String, StoredNumber.Domain)])] = [
        ("task", "id", [("id", .id), ("archived", .flag), ("loggedSeconds", .seconds), ("sessionCount", .count), ("createdAt", .instant)]),
        ("subtask", "id", [("id", .id), ("taskId", .id), ("estimateSeconds", .seconds), ("due", .instant), ("spanSeconds", .seconds),
                           ("earliestMinutes", .minuteOfDay), ("done", .flag), ("atRisk", .flag), ("loggedSeconds", .seconds),
                           ("lastWorkedAt", .instant), ("createdAt", .instant)]),
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
        ("focusQuarter", "quarter", [("quarter", .quarter), ("focusedSeconds", .seconds), ("sessionCount", .count), ("lastEnd", .instant)]),
    ]

    /// The stored numbers outside their column's domain, or not integers, table by table: at
    /// most `limit` of them, and how many there are in all. One scan of each table (a check,
    /// for `focus doctor` and `focus restore`, not for every command).
    package static func outOfRangeValues(_ db: Database, limit: Int = 20) throws -> (values: [OutOfRangeValue], total: Int) {
        let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        var found: [OutOfRangeValue] = []
        var total = 0
        for (table, idColumn, columns) in numericColumns where tables.contains(table) {
            let present = try Set(Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0.text("name") })
            let checks = columns.filter { present.contains($0.0) }.map { column, domain -> (String, StoredNumber.Domain, String) in
                let r = domain.range
                // typeof() first: a text or a real is listed whatever it compares as.
                let bad = domain == .id
                    ? "(\(column) IS NOT NULL AND typeof(\(column)) != 'integer')"
                    : "(\(column) IS NOT NULL AND (typeof(\(column)) != 'integer' OR \(column) < \(r.lowerBound) OR \(column) > \(r.upperBound)))"
                return (column, domain, bad)
            }
            // One scan settles a clean table; only a table with a bad value is read column by column.
            guard !checks.isEmpty, try Row.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE \(checks.map(\.2).joined(separator: " OR ")) LIMIT 1") != nil else {
                continue
            }
            for (column, domain, bad) in checks {
                let count = try Row.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(bad)")?.count(0) ?? 0
                guard count > 0 else { continue }
                total += count
                guard found.count < limit else { continue }
                let rows = try Row.fetchAll(db, sql: """
                    SELECT \(idColumn), substr(quote(\(column)), 1, 60) FROM \(table) WHERE \(bad) ORDER BY \(idColumn) LIMIT \(limit - found.count)
                    """)
                for row in rows {
                    found.append(OutOfRangeValue(table: table, id: row.id(0), column: column, value: row.text(1), domain: domain))
                }
            }
        }
        return (found, total)
    }

    /// `outOfRangeValues` of this database.
    package func outOfRangeValues(limit: Int = 20) throws(FocusError) -> (values: [OutOfRangeValue], total: Int) {
        try read { db in try AppDatabase.outOfRangeValues(db, limit: limit) }
    }
}
