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
}
