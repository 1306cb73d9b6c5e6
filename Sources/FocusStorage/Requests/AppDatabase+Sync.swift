import FocusCore
import FoundationEssentials
import FocusSQLite

/// The calendar focus syncs through (README, "Two machines").
package struct SyncTarget: Sendable, Equatable {
    package var accountID: Int64
    package var url: String
    package var name: String
    package var token: String?
    package var setupAt: Date
    package var syncedAt: Date?
    package var lastError: String?
    package var lastErrorAt: Date?
    /// This machine's name in the calendar.
    package var machineID: String
    /// The digest of the running-session checkpoint this machine last wrote; nil: none there.
    package var checkpoint: String?
    /// `localFingerprint()` when the last sync ended with everything agreed; nil: unknown.
    package var fingerprint: String?
}

/// A field changed on both machines, as `focus sync status` shows it.
package struct StoredConflict: Sendable, Equatable {
    package var label: String
    package var conflict: SyncConflict
    package var at: Date
}

/// What applying a sync's local changes did.
package struct AppliedSync: Sendable {
    package var inserted = 0
    package var updated = 0
    package var deleted = 0
    /// Tasks and subtasks archived here, deleted in another app (`LocalSyncChange.archive`).
    package var archived = 0
    /// Items that could not be applied (a session whose task is nowhere), with the reason.
    package var skipped: [String] = []
    /// Their UIDs: no version is agreed for them, so the next sync tries again (and never
    /// reads their absence here as a deletion).
    package var skippedUIDs: Set<String> = []
    /// The same, as `focus sync status` lists them.
    package var unapplied: [(label: String, conflict: SyncConflict)] = []
    /// A deletion here waits (for the session running now to end): the sync token stays
    /// where it was, so the next sync reads the deletion again. An item that cannot apply
    /// never holds the token (README).
    package var waits = false
    /// The local tables' fingerprint once applied, when nothing else changed them since they
    /// were read for the merge; nil otherwise.
    package var fingerprint: String?
}

extension AppDatabase {
    // MARK: The target

    package func syncTarget() throws(FocusError) -> SyncTarget? {
        try read { db in try AppDatabase.syncTarget(db) }
    }

