import FocusCore
import Foundation
import GRDB

/// A calendar file to store: its raw text, and the zone and window its occurrences were expanded in.
package struct CalendarImport: Sendable {
    package var name: String
    package var source: String
    package var content: String
    /// The IANA zone all-day and floating events were read in.
    package var timeZone: String
    /// The stored occurrences are exactly those overlapping this window.
    package var horizon: DateInterval
    /// VEVENTs in the file.
    package var eventCount: Int
    package var importedAt: Date

    package init(name: String, source: String, content: String, timeZone: String, horizon: DateInterval, eventCount: Int, importedAt: Date) {
        self.name = name
        self.source = source
        self.content = content
        self.timeZone = timeZone
        self.horizon = horizon
        self.eventCount = eventCount
        self.importedAt = importedAt
    }
}

/// One stored calendar, as `calendar list` shows it.
package struct CalendarSummary: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var source: String
    package var timeZone: String
    package var eventCount: Int
    package var occurrenceCount: Int
    package var horizon: DateInterval
    package var importedAt: Date
}

/// Expands a stored calendar's raw text over [from, to) in a zone: used where the stored
/// occurrences do not answer (outside their window, or another zone). Given by the CLI, which
/// owns the .ics reader. Arguments: content, calendar name, from, to, zone.
package typealias CalendarExpansion = (String, String, Date, Date, TimeZone) throws -> [BusyEvent]

extension AppDatabase {
    /// Stores a calendar and its occurrences in one transaction, replacing a calendar of the same
    /// name (case-insensitively). `occurrence` reads (start, end, summary, all-day, uid) from an
    /// element. `then` runs in the same transaction (the re-plan). Returns whether one was replaced.
    @discardableResult
    package func importCalendar<S: Sequence>(
        _ calendar: CalendarImport, occurrences: S,
        occurrence: (S.Element) -> (Date, Date, String, Bool, String),
        then: (Database) throws -> Void = { _ in }
    ) throws(FocusError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(calendar.name)])
            let replaced = db.changesCount > 0
            try db.execute(
                sql: """
                    INSERT INTO calendar (name, nameKey, source, content, timeZone, horizonStart, horizonEnd, importedAt, eventCount)
                    VALUES (?, ?, ?, '', ?, ?, ?, ?, ?)
                    """,
                arguments: [calendar.name, TaskCatalog.key(calendar.name), calendar.source, calendar.timeZone,
                            calendar.horizon.start.unixSeconds, calendar.horizon.end.unixSeconds, calendar.importedAt.unixSeconds,
                            calendar.eventCount])
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT INTO calendarFile (calendarId, content) VALUES (?, ?)", arguments: [id, calendar.content])
            let insert = try db.cachedStatement(
                sql: "INSERT INTO busyEvent (calendarId, startedAt, endedAt, summary, allDay, uid) VALUES (?, ?, ?, ?, ?, ?)")
            var longest: Int64 = 0
            var count = 0
            for element in occurrences {
                let (start, end, summary, allDay, uid) = occurrence(element)
                let s = start.unixSeconds
                let e = max(s, Int64(end.timeIntervalSince1970.rounded(.up)))
                longest = max(longest, e - s)
                count += 1
                insert.setUncheckedArguments([id, s, e, summary, allDay, uid])
                try insert.execute()
            }
            try db.execute(sql: "UPDATE calendar SET longestSeconds = ?, occurrenceCount = ? WHERE id = ?", arguments: [longest, count, id])
            try then(db)
            return replaced
        }
    }

    /// Stored calendars by name.
    package func calendars() throws(FocusError) -> [CalendarSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, source, timeZone, eventCount, horizonStart, horizonEnd, importedAt, occurrenceCount AS occurrences
                FROM calendar ORDER BY nameKey
                """).map { row in
                CalendarSummary(
                    id: row.id("id"), name: row.text("name"), source: row.text("source"), timeZone: row.text("timeZone"),
                    eventCount: row.count("eventCount"), occurrenceCount: row.count("occurrences"),
                    horizon: Self.horizon(row),
                    importedAt: row.date("importedAt"))
            }
        }
    }

    /// A stored horizon (an end before its start, as a hand edit could leave it, is empty).
    static func horizon(_ row: Row) -> DateInterval {
        let start = row.unixSeconds("horizonStart")
        return DateInterval(start: Date(unixSeconds: start), end: Date(unixSeconds: max(start, row.unixSeconds("horizonEnd"))))
    }

    /// Deletes a calendar (case-insensitive name) with its events; `then` runs in the same
    /// transaction. Returns the stored name, nil when there is none.
    package func removeCalendar(named name: String, then: (Database) throws -> Void = { _ in }) throws(FocusError) -> String? {
        try write { db in
            guard let stored = try String.fetchOne(db, sql: "SELECT name FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(name)]) else {
                return nil
            }
            try db.execute(sql: "DELETE FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(name)])
            try then(db)
            return stored
        }
    }

    /// Every busy occurrence overlapping [from, to), sorted by start then end (`calendar busy`).
    package func busyEvents(from: Date, to: Date, zone: LocalCalendar, expand: CalendarExpansion) throws(FocusError) -> [BusyEvent] {
        try read { db in try AppDatabase.busyEvents(db, from: from, to: to, zone: zone, expand: expand) }
    }

    /// The stored occurrences answer inside each calendar's horizon when the zone is the one it
    /// was imported in; elsewhere the raw text is expanded again (only then is a Foundation
    /// `TimeZone` made for the .ics code: it loads ICU).
    package static func busyEvents(_ db: Database, from: Date, to: Date, zone: LocalCalendar, expand: CalendarExpansion) throws -> [BusyEvent] {
        guard to > from else { return [] }
        var result: [BusyEvent] = []
        let calendars = try Row.fetchAll(db, sql: "SELECT id, name, timeZone, horizonStart, horizonEnd, longestSeconds FROM calendar")
        for row in calendars {
            let id = row.id("id")
            let name = row.text("name")
            let horizon = Self.horizon(row)
            let storedZone = row.text("timeZone")
            func raw(_ lo: Date, _ hi: Date) throws -> [BusyEvent] {
                let content = try String.fetchOne(db, sql: "SELECT content FROM calendarFile WHERE calendarId = ?", arguments: [id]) ?? ""
                return try expand(content, name, lo, hi, zone.timeZone)
            }
            guard storedZone == zone.identifier, horizon.end > horizon.start else {
                result += try raw(from, to)
                continue
            }
            if from < horizon.start {
                // Occurrences that overlap the horizon are stored; take only the others here.
                result += try raw(from, min(to, horizon.start)).filter { $0.end <= horizon.start }
            }
            if to > horizon.end {
                result += try raw(max(from, horizon.end), to).filter { $0.start >= horizon.end }
            }
            if from < horizon.end, to > horizon.start {
                let longest = Int64(row.seconds("longestSeconds"))
                let lo = from.unixSeconds
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT startedAt, endedAt, summary, allDay FROM busyEvent
                    WHERE calendarId = ? AND startedAt >= ? AND startedAt < ? AND (endedAt > ? OR startedAt >= ?)
                    """, arguments: [id, lo - longest, Int64(to.timeIntervalSince1970.rounded(.up)), lo, lo])
                while let r = try rows.next() {
                    result.append(BusyEvent(start: r.date(0), end: r.date(1), summary: r.text(2), allDay: r.bool(3), calendar: name))
                }
            }
        }
        result.sort(by: BusyEvent.ordered)
        return result
    }
}
