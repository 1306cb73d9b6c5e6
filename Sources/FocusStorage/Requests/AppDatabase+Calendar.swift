import FocusCore
import FoundationEssentials
import FocusSQLite

/// A calendar file to store: its raw text, and the zone and window its occurrences were expanded in.
package struct CalendarImport: Sendable {
    package var name: String
    package var source: String
    /// The file's bytes as read (UTF-8), stored as they are: no decoded copy of a 32 MB file.
    package var content: Data
    /// The IANA zone all-day and floating events were read in.
    package var timeZone: String
    /// The stored occurrences are exactly those overlapping this window.
    package var horizon: DateInterval
    /// VEVENTs in the file.
    package var eventCount: Int
    package var importedAt: Date
    /// A subscribed feed's `FeedState` as JSON (empty for a file), kept in `calendar.fetchState`
    /// (migration v9).
    package var feedState = ""

    package init(name: String, source: String, content: String, timeZone: String, horizon: DateInterval, eventCount: Int, importedAt: Date) {
        self.init(name: name, source: source, content: Data(content.utf8), timeZone: timeZone, horizon: horizon, eventCount: eventCount, importedAt: importedAt)
    }

    package init(name: String, source: String, content: Data, timeZone: String, horizon: DateInterval, eventCount: Int, importedAt: Date) {
        self.name = name
        self.source = source
        self.content = content
        self.timeZone = timeZone
        self.horizon = horizon
        self.eventCount = eventCount
        self.importedAt = importedAt
    }
}

/// Expands a stored calendar's raw text over [from, to) in a zone: used where the stored
/// occurrences do not answer (outside their window, or another zone). Given by the CLI, which
/// owns the .ics reader. Arguments: content, calendar name, from, to, zone.
package typealias CalendarExpansion = (String, String, Date, Date, LocalCalendar) throws -> [BusyEvent]

extension AppDatabase {
    /// Stores a calendar and its occurrences in one transaction, replacing a calendar of the same
    /// name (case-insensitively). `occurrence` reads (start, end, summary, all-day, uid) from an
    /// element. Returns whether one was replaced. (The plan is then stale: see `replanIfStale`.)
    /// `batchSize`: busy times per INSERT (`BusyInserter.batchSize` when nil); 1 is the plain
    /// path, one row per statement, that a test holds the batches to.
    @discardableResult
    package func importCalendar<S: Sequence>(
        _ calendar: CalendarImport, occurrences: S, batchSize: Int? = nil,
        occurrence: (S.Element) -> (Date, Date, String, Bool, String)
    ) throws(FocusError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(calendar.name)])
            let replaced = db.changesCount > 0
            try db.execute(
                sql: """
                    INSERT INTO calendar (name, nameKey, source, content, fetchState, timeZone, horizonStart, horizonEnd, importedAt, eventCount)
                    VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [calendar.name, TaskCatalog.key(calendar.name), calendar.source, calendar.feedState, calendar.timeZone,
                            calendar.horizon.start.unixSeconds, calendar.horizon.end.unixSeconds, calendar.importedAt.unixSeconds,
                            calendar.eventCount])
            let id = db.lastInsertedRowID
            try AppDatabase.insertContent(calendar.content, calendarID: id, db)
            var busy = BusyInserter(db, calendarID: id, batchSize: batchSize ?? BusyInserter.batchSize)
            for element in occurrences {
                let (start, end, summary, allDay, uid) = occurrence(element)
                try busy.add(start: start, end: end, summary: summary, allDay: allDay, uid: uid)
            }
            try busy.flush()
            let (longest, count) = (busy.longest, busy.count)
            try db.execute(sql: "UPDATE calendar SET longestSeconds = ?, occurrenceCount = ? WHERE id = ?", arguments: [longest, count, id])
            return replaced
        }
    }

    /// Stored calendars by name.
    package func calendars() throws(FocusError) -> [CalendarSummary] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, source, timeZone, eventCount, horizonStart, horizonEnd, importedAt, occurrenceCount AS occurrences,
                       fetchState AS feedState, accountId IS NOT NULL AS connected
                FROM calendar ORDER BY nameKey
                """).map { row in
                CalendarSummary(
                    id: row.id("id"), name: row.text("name"), source: row.text("source"), timeZone: row.text("timeZone"),
                    eventCount: row.count("eventCount"), occurrenceCount: row.count("occurrences"),
                    horizon: Self.horizon(row),
                    importedAt: row.date("importedAt"), feedState: row.text("feedState"), connected: row.bool("connected"))
            }
        }
    }

    /// Replaces a feed's remembered state (validators, last success, last error) and nothing
    /// else: its copy and busy times stay, and the plan stays current. Returns false when no
    /// calendar has this id any more.
    @discardableResult
    package func updateFeedState(calendarID: Int64, state: String) throws(FocusError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE calendar SET fetchState = ? WHERE id = ?", arguments: [state, calendarID])
            return db.changesCount > 0
        }
    }

    /// A stored horizon (an end before its start, as a hand edit could leave it, is empty).
    static func horizon(_ row: Row) -> DateInterval {
        let start = row.unixSeconds("horizonStart")
        return DateInterval(start: Date(unixSeconds: start), end: Date(unixSeconds: max(start, row.unixSeconds("horizonEnd"))))
    }

    /// Deletes a calendar (case-insensitive name) with its events, and the CalDAV account it came
    /// from when nothing else uses that account any more (no other calendar, no publication, not
    /// the sync calendar's): removing an account's last calendar leaves no login behind. Returns
    /// the stored name, nil when there is none.
    package func removeCalendar(named name: String) throws(FocusError) -> String? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT name, accountId, remoteUrl FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(name)]) else {
                return nil
            }
            try db.execute(sql: "DELETE FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(name)])
            if let account = row.optionalID("accountId") {
                // Removed by the person: a refresh of the account never reads it again.
                try db.execute(sql: """
                    UPDATE calendarAccount SET excludedUrls = CASE excludedUrls WHEN '' THEN ?1 ELSE excludedUrls || char(10) || ?1 END
                    WHERE id = ?2
                    """, arguments: [row.optionalText("remoteUrl"), account])
                try db.execute(sql: """
                    DELETE FROM calendarAccount WHERE id = ?1
                      AND NOT EXISTS (SELECT 1 FROM calendar WHERE accountId = ?1)
                      AND NOT EXISTS (SELECT 1 FROM publishTarget WHERE accountId = ?1)
                      AND NOT EXISTS (SELECT 1 FROM syncTarget WHERE accountId = ?1)
                    """, arguments: [account])
            }
            return row.text("name")
        }
    }

    /// Every busy occurrence overlapping [from, to), sorted by start then end (`calendar busy`).
    package func busyEvents(from: Date, to: Date, zone: LocalCalendar, expand: CalendarExpansion) throws(FocusError) -> [BusyEvent] {
        try read { db in try AppDatabase.busyEvents(db, from: from, to: to, zone: zone, expand: expand) }
    }

    /// The stored occurrences answer inside each calendar's horizon when the zone is the one it
    /// was imported in; elsewhere the raw text is expanded again.
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
                return try expand(content, name, lo, hi, zone)
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

