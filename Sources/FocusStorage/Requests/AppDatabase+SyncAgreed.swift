import FocusCore
import FoundationEssentials
import FocusSQLite

/// A field changed on both machines, as `focus sync status` shows it.
package struct StoredConflict: Sendable, Equatable {
    package var label: String
    package var conflict: SyncConflict
    package var at: Date
}

extension AppDatabase {
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
}
