import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// The items a sync read but could not apply (`AppliedSync.skippedUIDs`), by name, with
    /// their address there: the next sync reads them again.
    package func syncRetries() throws(FocusError) -> [String: String] {
        try read { db in
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uid, url FROM syncRetry") { out[row.text("uid")] = row.text("url") }
            return out
        }
    }

    /// Replaces the items to read again with `retries` (`applySync` keeps them so).
    package func replaceSyncRetries(_ retries: [String: String]) throws(FocusError) {
        try write { db in try AppDatabase.replaceSyncRetries(retries, db) }
    }

    static func replaceSyncRetries(_ retries: [String: String], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncRetry")
        for (uid, url) in retries.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT INTO syncRetry (uid, url) VALUES (?, ?)", arguments: [uid, url])
        }
    }
}