extension AppDatabase {
    /// The raw file, bound straight from its bytes (SQLITE_STATIC: SQLite neither decodes nor
    /// copies it before writing; the bytes outlive the step). Stored as TEXT, read back as such.
    static func insertContent(_ content: Data, calendarID: Int64, _ db: Database) throws {
        let statement = try db.makeStatement(sql: "INSERT INTO calendarFile (calendarId, content) VALUES (?, ?)")
        try statement.bind(calendarID, at: 1)
        _ = try content.withUnsafeBytes { raw in
            try statement.withText(raw, at: 2) { try statement.run() }
        }
    }
}

/// Stores a calendar's occurrences many rows per statement, the values bound through SQLite's
/// C API (`StatementArguments` box every value: for half a million busy times that boxing, not
/// SQLite, was most of an import's write; docs/PERFORMANCE.md, "Fast paths").
struct BusyInserter {
    static let batchSize = 500
    private let batchSize: Int
    private let db: Database
    private let calendarID: Int64
    private var pending: [(start: Int64, end: Int64, summary: String, allDay: Bool, uid: String)] = []
    private(set) var longest: Int64 = 0
    private(set) var count = 0

    init(_ db: Database, calendarID: Int64, batchSize: Int = BusyInserter.batchSize) {
        self.db = db
        self.calendarID = calendarID
        self.batchSize = max(1, batchSize)
        pending.reserveCapacity(self.batchSize)
    }

    mutating func add(start: Date, end: Date, summary: String, allDay: Bool, uid: String) throws {
        let s = start.unixSeconds
        let e = max(s, Int64(end.timeIntervalSince1970.rounded(.up)))
        longest = max(longest, e - s)
        count += 1
        pending.append((s, e, summary, allDay, uid))
        if pending.count == batchSize { try flush() }
    }

    static func sql(rows: Int) -> String {
        "INSERT INTO busyEvent (calendarId, startedAt, endedAt, summary, allDay, uid) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    mutating func flush() throws {
        guard !pending.isEmpty else { return }
        let statement = try db.cachedStatement(sql: Self.sql(rows: pending.count))
        statement.reset()
        for (k, row) in pending.enumerated() {
            let i = Int32(k * 6)
            try statement.bind(calendarID, at: i + 1)
            try statement.bind(row.start, at: i + 2)
            try statement.bind(row.end, at: i + 3)
            try statement.bind(row.summary, at: i + 4)
            try statement.bind(row.allDay ? 1 : 0, at: i + 5)
            try statement.bind(row.uid, at: i + 6)
        }
        try statement.run()
        pending.removeAll(keepingCapacity: true)
    }
}
