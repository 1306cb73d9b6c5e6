import FocusCore
import FoundationEssentials
import FocusSQLite

/// A connected CalDAV account as stored (README, "Your real calendar"): never a password, only
/// the command that prints one.
package struct StoredAccount: Sendable, Equatable {
    package var id: Int64
    package var url: String
    package var principalURL: String
    package var homeURLs: [String]
    /// Empty when the account has no login.
    package var user: String
    package var passwordCommand: String?
    package var caFile: String?
    package var insecure: Bool
    /// The names given with `--calendar` at connect (empty: every calendar that holds events;
    /// nil: connected before focus kept the choice, only the calendars it has count).
    package var calendarNames: [String]? = nil
    /// Calendars the person removed (`calendar rm`): never read again until `connect`.
    package var excludedURLs: Set<String> = []
    /// What the last refresh that changed something added (`+ Name`) and removed (`- Name`).
    package var lastChange: [String] = []
    package var lastChangeAt: Date? = nil
    /// The principal's own addresses (`mailto:…`), as discovery found them.
    package var addresses: [String] = []
    /// The principal's scheduling inbox and outbox (`CalDAVAccount.schedulingURLs`).
    package var schedulingURLs: [String] = []

    /// The account as discovery found it, for listing its calendars again.
    package var discovered: CalDAVAccount {
        CalDAVAccount(contextURL: url, principalURL: principalURL, homeURLs: homeURLs, addresses: addresses, schedulingURLs: schedulingURLs)
    }
}

/// A calendar read from a CalDAV account.
package struct ConnectedCalendar: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var accountID: Int64
    package var remoteURL: String
    package var syncToken: String?
    /// `FeedState` JSON: when it was last fetched, the last failure.
    package var fetchState: String
    package var eventCount: Int
    package var importedAt: Date
}

/// Where focus publishes the plan.
package struct PublishTarget: Sendable, Equatable {
    package var id: Int64
    package var accountID: Int64
    package var url: String
    package var name: String
    package var sessions: Bool
    package var publishedAt: Date?
    package var lastError: String?
    /// Where the last publication's look at the calendar ended (RFC 6578); nil: read it whole.
    package var syncToken: String? = nil
}

/// A connected calendar's expansion: the stream its resources make (what `calendar busy`
/// expands again outside the stored window), its events and its busy occurrences.
package struct ConnectedExpansion {
    package var content: Data
    package var eventCount: Int
    package var occurrences: [(start: Date, end: Date, summary: String, allDay: Bool, uid: String)]

    package init(content: Data, eventCount: Int, occurrences: [(start: Date, end: Date, summary: String, allDay: Bool, uid: String)]) {
        self.content = content
        self.eventCount = eventCount
        self.occurrences = occurrences
    }
}

extension AppDatabase {
    // MARK: Accounts

    /// Stores an account (one per address and user), keeping its password command when none is
    /// given. Returns its id.
    /// A connect is a new choice: `calendarNames` replaces the one kept and nothing stays excluded.
    package func saveAccount(url: String, principalURL: String, homeURLs: [String], user: String, passwordCommand: String?,
                             caFile: String?, insecure: Bool, calendarNames: [String]? = nil, addresses: [String] = [],
                             schedulingURLs: [String] = [], at now: Date) throws(FocusError) -> Int64 {
        try write { db in
            try db.execute(sql: """
                INSERT INTO calendarAccount (url, principalUrl, homeUrls, user, passwordCommand, caFile, insecure, connectedAt, calendarNames, addresses,
                                             schedulingUrls)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (url, user) DO UPDATE SET
                  principalUrl = excluded.principalUrl, homeUrls = excluded.homeUrls,
                  passwordCommand = ifnull(excluded.passwordCommand, passwordCommand),
                  caFile = excluded.caFile, insecure = excluded.insecure, connectedAt = excluded.connectedAt,
                  calendarNames = excluded.calendarNames, addresses = excluded.addresses, excludedUrls = '', lastChange = '', lastChangeAt = NULL,
                  schedulingUrls = excluded.schedulingUrls
                """, arguments: [url, principalURL, homeURLs.joined(separator: "\n"), user, passwordCommand, caFile, insecure ? 1 : 0, now.unixSeconds,
                                 calendarNames.map { $0.joined(separator: "\n") }, addresses.joined(separator: "\n"), schedulingURLs.joined(separator: "\n")])
            return try Int64.fetchOne(db, sql: "SELECT id FROM calendarAccount WHERE url = ? AND user = ?", arguments: [url, user]) ?? db.lastInsertedRowID
        }
    }