    static func syncTarget(_ db: Database) throws -> SyncTarget? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT accountId, url, name, syncToken, setupAt, syncedAt, lastError, lastErrorAt, machineId, checkpoint, localFingerprint
            FROM syncTarget WHERE id = 1
            """) else { return nil }
        return SyncTarget(accountID: row.id("accountId"), url: row.text("url"), name: row.text("name"), token: row.optionalText("syncToken"),
                          setupAt: row.date("setupAt"), syncedAt: row.optionalDate("syncedAt"), lastError: row.optionalText("lastError"),
                          lastErrorAt: row.optionalDate("lastErrorAt"), machineID: row.text("machineId"), checkpoint: row.optionalText("checkpoint"),
                          fingerprint: row.optionalText("localFingerprint"))
    }

    /// Makes `url` the sync calendar. Another calendar before it is forgotten with everything
    /// agreed with it (the next sync starts over: nothing local is lost, items are matched by
    /// their names). The calendar stops counting as busy time if it was connected.
    package func setSyncTarget(accountID: Int64, url: String, name: String, machineID: String, at now: Date) throws(FocusError) {
        try write { db in
            let previous = try AppDatabase.syncTarget(db)
            if previous?.url != url || previous?.accountID != accountID {
                try db.execute(sql: "DELETE FROM syncItem")
                try db.execute(sql: "DELETE FROM syncConflict")
                try db.execute(sql: "DELETE FROM syncElsewhere")
            }
            try db.execute(sql: """
                INSERT INTO syncTarget (id, accountId, url, name, syncToken, setupAt, machineId) VALUES (1, ?, ?, ?, NULL, ?, ?)
                ON CONFLICT (id) DO UPDATE SET accountId = excluded.accountId, name = excluded.name, localFingerprint = NULL,
                  syncToken = CASE WHEN url = excluded.url THEN syncToken END,
                  checkpoint = CASE WHEN url = excluded.url THEN checkpoint END,
                  settings = CASE WHEN url = excluded.url THEN settings END, url = excluded.url
                """, arguments: [accountID, url, name, now.unixSeconds, machineID])
            try db.execute(sql: "DELETE FROM calendar WHERE accountId = ? AND remoteUrl = ?", arguments: [accountID, url])
        }
    }

    /// Notes how a sync ended: its new token, time and the local tables' fingerprint, or the
    /// error (the token and fingerprint stay).
    package func noteSync(at now: Date, token: String?, error: String?, fingerprint: String? = nil) throws(FocusError) {
        try write { db in
            if let error {
                try db.execute(sql: "UPDATE syncTarget SET lastError = ?, lastErrorAt = ? WHERE id = 1", arguments: [error, now.unixSeconds])
            } else {
                try db.execute(sql: """
                    UPDATE syncTarget SET syncToken = ?, syncedAt = ?, lastError = NULL, lastErrorAt = NULL, localFingerprint = ? WHERE id = 1
                    """, arguments: [token, now.unixSeconds, fingerprint])
            }
        }
    }

    /// A digest of what sync reads of the local tables: per table the rows, the rows with a
    /// sync name, the newest id, and two sums of the edit times the v11 triggers keep for any
    /// edit (hand edits too; sums of residues, so a clock set back still changes them and no
    /// sum overflows). Adding, removing or editing a task, subtask or session changes it.
    package func localFingerprint() throws(FocusError) -> String {
        try read { db in try AppDatabase.localFingerprint(db) }
    }

    static func localFingerprint(_ db: Database) throws -> String {
        var hash = FNV1a()
        for table in ["task", "subtask", "timeLog"] {
            let row = try Row.fetchOne(db, sql: """
                SELECT count(*), count(syncUid), ifnull(max(id), 0), ifnull(sum(modifiedAt % 1000000007), 0), ifnull(sum(modifiedAt % 999983), 0)
                FROM \(table)
                """)
            let figures = (0..<5).map { (i: Int) in String(row?.storedInteger(.index(i)) ?? 0) }.joined(separator: ",")
            hash.add("\(table):\(figures);".utf8)
        }
        return String(hash.value, radix: 16)
    }

    /// The travelling settings both sides last agreed on, and the ETag of the settings event
    /// then; nil before the first sync of them.
    package func agreedSettings() throws(FocusError) -> (settings: SyncSettings, etag: String?)? {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT settings FROM syncTarget WHERE id = 1"),
                  let stored = try? JSONDecoder().decode(StoredSettingsState.self, from: Data(text.utf8)) else { return nil }
            return (stored.agreed, stored.etag)
        }
    }

    package func noteAgreedSettings(_ settings: SyncSettings, etag: String?) throws(FocusError) {
        let skipped = try storedSettingsState()?.skipped
        try writeSettingsState(StoredSettingsState(agreed: settings, etag: etag, skipped: skipped))
    }

    /// The keys the last sync that read the settings event skipped (`SyncSettings.admitted`),
    /// for `sync status`.
    package func skippedSettings() throws(FocusError) -> [SyncSettings.Skipped] {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT settings FROM syncTarget WHERE id = 1"),
                  let stored = try? JSONDecoder().decode(StoredSettingsState.self, from: Data(text.utf8)) else { return [] }
            return stored.skipped ?? []
        }
    }

    /// Remembers what a sync skipped of the settings event (none: forgets it).
    package func noteSkippedSettings(_ skipped: [SyncSettings.Skipped]) throws(FocusError) {
        guard var stored = try storedSettingsState() else { return }
        stored.skipped = skipped.isEmpty ? nil : skipped
        try writeSettingsState(stored)
    }

    private func storedSettingsState() throws(FocusError) -> StoredSettingsState? {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT settings FROM syncTarget WHERE id = 1") else { return nil }
            return try? JSONDecoder().decode(StoredSettingsState.self, from: Data(text.utf8))
        }
    }

    private func writeSettingsState(_ state: StoredSettingsState) throws(FocusError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = (try? String(decoding: encoder.encode(state), as: UTF8.self)) ?? ""
        try write { db in try db.execute(sql: "UPDATE syncTarget SET settings = ? WHERE id = 1", arguments: [text]) }
    }

    private struct StoredSettingsState: Codable {
        var agreed: SyncSettings
        var etag: String?
        /// Absent in what earlier versions stored.
        var skipped: [SyncSettings.Skipped]?
    }

    /// Forgets the sync token: the next sync reads the whole calendar.
    package func forgetSyncToken() throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE syncTarget SET syncToken = NULL WHERE id = 1") }
    }

    // MARK: Running sessions

    /// Notes the digest of the checkpoint this machine wrote (nil: it removed it).
    package func noteCheckpoint(_ digest: String?) throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE syncTarget SET checkpoint = ? WHERE id = 1", arguments: [digest]) }
    }

    /// Stores the other machines' checkpoints a sync read, and forgets those removed there.
    package func storeElsewhere(_ checkpoints: [(url: String, checkpoint: RunningCheckpoint)], removed: [String]) throws(FocusError) {
        guard !checkpoints.isEmpty || !removed.isEmpty else { return }
        try write { db in
            for (url, c) in checkpoints {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO syncElsewhere (url, machine, label, phase, paused, remainingSeconds, endsAt, checkpointAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [url, c.machine, c.label, c.phase, c.paused ? 1 : 0, c.remainingSeconds, c.endsAt?.unixSeconds,
                                     c.checkpointAt.unixSeconds])
            }
            for url in removed { try db.execute(sql: "DELETE FROM syncElsewhere WHERE url = ?", arguments: [url]) }
        }
    }

    /// The sessions other machines said were running, newest checkpoint first. A database
    /// without the table (never opened by this version) has none.
    package func runningElsewhere() throws(FocusError) -> [RunningCheckpoint] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT machine, label, phase, paused, remainingSeconds, endsAt, checkpointAt FROM syncElsewhere ORDER BY checkpointAt DESC
                """).map { row in
                RunningCheckpoint(machineID: "", machine: row.text("machine"), label: row.text("label"), phase: row.text("phase"),
                                  paused: row.bool("paused"), remainingSeconds: row.seconds("remainingSeconds"),
                                  endsAt: row.optionalDate("endsAt"), checkpointAt: row.date("checkpointAt"))
            }
        }
    }

    // MARK: Agreed versions

    /// Every agreed version, without its text (a sync reads the texts it needs).
    package func syncStates() throws(FocusError) -> [String: SyncState] {
        try read { db in
            var states: [String: SyncState] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT uid, kind, url, etag, digest FROM syncItem")
            while let row = try rows.next() {
                guard let kind = SyncKind(rawValue: row.text("kind")) else { continue }
                states[row.text("uid")] = SyncState(uid: row.text("uid"), kind: kind, url: row.text("url"), etag: row.optionalText("etag"),
                                                    base: Data(), digest: row.text("digest"))
            }
            return states
        }
    }

    /// The agreed texts of some items.
    package func syncBases(_ uids: [String]) throws(FocusError) -> [String: Data] {
        try read { db in
            var bases: [String: Data] = [:]
            var start = 0
            while start < uids.count {
                let chunk = Array(uids[start..<min(uids.count, start + 500)])
                start += chunk.count
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                for row in try Row.fetchAll(db, sql: "SELECT uid, base FROM syncItem WHERE uid IN (\(marks))", arguments: StatementArguments(chunk)) {
                    bases[row.text("uid")] = (row["base"] as Data?) ?? Data(row.text("base").utf8)
                }
            }
            return bases
        }
    }

    package func recordSyncStates(_ states: [SyncState], forgetting gone: [String] = []) throws(FocusError) {
        guard !states.isEmpty || !gone.isEmpty else { return }
        try write { db in try AppDatabase.record(states, forgetting: gone, db) }
    }

    static func record(_ states: [SyncState], forgetting gone: [String], _ db: Database) throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO syncItem (uid, kind, url, etag, base, digest) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (uid) DO UPDATE SET kind = excluded.kind, url = excluded.url, etag = excluded.etag, base = excluded.base,
              digest = excluded.digest
            """)
        for state in states {
            try upsert.execute(arguments: [state.uid, state.kind.rawValue, state.url, state.etag, state.base, state.digest])
        }
        let forget = try db.cachedStatement(sql: "DELETE FROM syncItem WHERE uid = ?")
        for uid in gone { try forget.execute(arguments: [uid]) }
    }

    // MARK: Deleted here

    /// Notes tasks and subtasks this machine deleted there; those older than 30 days are
    /// forgotten.
    package func noteDeletedHere(_ uids: [String], at now: Date) throws(FocusError) {
        guard !uids.isEmpty else { return }
        try write { db in
            try db.execute(sql: "DELETE FROM syncDeleted WHERE at < ?", arguments: [now.unixSeconds - 30 * 86_400])
            for uid in uids { try db.execute(sql: "INSERT OR REPLACE INTO syncDeleted (uid, at) VALUES (?, ?)", arguments: [uid, now.unixSeconds]) }
        }
    }

    /// The tasks and subtasks this machine deleted there in the last 30 days.
    package func deletedHere() throws(FocusError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT uid FROM syncDeleted")) }
    }

    // MARK: Conflicts

    package func recordConflicts(_ conflicts: [(label: String, conflict: SyncConflict)], at now: Date) throws(FocusError) {
        guard !conflicts.isEmpty else { return }
        try write { db in
            for (label, c) in conflicts {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO syncConflict (uid, field, label, localValue, remoteValue, chosen, at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [c.uid, c.field, label, c.local, c.remote, c.chosen == .local ? "local" : "remote", now.unixSeconds])
            }
        }
    }

    /// The conflicts of the last 30 days, newest first.
    package func syncConflicts(since: Date) throws(FocusError) -> [StoredConflict] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT uid, field, label, localValue, remoteValue, chosen, at FROM syncConflict WHERE at >= ? ORDER BY at DESC, label, field
                """, arguments: [since.unixSeconds]).map { row in
                StoredConflict(label: row.text("label"),
                               conflict: SyncConflict(uid: row.text("uid"), field: row.text("field"), local: row.text("localValue"),
                                                      remote: row.text("remoteValue"), chosen: row.text("chosen") == "local" ? .local : .remote),
                               at: row.date("at"))
            }
        }
    }

    // MARK: Names shared by every machine

    /// Gives the rows that have none their shared name: a task or subtask a random one, a
    /// session one made from its task's and subtask's names and its start, so two machines
    /// that hold the same session name it alike. Returns how many were named.
    @discardableResult
    package func assignSyncUIDs(random: () -> UInt64) throws(FocusError) -> Int {
        try write { db in
            var named = 0
            for (table, kind) in [("task", SyncKind.task), ("subtask", .subtask)] {
                let unnamed = kind == .subtask ? " AND seriesId IS NULL" : ""
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE syncUid IS NULL\(unnamed)")
                let update = try db.cachedStatement(sql: "UPDATE \(table) SET syncUid = ? WHERE id = ?")
                for id in ids {
                    try update.execute(arguments: [SyncIdentity.newUID(kind, random: random), id])
                    named += 1
                }
            }
            named += try AppDatabase.nameInstances(db)
            let rows = try Row.fetchAll(db, sql: """
                SELECT l.id, t.syncUid AS taskUid, s.syncUid AS subtaskUid, l.startedAt
                FROM timeLog l JOIN task t ON t.id = l.taskId LEFT JOIN subtask s ON s.id = l.subtaskId
                WHERE l.syncUid IS NULL
                """)
            let update = try db.cachedStatement(sql: "UPDATE OR IGNORE timeLog SET syncUid = ? WHERE id = ?")
            for row in rows {
                let uid = SyncIdentity.sessionUID(taskUID: row.text("taskUid"), subtaskUID: row.optionalText("subtaskUid"),
                                                  start: row.date("startedAt"))
                try update.execute(arguments: [uid, row.id("id")])
                named += 1
            }
            return named
        }
    }

    /// Names the instances of recurring work from their series' names and periods
    /// (`SyncIdentity.instanceUID`): the instance two machines make for one period is one item.
    static func nameInstances(_ db: Database) throws -> Int {
        let rows = try Row.fetchAll(db, sql: """
            SELECT i.id, i.periodStart, s.syncUid AS seriesUid FROM subtask i JOIN subtask s ON s.id = i.seriesId
            WHERE i.syncUid IS NULL AND s.syncUid IS NOT NULL
            """)
        let update = try db.cachedStatement(sql: "UPDATE OR IGNORE subtask SET syncUid = ? WHERE id = ?")
        var named = 0
        for row in rows {
            guard let period = row.optionalText("periodStart").flatMap({ DateParser.parseDate($0[...]) }) else { continue }
            try update.execute(arguments: [SyncIdentity.instanceUID(seriesUID: row.text("seriesUid"), periodStart: period), row.id("id")])
            named += 1
        }
        return named
    }

    /// Gives a local row the name of a remote item it stands for, when the row was never synced
    /// (no agreed version): a task of the same title, a subtask of the same title in the task
    /// the item names, a session of the same task, subtask and start. Items must come in the
    /// order tasks, subtasks, sessions.
    package func adoptSyncUIDs(_ items: [SyncItem]) throws(FocusError) {
        guard !items.isEmpty else { return }
        try write { db in
            let unsynced = "(syncUid IS NULL OR syncUid NOT IN (SELECT uid FROM syncItem))"
            for item in items {
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM \(AppDatabase.table(item.kind)) WHERE syncUid = ?", arguments: [item.uid]) == true { continue }
                switch item {
                case let .task(t):
                    try db.execute(sql: "UPDATE task SET syncUid = ? WHERE titleKey = ? AND \(unsynced)",
                                   arguments: [t.uid, TaskCatalog.key(t.title)])
                case let .subtask(s):
                    try db.execute(sql: """
                        UPDATE subtask SET syncUid = ? WHERE titleKey = ? AND \(unsynced)
                          AND taskId = (SELECT id FROM task WHERE syncUid = ?)
                        """, arguments: [s.uid, TaskCatalog.key(s.title), s.taskUID])
                case let .session(s):
                    try db.execute(sql: """
                        UPDATE timeLog SET syncUid = ? WHERE startedAt = ? AND \(unsynced)
                          AND taskId = (SELECT id FROM task WHERE syncUid = ?)
                          AND ifnull(subtaskId, 0) = ifnull((SELECT id FROM subtask WHERE syncUid = ?), 0)
                        """, arguments: [s.uid, s.start.unixSeconds, s.taskUID, s.subtaskUID])
                }
            }
        }
    }

    private static func table(_ kind: SyncKind) -> String {
        switch kind {
        case .task: "task"
        case .subtask: "subtask"
        case .session: "timeLog"
        }
    }

    // MARK: The local side

    /// Every named task, subtask and session as a sync item, and the tables' fingerprint as
    /// read (one snapshot).
    package func localSyncItems() throws(FocusError) -> (items: [String: SyncItem], fingerprint: String) {
        try read { db in
            var items: [String: SyncItem] = [:]
            // Never edited here: 0, older than any edit (the triggers stamp edits with the wall
            // clock; creation times follow FOCUS_NOW, so the two are never compared).
            // 0 until the row is edited: its creation stands for its last edit (README: the later
            // edit wins, and a task made on two machines was made at two times).
            func modified(_ row: Row) -> Int64 {
                let edited = max(0, row.storedInteger("modifiedAt") ?? 0)
                return edited > 0 ? edited : max(0, row.storedInteger("createdAt") ?? 0) &* 1000
            }
            // A task's stand-in subtask (`SyncIdentity.standInUID`) gives it its due date and
            // estimate, and being done closes the to-do; it is no item of its own.
            for row in try Row.fetchAll(db, sql: """
                SELECT t.syncUid, t.title, t.notes, t.archived, t.modifiedAt, t.createdAt,
                       d.id AS standIn, d.due, d.estimateSeconds, d.done, d.modifiedAt AS standInModified
                FROM task t LEFT JOIN subtask d ON d.taskId = t.id AND d.syncUid = t.syncUid || '#due'
                WHERE t.syncUid IS NOT NULL AND t.deletedElsewhere = 0
                """) {
                let uid = row.text("syncUid")
                let standIn = row.storedInteger("standIn") != nil
                items[uid] = .task(SyncedTask(uid: uid, title: row.text("title"), notes: row.optionalText("notes"),
                                              archived: row.bool("archived") || (standIn && row.bool("done")),
                                              modified: max(modified(row), standIn ? max(0, row.storedInteger("standInModified") ?? 0) : 0),
                                              due: standIn ? row.optionalDate("due") : nil,
                                              estimateSeconds: standIn ? row.optionalNumber("estimateSeconds", .positiveSeconds).map { Int($0) } : nil))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT s.syncUid, t.syncUid AS taskUid, s.title, s.notes, s.estimateSeconds, s.startDate, s.due, s.spanSeconds,
                       s.earliestMinutes, s.done, s.modifiedAt, s.createdAt, s.priority, s.maxPerDaySeconds, s.every, s.onDay,
                       s.periodStart, series.syncUid AS seriesUid
                FROM subtask s JOIN task t ON t.id = s.taskId LEFT JOIN subtask series ON series.id = s.seriesId
                WHERE s.syncUid IS NOT NULL AND t.syncUid IS NOT NULL AND s.syncUid <> t.syncUid || '#due' AND s.deletedElsewhere = 0
                """) {
                let uid = row.text("syncUid")
                var subtask = SyncedSubtask(
                    uid: uid, taskUID: row.text("taskUid"), title: row.text("title"), notes: row.optionalText("notes"),
                    estimateSeconds: row.optionalNumber("estimateSeconds", .positiveSeconds).map { Int($0) }, startDate: row.optionalText("startDate"),
                    due: row.optionalDate("due"), spanSeconds: row.optionalNumber("spanSeconds", .positiveSeconds).map { Int($0) },
                    earliestMinutes: row.optionalNumber("earliestMinutes", .minuteOfDay).map { Int($0) }, done: row.bool("done"),
                    modified: modified(row), priority: row.optionalNumber("priority", .priority).map { Int($0) } ?? 0,
                    maxPerDaySeconds: row.optionalNumber("maxPerDaySeconds", .positiveSeconds).map { Int($0) })
                // Recurring work (README, "Planning"): a series' rule, an instance's series and period.
                subtask.every = row.optionalText("every")
                subtask.onDay = subtask.every == nil ? nil : row.optionalNumber("onDay", .count).map { Int($0) }
                subtask.seriesUID = row.optionalText("seriesUid")
                subtask.periodStart = subtask.seriesUID == nil ? nil : row.optionalText("periodStart")
                items[uid] = .subtask(subtask)
            }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT l.syncUid, t.syncUid AS taskUid, s.syncUid AS subtaskUid, t.title AS taskTitle, s.title AS subtaskTitle,
                       l.startedAt, l.endedAt, l.plannedSeconds, l.focusedSeconds, l.status, l.note, l.modifiedAt, l.createdAt,
                       \(AppDatabase.tagNames(of: "l")) AS tagNames
                FROM timeLog l JOIN task t ON t.id = l.taskId LEFT JOIN subtask s ON s.id = l.subtaskId
                WHERE l.syncUid IS NOT NULL AND t.syncUid IS NOT NULL AND (l.subtaskId IS NULL OR s.syncUid IS NOT NULL)
                """)
            while let row = try rows.next() {
                let uid = row.text("syncUid")
                let (start, end) = StoredNumber.session(start: row.storedInteger("startedAt"), end: row.storedInteger("endedAt"))
                let label = row.optionalText("subtaskTitle").map { row.text("taskTitle") + "/" + $0 } ?? row.text("taskTitle")
                items[uid] = .session(SyncedSession(
                    uid: uid, taskUID: row.text("taskUid"), subtaskUID: row.optionalText("subtaskUid"), label: label,
                    start: Date(unixSeconds: start), end: Date(unixSeconds: end), plannedSeconds: row.seconds("plannedSeconds"),
                    focusedSeconds: min(row.seconds("focusedSeconds"), Int(end - start)), status: row.text("status"),
                    note: row.optionalText("note"), modified: modified(row), tags: AppDatabase.tags(row.optionalText("tagNames"))))
            }
            return (items, try AppDatabase.localFingerprint(db))
        }
    }

    /// A few numbers that change whenever a task, subtask or session is added, edited or
    /// removed (counts, newest ids, latest edits); nil when sync is not set up. Read by the
    /// daemon once after each commit it sees (a few milliseconds for a long history).
    package func syncSignature() throws(FocusError) -> [Int64]? {
        try read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM syncTarget WHERE id = 1") == true else { return nil }
            var signature: [Int64] = []
            for table in ["task", "subtask", "timeLog"] {
                let row = try Row.fetchOne(db, sql: "SELECT count(*), ifnull(max(id), 0) FROM \(table)")
                signature += [row?.storedInteger(0) ?? 0, row?.storedInteger(1) ?? 0]
                signature.append(try Int64.fetchOne(db, sql: "SELECT ifnull(max(modifiedAt), 0) FROM \(table)") ?? 0)
            }
            // The running session too: its checkpoint goes to the other machines when it starts,
            // pauses, resumes, moves to a break or ends.
            let active = try String.fetchOne(db, sql: """
                SELECT pid || '|' || phase || '|' || state || '|' || cycle || '|' || ifnull(endsAt, 0) || '|'
                       || CASE state WHEN 'paused' THEN remainingSeconds ELSE 0 END FROM activeSession WHERE id = 1
                """)
            var hash = FNV1a()
            hash.add((active ?? "none").utf8)
            signature.append(Int64(bitPattern: hash.value))
            return signature
        }
    }

    /// Whether the database holds anything worth a backup before a first sync.
    package func holdsHistory() throws(FocusError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM task) OR EXISTS (SELECT 1 FROM timeLog)") ?? false }
    }

    /// Applies a sync's local changes and the versions now agreed, in one transaction: inserts
    /// and updates parents first, deletions children first. Each changed row's `modifiedAt`
    /// is the merged item's, not the time of the sync.
    /// `readAs`: the fingerprint the merge's items were read with.
    /// `renaming`: rows that take another machine's name for the same work (`SyncPlan.unify`),
    /// renamed first.
    package func applySync(_ changes: [LocalSyncChange], states: [SyncState], forgetting gone: [String],
                           renaming: [(kind: SyncKind, from: String, to: String)] = [], now: Date,
                           readAs: String? = nil) throws(FocusError) -> AppliedSync {
        try write { db in
            var applied = AppliedSync()
            // Another program's edit since the merge read the tables: its result is not agreed yet.
            let untouched = try readAs != nil && AppDatabase.localFingerprint(db) == readAs
            for rename in renaming {
                try db.execute(sql: "UPDATE \(AppDatabase.table(rename.kind)) SET syncUid = ? WHERE syncUid = ?", arguments: [rename.to, rename.from])
            }
            var titles = FreeTitles()
            func rank(_ c: LocalSyncChange) -> Int {
                switch c {
                // An instance of recurring work after its series, which it points to.
                case let .upsert(.subtask(s)) where s.seriesUID != nil: 2
                case let .upsert(item): [SyncKind.task: 0, .subtask: 1, .session: 3][item.kind] ?? 4
                case .archive: 4
                case .completeInstance: 4
                case let .delete(_, kind): [SyncKind.session: 5, .subtask: 6, .task: 7][kind] ?? 8
                }
            }
            for change in changes.enumerated().sorted(by: { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }).map(\.element) {
                switch change {
                case let .upsert(item):
                    switch try AppDatabase.upsert(item, now: now, titles: &titles, db) {
                    case .inserted: applied.inserted += 1
                    case .updated: applied.updated += 1
                    case let .skipped(reason):
                        applied.skipped.append(reason)
                        applied.skippedUIDs.insert(item.uid)
                        applied.unapplied.append((reason, SyncConflict(uid: item.uid, field: "not applied", local: "", remote: reason, chosen: .local)))
                    }
                case let .completeInstance(seriesUID):
                    // The earliest open instance is the current one (`RecurringWork`).
                    try db.execute(sql: """
                        UPDATE subtask SET done = 1 WHERE id = (SELECT i.id FROM subtask i JOIN subtask s ON s.id = i.seriesId
                          WHERE s.syncUid = ? AND i.done = 0 ORDER BY i.periodStart LIMIT 1)
                        """, arguments: [seriesUID])
                case let .archive(uid, kind):
                    let closed = kind == .task ? "archived = 1" : "done = 1"
                    try db.execute(sql: "UPDATE \(AppDatabase.table(kind)) SET \(closed), deletedElsewhere = 1 WHERE syncUid = ?", arguments: [uid])
                    applied.archived += db.changesCount
                case let .delete(uid, kind):
                    let table = AppDatabase.table(kind)
                    // A session that is running now keeps its task and subtask until it ends.
                    if kind != .session, try Bool.fetchOne(db, sql: """
                        SELECT 1 FROM activeSession a JOIN \(table) x ON x.syncUid = ? AND (a.\(kind == .task ? "taskId" : "subtaskId") = x.id)
                        """, arguments: [uid]) == true {
                        applied.skipped.append("a deletion waits for the session running now to end")
                        applied.skippedUIDs.insert(uid)
                        applied.waits = true
                        continue
                    }
                    try db.execute(sql: "DELETE FROM \(table) WHERE syncUid = ?", arguments: [uid])
                    applied.deleted += db.changesCount
                }
            }
            try AppDatabase.record(states.filter { !applied.skippedUIDs.contains($0.uid) }, forgetting: gone.filter { !applied.skippedUIDs.contains($0) }, db)
            try AppDatabase.purgeEmptyDeletedElsewhere(db)
            if untouched { applied.fingerprint = try AppDatabase.localFingerprint(db) }
            return applied
        }
    }

    private enum Upserted { case inserted, updated, skipped(String) }

    /// A task or subtask kept for its sessions after another app deleted it goes once none of
    /// its sessions is left (deleted there too, or here): there is nothing left to keep, and a
    /// machine that read both deletions at once never kept it (README, "Two machines").
    static func purgeEmptyDeletedElsewhere(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM subtask WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.subtaskId = subtask.id)
            """)
        try db.execute(sql: """
            DELETE FROM task WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.taskId = task.id)
              AND NOT EXISTS (SELECT 1 FROM subtask WHERE subtask.taskId = task.id)
            """)
    }

    /// The columns of recurring work an arriving subtask sets (README, "Planning"): a series'
    /// rule; an instance's series (when this machine has it) and period.
    private static func recurringValues(_ s: SyncedSubtask, _ db: Database) throws -> [(String, (any DatabaseValueConvertible)?)] {
        let rule = s.every.flatMap(Recurrence.Every.init(rawValue:)).map { Recurrence(every: $0, stored: s.onDay) }
        let seriesID = try s.seriesUID.flatMap { try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [$0]) }
        return [("every", rule?.every.rawValue), ("onDay", rule?.on), ("seriesId", seriesID),
                ("periodStart", seriesID == nil ? nil : s.periodStart.flatMap { DateParser.parseDate($0[...])?.description })]
    }

    /// The instance this machine made for the period of an arriving one, under another name
    /// (a series named again since): it takes the arriving name, one instance per period.
    private static func adoptedInstance(_ s: SyncedSubtask, _ db: Database) throws -> Int64? {
        guard let series = s.seriesUID, let period = s.periodStart else { return nil }
        guard let id = try Int64.fetchOne(db, sql: """
            SELECT i.id FROM subtask i JOIN subtask s ON s.id = i.seriesId WHERE s.syncUid = ? AND i.periodStart = ?
            """, arguments: [series, period]) else { return nil }
        try db.execute(sql: "UPDATE subtask SET syncUid = ? WHERE id = ?", arguments: [s.uid, id])
        return id
    }

    private static func upsert(_ item: SyncItem, now: Date, titles: inout FreeTitles, _ db: Database) throws -> Upserted {
        let table = table(item.kind)
        let existing = try Int64.fetchOne(db, sql: "SELECT id FROM \(table) WHERE syncUid = ?", arguments: [item.uid])
        let result: Upserted
        switch item {
        case let .task(t):
            let title = try titles.free(Titles.normalized(t.title), table: "task", parent: nil, except: existing, db)
            if let existing {
                try db.execute(sql: "UPDATE task SET title = ?, titleKey = ?, notes = ?, archived = ? WHERE id = ?",
                               arguments: [title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, existing])
                result = .updated
            } else {
                try db.execute(sql: "INSERT INTO pathId DEFAULT VALUES")
                try db.execute(sql: "INSERT INTO task (id, title, titleKey, notes, archived, createdAt, syncUid) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [db.lastInsertedRowID, title, TaskCatalog.key(title), t.notes, t.archived ? 1 : 0, now.unixSeconds, t.uid])
                result = .inserted
            }
            try standIn(for: t, title: title, now: now, db)
        case let .subtask(s):
            guard let taskID = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [s.taskUID]) else {
                return .skipped("'\(s.title)' belongs to a task this machine does not have")
            }
            if let series = s.seriesUID, try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [series]) == nil {
                return .skipped("'\(s.title)' is an instance of recurring work this machine does not have")
            }
            let existing = try existing ?? adoptedInstance(s, db)
            let title = try titles.free(Titles.normalized(s.title), table: "subtask", parent: taskID, except: existing, db)
            let values: [(String, (any DatabaseValueConvertible)?)] = [
                ("taskId", taskID), ("title", title), ("titleKey", TaskCatalog.key(title)), ("notes", s.notes),
                ("estimateSeconds", s.estimateSeconds.map { max(1, $0) }), ("startDate", s.startDate.flatMap { DateParser.parseDate(Substring($0)) != nil ? $0 : nil }),
                ("due", s.due?.unixSeconds), ("spanSeconds", s.spanSeconds.map { max(1, $0) }),
                ("earliestMinutes", s.earliestMinutes.map { min(1439, max(0, $0)) }), ("done", s.done ? 1 : 0),
                ("priority", min(1, max(-1, s.priority))), ("maxPerDaySeconds", s.maxPerDaySeconds.map { min(86_400, max(60, $0)) }),
            ] + (try recurringValues(s, db))
            if let existing {
                try db.execute(sql: "UPDATE subtask SET " + values.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                               arguments: StatementArguments(values.map(\.1) + [existing]))
                result = .updated
            } else {
                try db.execute(sql: "INSERT INTO pathId DEFAULT VALUES")
                let id = db.lastInsertedRowID
                try db.execute(sql: "INSERT INTO subtask (id, " + values.map(\.0).joined(separator: ", ") + ", createdAt, syncUid) VALUES (?"
                                   + String(repeating: ", ?", count: values.count + 2) + ")",
                               arguments: StatementArguments([id] + values.map(\.1) + [now.unixSeconds, s.uid]))
                result = .inserted
            }
        case let .session(s):
            guard let taskID = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [s.taskUID]) else {
                return .skipped("a session of '\(s.label)' belongs to a task this machine does not have")
            }
            var subtaskID: Int64?
            if let sub = s.subtaskUID {
                // Work on a task's stand-in whose due date is gone since: the stand-in again.
                if sub == SyncIdentity.standInUID(taskUID: s.taskUID),
                   try Bool.fetchOne(db, sql: "SELECT 1 FROM subtask WHERE syncUid = ?", arguments: [sub]) != true,
                   let title = try String.fetchOne(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [taskID]) {
                    try insertStandIn(taskID: taskID, uid: sub, title: title, now: now, db)
                }
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [sub]) else {
                    return .skipped("a session of '\(s.label)' belongs to a subtask this machine does not have")
                }
                subtaskID = id
            }
            let start = s.start.unixSeconds, end = max(s.start.unixSeconds, s.end.unixSeconds)
            let focused = min(max(0, s.focusedSeconds), Int(end - start))
            let status = SyncCodec.sessionStatus(s.status)
            let values: [(String, (any DatabaseValueConvertible)?)] = [
                ("taskId", taskID), ("subtaskId", subtaskID), ("startedAt", start), ("endedAt", end),
                ("plannedSeconds", max(0, s.plannedSeconds)), ("focusedSeconds", focused), ("status", status), ("note", s.note),
            ]
            if let existing {
                try db.execute(sql: "UPDATE OR IGNORE timeLog SET " + values.map { "\($0.0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
                               arguments: StatementArguments(values.map(\.1) + [existing]))
                result = .updated
            } else {
                // The same session may be here already under no shared name (both machines
                // imported one file): it becomes this one.
                try db.execute(sql: "INSERT OR IGNORE INTO timeLog (" + values.map(\.0).joined(separator: ", ") + ", createdAt, syncUid) VALUES (?"
                                   + String(repeating: ", ?", count: values.count + 1) + ")",
                               arguments: StatementArguments(values.map(\.1) + [now.unixSeconds, s.uid]))
                if db.changesCount == 0 {
                    try db.execute(sql: """
                        UPDATE OR IGNORE timeLog SET syncUid = ? WHERE taskId = ? AND ifnull(subtaskId, 0) = ifnull(?, 0) AND startedAt = ?
                        """, arguments: [s.uid, taskID, subtaskID, start])
                    try applyTags(s, db)
                    return .updated
                }
                result = .inserted
            }
            try applyTags(s, db)
        }
        try db.execute(sql: "UPDATE \(table) SET modifiedAt = ? WHERE syncUid = ?", arguments: [item.modified, item.uid])
        if item.kind != .session {
            // Back there (made again, or adopted by title): it travels again.
            try db.execute(sql: "UPDATE \(table) SET deletedElsewhere = 0 WHERE syncUid = ? AND deletedElsewhere = 1", arguments: [item.uid])
            try db.execute(sql: "DELETE FROM syncDeleted WHERE uid = ?", arguments: [item.uid])
        }
        if case .inserted = result { try moveIfKindChanged(item, db) }
        return result
    }

    /// Files the session named `s.uid` under `s.tags` (README, "Tags": tags travel with sync).
    private static func applyTags(_ s: SyncedSession, _ db: Database) throws {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM timeLog WHERE syncUid = ?", arguments: [s.uid]) else { return }
        try setTags(s.tags, session: id, db)
    }

    /// A task with a due date or estimate (another app's to-do without a parent, README "Two
    /// machines") has a stand-in subtask of its title that carries them, so it is planned; the
    /// stand-in is done when the to-do is. One whose due date and estimate went keeps its work,
    /// without them.
    private static func standIn(for t: SyncedTask, title: String, now: Date, _ db: Database) throws {
        guard let taskID = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [t.uid]) else { return }
        let uid = SyncIdentity.standInUID(taskUID: t.uid)
        let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM subtask WHERE syncUid = ?", arguments: [uid]) == true
        guard exists || t.due != nil || t.estimateSeconds != nil else { return }
        if !exists { try insertStandIn(taskID: taskID, uid: uid, title: title, now: now, db) }
        try db.execute(sql: "UPDATE subtask SET due = ?, estimateSeconds = ?, done = ? WHERE syncUid = ?",
                       arguments: [t.due?.unixSeconds, t.estimateSeconds.map { max(1, $0) }, t.archived ? 1 : 0, uid])
        try db.execute(sql: "UPDATE subtask SET modifiedAt = ? WHERE syncUid = ?", arguments: [t.modified, uid])
    }

    private static func insertStandIn(taskID: Int64, uid: String, title: String, now: Date, _ db: Database) throws {
        var titles = FreeTitles()
        let free = try titles.free(title, table: "subtask", parent: taskID, except: nil, db)
        try db.execute(sql: "INSERT INTO pathId DEFAULT VALUES")
        try db.execute(sql: "INSERT INTO subtask (id, taskId, title, titleKey, createdAt, syncUid) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [db.lastInsertedRowID, taskID, free, TaskCatalog.key(free), now.unixSeconds, uid])
    }

    /// An item whose kind changed (a to-do dragged under a task in another app, or out from
    /// under one) moves with its sessions (README): the row of the old kind that had its name
    /// gives its sessions (and a task its subtasks) to the new row, then goes. A task whose
    /// subtasks cannot all move (a title taken there) stays, without the name.
    private static func moveIfKindChanged(_ item: SyncItem, _ db: Database) throws {
        switch item {
        case .task:
            guard let old = try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE syncUid = ?", arguments: [item.uid]),
                  let new = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [item.uid]) else { return }
            try db.execute(sql: "UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = NULL WHERE subtaskId = ?", arguments: [new, old])
            try db.execute(sql: "DELETE FROM subtask WHERE id = ?", arguments: [old])
        case .subtask:
            guard let old = try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE syncUid = ?", arguments: [item.uid]),
                  let row = try Row.fetchOne(db, sql: "SELECT id, taskId FROM subtask WHERE syncUid = ?", arguments: [item.uid]) else { return }
            let (new, parent) = (row.id("id"), row.id("taskId"))
            try db.execute(sql: "UPDATE OR IGNORE subtask SET taskId = ? WHERE taskId = ? AND id <> ?", arguments: [parent, old, new])
            try db.execute(sql: "UPDATE OR IGNORE timeLog SET taskId = ?, subtaskId = ifnull(subtaskId, ?) WHERE taskId = ?", arguments: [parent, new, old])
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM subtask WHERE taskId = ?", arguments: [old]) == true {
                try db.execute(sql: "UPDATE task SET syncUid = NULL WHERE id = ?", arguments: [old])
            } else {
                try db.execute(sql: "DELETE FROM task WHERE id = ?", arguments: [old])
            }
        case .session:
            return
        }
    }

    /// What a sync would send now: items changed, added or removed since the versions agreed.
    package func pendingSyncCount() throws(FocusError) -> (changed: Int, added: Int, removed: Int) {
        let states = try syncStates()
        let local = try localSyncItems().items
        var changed = 0, added = 0
        let unnamed = try read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM task WHERE syncUid IS NULL) + (SELECT count(*) FROM subtask WHERE syncUid IS NULL)
                     + (SELECT count(*) FROM timeLog WHERE syncUid IS NULL)
                """) ?? 0
        }
        var differing: [String] = []
        for (uid, item) in local {
            if let state = states[uid] {
                if state.digest != item.digest { differing.append(uid) }
            } else {
                added += 1
            }
        }
        // A title told apart only here (`Buy milk (2)`) is not a change to send (README).
        let bases = try syncBases(differing)
        for uid in differing {
            let base = bases[uid].flatMap { try? SyncCodec.decode($0, zone: LocalCalendar(zone: .utc)) }
            guard let item = local[uid], let state = states[uid], SyncPlan.disambiguatedHere(item, theirs: base).digest == state.digest else {
                changed += 1
                continue
            }
        }
        let removed = states.keys.filter { local[$0] == nil }.count
        return (changed, added + unnamed, removed)
    }
}

/// Titles told apart here only (README: two to-dos "Buy milk" from another app are `Buy milk`
/// and `Buy milk (2)` here, never renamed there). Remembers the next number to try for each
/// title during one transaction, so that naming thousands of equal titles stays linear.
struct FreeTitles {
    private var next: [String: Int] = [:]

    /// `title`, or `title (2)`, `title (3)`… when another row already has that name.
    mutating func free(_ title: String, table: String, parent: Int64?, except id: Int64?, _ db: Database) throws -> String {
        var sql = "SELECT 1 FROM \(table) WHERE titleKey = ? AND id <> ?"
        if parent != nil { sql += " AND taskId = ?" }
        func taken(_ candidate: String) throws -> Bool {
            var args: StatementArguments = [TaskCatalog.key(candidate), id ?? -1]
            if let parent { args += [parent] }
            return try Bool.fetchOne(db, sql: sql, arguments: args) == true
        }
        guard try taken(title) else { return title }
        let key = "\(table)\u{1F}\(parent ?? 0)\u{1F}\(TaskCatalog.key(title))"
        var n = next[key] ?? 2
        while try taken("\(title) (\(n))") { n += 1 }
        next[key] = n + 1
        return "\(title) (\(n))"
    }
}