    package func accounts() throws(FocusError) -> [StoredAccount] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, url, principalUrl, homeUrls, user, passwordCommand, caFile, insecure, calendarNames, excludedUrls, lastChange, lastChangeAt, addresses,
                       schedulingUrls
                FROM calendarAccount ORDER BY connectedAt DESC, id DESC
                """).map { row in
                let lines = { (column: Row.Column) in row.text(column).split(separator: "\n").map(String.init) }
                return StoredAccount(id: row.id("id"), url: row.text("url"), principalURL: row.text("principalUrl"),
                              homeURLs: lines("homeUrls"), user: row.text("user"),
                              passwordCommand: row.optionalText("passwordCommand"), caFile: row.optionalText("caFile"), insecure: row.bool("insecure"),
                              calendarNames: row.optionalText("calendarNames").map { $0.split(separator: "\n").map(String.init) },
                              excludedURLs: Set(lines("excludedUrls")), lastChange: lines("lastChange"), lastChangeAt: row.optionalDate("lastChangeAt"),
                              addresses: lines("addresses"), schedulingURLs: lines("schedulingUrls"))
            }
        }
    }

    // MARK: Connected calendars

    package func connectedCalendars() throws(FocusError) -> [ConnectedCalendar] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name, accountId, remoteUrl, syncToken, fetchState, eventCount, importedAt FROM calendar
                WHERE accountId IS NOT NULL ORDER BY nameKey
                """).map(Self.connected)
        }
    }

    private static func connected(_ row: Row) -> ConnectedCalendar {
        ConnectedCalendar(id: row.id("id"), name: row.text("name"), accountID: row.id("accountId"), remoteURL: row.text("remoteUrl"),
                          syncToken: row.optionalText("syncToken"), fetchState: row.text("fetchState"), eventCount: row.count("eventCount"),
                          importedAt: row.date("importedAt"))
    }

    /// The resources kept for a connected calendar.
    package func resources(calendarID: Int64) throws(FocusError) -> [RemoteResource] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT url, etag, data FROM calendarResource WHERE calendarId = ? ORDER BY url", arguments: [calendarID]).map {
                RemoteResource(url: $0.text("url"), etag: $0.optionalText("etag"), data: Self.blob($0))
            }
        }
    }

    /// Applies a fetch of a connected calendar in one transaction: the changed resources are
    /// stored and the removed ones dropped (all others too when `changes.complete`), then the
    /// whole set is expanded by `expand` and its busy times replace the stored ones. The
    /// calendar row is kept (found by account and address) or made; it never replaces another
    /// calendar of its name (a feed, an imported file): it takes a free name then
    /// (`CalendarNaming.free`). Returns the calendar's id, its events and busy times.
    package func storeConnectedCalendar(
        name wanted: String, accountID: Int64, remoteURL: String, changes: RemoteChanges, fetchState: String, timeZone: String,
        horizon: DateInterval, at now: Date, expand: ([RemoteResource]) throws -> ConnectedExpansion
    ) throws -> (id: Int64, events: Int, occurrences: Int) {
        try write { db in
            var id = try Int64.fetchOne(db, sql: "SELECT id FROM calendar WHERE accountId = ? AND remoteUrl = ?", arguments: [accountID, remoteURL])
            let others = try String.fetchAll(db, sql: "SELECT nameKey FROM calendar WHERE id IS NOT ?", arguments: [id])
            let name = CalendarNaming.free(wanted, host: CalendarFeed.host(of: remoteURL), taken: Set(others))
            if id == nil {
                try db.execute(sql: """
                    INSERT INTO calendar (name, nameKey, source, content, timeZone, horizonStart, horizonEnd, importedAt, accountId, remoteUrl)
                    VALUES (?, ?, ?, '', ?, 0, 0, ?, ?, ?)
                    """, arguments: [name, TaskCatalog.key(name), remoteURL, timeZone, now.unixSeconds, accountID, remoteURL])
                id = db.lastInsertedRowID
            }
            guard let id else { return (0, 0, 0) }
            if changes.complete {
                try db.execute(sql: "DELETE FROM calendarResource WHERE calendarId = ?", arguments: [id])
            }
            for url in changes.removed {
                try db.execute(sql: "DELETE FROM calendarResource WHERE calendarId = ? AND url = ?", arguments: [id, url])
            }
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO calendarResource (calendarId, url, etag, data) VALUES (?, ?, ?, ?)
                ON CONFLICT (calendarId, url) DO UPDATE SET etag = excluded.etag, data = excluded.data
                """)
            for resource in changes.changed {
                try upsert.execute(arguments: [id, resource.url, resource.etag, resource.data ?? Data()])
            }
            let all = try Row.fetchAll(db, sql: "SELECT url, etag, data FROM calendarResource WHERE calendarId = ? ORDER BY url", arguments: [id]).map {
                RemoteResource(url: $0.text("url"), etag: $0.optionalText("etag"), data: Self.blob($0))
            }
            let expansion = try expand(all)
            try db.execute(sql: "DELETE FROM busyEvent WHERE calendarId = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM calendarFile WHERE calendarId = ?", arguments: [id])
            try AppDatabase.insertContent(expansion.content, calendarID: id, db)
            var busy = BusyInserter(db, calendarID: id)
            for o in expansion.occurrences {
                try busy.add(start: o.start, end: o.end, summary: o.summary, allDay: o.allDay, uid: o.uid)
            }
            try busy.flush()
            try db.execute(sql: """
                UPDATE calendar SET name = ?, nameKey = ?, timeZone = ?, horizonStart = ?, horizonEnd = ?, importedAt = ?,
                  eventCount = ?, longestSeconds = ?, occurrenceCount = ?, syncToken = ?, fetchState = ?
                WHERE id = ?
                """, arguments: [name, TaskCatalog.key(name), timeZone, horizon.start.unixSeconds, horizon.end.unixSeconds, now.unixSeconds,
                                 expansion.eventCount, busy.longest, busy.count, changes.token, fetchState, id])
            return (id, expansion.eventCount, busy.count)
        }
    }

    /// Adds `urls` to the account's calendars a refresh never reads (as `calendar rm` does):
    /// the calendars another machine syncs focus's history through.
    package func excludeConnectedCalendars(accountID: Int64, urls: [String]) throws(FocusError) {
        guard !urls.isEmpty else { return }
        try write { db in
            let current = try String.fetchOne(db, sql: "SELECT excludedUrls FROM calendarAccount WHERE id = ?", arguments: [accountID]) ?? ""
            var lines = current.split(separator: "\n").map(String.init)
            for url in urls where !lines.contains(url) { lines.append(url) }
            try db.execute(sql: "UPDATE calendarAccount SET excludedUrls = ? WHERE id = ?", arguments: [lines.joined(separator: "\n"), accountID])
        }
    }

    /// Removes the account's calendars whose address is not in `keeping` (a connect that chose
    /// fewer); returns their names.
    package func removeConnectedCalendars(accountID: Int64, keeping: Set<String>) throws(FocusError) -> [String] {
        try write { db in
            var removed: [String] = []
            for row in try Row.fetchAll(db, sql: "SELECT id, name, remoteUrl FROM calendar WHERE accountId = ? ORDER BY nameKey", arguments: [accountID])
            where !keeping.contains(row.text("remoteUrl")) {
                try db.execute(sql: "DELETE FROM calendar WHERE id = ?", arguments: [row.id("id")])
                removed.append(row.text("name"))
            }
            return removed
        }
    }

    /// Records what a refresh of an account added and removed (`calendar list` shows it).
    package func noteAccountChange(accountID: Int64, _ lines: [String], at now: Date) throws(FocusError) {
        try write { db in
            try db.execute(sql: "UPDATE calendarAccount SET lastChange = ?, lastChangeAt = ? WHERE id = ?",
                           arguments: [lines.joined(separator: "\n"), now.unixSeconds, accountID])
        }
    }

    /// Records a fetch that changed nothing (or failed): the token and the fetch state only.
    package func updateConnectedState(calendarID: Int64, syncToken: String?, fetchState: String) throws(FocusError) {
        try write { db in
            try db.execute(sql: "UPDATE calendar SET syncToken = ?, fetchState = ? WHERE id = ?", arguments: [syncToken, fetchState, calendarID])
        }
    }

    /// A resource's bytes (text or blob, as a hand edit may leave them).
    static func blob(_ row: Row) -> Data {
        switch (row["data"] as DatabaseValue? ?? .null).storage {
        case let .blob(data): return data
        case let .string(text): return Data(text.utf8)
        default: return Data()
        }
    }

    // MARK: Publishing

    /// Subtasks' notes by id (the published blocks carry them).
    package func subtaskNotes() throws(FocusError) -> [Int64: String] {
        try read { db in
            var notes: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, notes FROM subtask WHERE notes IS NOT NULL AND notes <> ''") {
                notes[row.id("id")] = row.text("notes")
            }
            return notes
        }
    }

    package func savePublishTarget(accountID: Int64, url: String, name: String, sessions: Bool) throws(FocusError) -> PublishTarget {
        try write { db in
            try db.execute(sql: """
                INSERT INTO publishTarget (accountId, url, name, sessions) VALUES (?, ?, ?, ?)
                ON CONFLICT (accountId, url) DO UPDATE SET name = excluded.name, sessions = excluded.sessions
                """, arguments: [accountID, url, name, sessions ? 1 : 0])
            let row = try Row.fetchOne(db, sql: "SELECT * FROM publishTarget WHERE accountId = ? AND url = ?", arguments: [accountID, url])
            return row.map(Self.target) ?? PublishTarget(id: db.lastInsertedRowID, accountID: accountID, url: url, name: name, sessions: sessions)
        }
    }

    package func publishTargets() throws(FocusError) -> [PublishTarget] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM publishTarget ORDER BY id").map(Self.target) }
    }

    private static func target(_ row: Row) -> PublishTarget {
        PublishTarget(id: row.id("id"), accountID: row.id("accountId"), url: row.text("url"), name: row.text("name"),
                      sessions: row.bool("sessions"), publishedAt: row.optionalDate("publishedAt"),
                      lastError: row.optionalText("lastError"), syncToken: row.optionalText("syncToken"))
    }

    /// Whether a publication failed and waits to be tried again.
    package func publicationPending() throws(FocusError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM publishTarget WHERE lastError IS NOT NULL)") ?? false }
    }

    /// This database's name in the events it publishes (X-FOCUS-PUBLISHER).
    package func publisherName() throws(FocusError) -> String {
        try read { db in try String.fetchOne(db, sql: "SELECT name FROM publisher WHERE id = 1") ?? "" }
    }

    /// Where the publication's look at the calendar ended; nil starts over with the whole calendar.
    package func setPublishToken(targetID: Int64, _ token: String?) throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE publishTarget SET syncToken = ? WHERE id = ?", arguments: [token, targetID]) }
    }

    /// Forgets every event written to a target (its calendar was deleted there).
    package func forgetAllPublished(targetID: Int64) throws(FocusError) {
        try write { db in
            try db.execute(sql: "DELETE FROM publishedEvent WHERE targetId = ?", arguments: [targetID])
            try db.execute(sql: "UPDATE publishTarget SET syncToken = NULL WHERE id = ?", arguments: [targetID])
        }
    }

    /// Pins a planned block where the person moved its event (`BlockPin`), under that event's
    /// UID; the plan is then stale. False when the block is no longer planned.
    @discardableResult
    package func pinBlock(id: Int64, uid: String, start: Date, end: Date) throws(FocusError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE scheduledBlock SET startedAt = ?, endedAt = ?, pinnedUid = ? WHERE id = ? AND status = 'planned'",
                           arguments: [start.unixSeconds, end.unixSeconds, uid, id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1")
            return true
        }
    }

    /// Lets the planner place pinned blocks again: those of `subtaskIDs`, or all (nil). Returns
    /// how many were pinned; the plan is then stale.
    package func unpinBlocks(subtaskIDs: [Int64]?) throws(FocusError) -> Int {
        try write { db in
            var sql = "UPDATE scheduledBlock SET pinnedUid = NULL WHERE pinnedUid IS NOT NULL AND status = 'planned'"
            if let ids = subtaskIDs { sql += " AND subtaskId IN (\(ids.map(String.init).joined(separator: ",")))" }
            try db.execute(sql: sql)
            let count = db.changesCount
            if count > 0 { try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1") }
            return count
        }
    }

    package func removePublishTarget(id: Int64) throws(FocusError) {
        try write { db in try db.execute(sql: "DELETE FROM publishTarget WHERE id = ?", arguments: [id]) }
    }

    /// A connected calendar's stored members, their addresses and entity tags (no data).
    package func connectedResources(calendarID: Int64) throws(FocusError) -> [RemoteResource] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT url, etag FROM calendarResource WHERE calendarId = ?", arguments: [calendarID]).map {
                RemoteResource(url: $0.text("url"), etag: $0.optionalText("etag"), data: nil)
            }
        }
    }

    package func publishedEvents(targetID: Int64) throws(FocusError) -> [PublishedEvent] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT uid, kind, url, etag, fingerprint, endedAt, startedAt, content FROM publishedEvent WHERE targetId = ? ORDER BY uid
                """, arguments: [targetID]).map { row in
                PublishedEvent(uid: row.text("uid"), kind: PublishedEvent.Kind(rawValue: row.text("kind")) ?? .block, url: row.text("url"),
                               etag: row.optionalText("etag"), fingerprint: row.text("fingerprint"), end: row.date("endedAt"),
                               start: row.optionalDate("startedAt"), content: row.optionalText("content"))
            }
        }
    }

    /// Records one write to the server as soon as it is done, so an interrupted publication
    /// never forgets an event it wrote (the next one finds it by UID and updates it).
    package func recordPublished(targetID: Int64, _ event: PublishedEvent) throws(FocusError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO publishedEvent (targetId, uid, kind, url, etag, fingerprint, endedAt, startedAt, content)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (targetId, uid) DO UPDATE SET kind = excluded.kind, url = excluded.url, etag = excluded.etag,
                  fingerprint = excluded.fingerprint, endedAt = excluded.endedAt, startedAt = excluded.startedAt, content = excluded.content
                """, arguments: [targetID, event.uid, event.kind.rawValue, event.url, event.etag, event.fingerprint, event.end.unixSeconds,
                                  event.start?.unixSeconds, event.content])
        }
    }

    package func forgetPublished(targetID: Int64, uid: String) throws(FocusError) {
        try write { db in
            try db.execute(sql: "DELETE FROM publishedEvent WHERE targetId = ? AND uid = ?", arguments: [targetID, uid])
        }
    }

    package func notePublication(targetID: Int64, at date: Date?, error: String?) throws(FocusError) {
        try write { db in
            if let date {
                try db.execute(sql: "UPDATE publishTarget SET publishedAt = ?, lastError = ? WHERE id = ?", arguments: [date.unixSeconds, error, targetID])
            } else {
                try db.execute(sql: "UPDATE publishTarget SET lastError = ? WHERE id = ?", arguments: [error, targetID])
            }
        }
    }
}

extension AppDatabase {
    // MARK: Declined meetings

    /// Replaces the meetings the person declined in the calendar named `name` (free time the
    /// agenda still shows, marked).
    package func replaceDeclined(calendarNamed name: String, _ occurrences: [(start: Date, end: Date, summary: String)]) throws(FocusError) {
        try write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM calendar WHERE nameKey = ?", arguments: [TaskCatalog.key(name)]) else { return }
            try Self.replaceDeclined(id, occurrences, db)
        }
    }

    /// As above, for the calendar `id` (a connected calendar, whose name may not be the one
    /// its server gives it).
    package func replaceDeclined(calendarID id: Int64, _ occurrences: [(start: Date, end: Date, summary: String)]) throws(FocusError) {
        try write { db in try Self.replaceDeclined(id, occurrences, db) }
    }

    private static func replaceDeclined(_ id: Int64, _ occurrences: [(start: Date, end: Date, summary: String)], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM declinedEvent WHERE calendarId = ?", arguments: [id])
        let insert = try db.cachedStatement(sql: "INSERT INTO declinedEvent (calendarId, startedAt, endedAt, summary) VALUES (?, ?, ?, ?)")
        for o in occurrences {
            try insert.execute(arguments: [id, o.start.unixSeconds, o.end.unixSeconds, o.summary])
        }
    }

    /// The declined meetings overlapping [from, to), sorted as busy events are.
    package func declinedEvents(from: Date, to: Date) throws(FocusError) -> [BusyEvent] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.startedAt, d.endedAt, d.summary, c.name FROM declinedEvent d JOIN calendar c ON c.id = d.calendarId
                WHERE d.startedAt < ? AND d.endedAt > ?
                """, arguments: [Int64(to.timeIntervalSince1970.rounded(.up)), from.unixSeconds]).map {
                BusyEvent(start: $0.date(0), end: $0.date(1), summary: $0.text(2), allDay: false, calendar: $0.text(3))
            }.sorted(by: BusyEvent.ordered)
        }
    }
}
