import FocusCore
import FoundationEssentials
import FocusSQLite

/// Sessions' tags (README, "Tags"): the `tag` and `timeLogTag` tables of the v17 migration.
extension AppDatabase {
    /// A column of a query over `timeLog`: its tag names, one a line (NULL: none).
    static let tagNamesColumn = tagNames(of: "timeLog")

    /// `tagNamesColumn` for a query that names timeLog `table` (an alias).
    static func tagNames(of table: String) -> String {
        """
        (SELECT group_concat(tag.name, char(10)) FROM timeLogTag JOIN tag ON tag.id = timeLogTag.tagId
         WHERE timeLogTag.timeLogId = \(table).id)
        """
    }

    /// The tags of `tagNamesColumn`'s text, sorted.
    static func tags(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return SessionTags.sorted(text.split(separator: "\n").map(String.init))
    }

    /// The id of the tag `name` (ignoring case), made when there is none.
    static func tagID(_ name: String, _ db: Database) throws -> Int64 {
        let key = SessionTags.key(name)
        try db.cachedStatement(sql: "INSERT INTO tag (name, nameKey) VALUES (?, ?) ON CONFLICT (nameKey) DO NOTHING").execute(arguments: [name, key])
        guard let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM tag WHERE nameKey = ?"), arguments: [key]) else {
            throw FocusError.storeRule("a tag could not be saved")
        }
        return id
    }

    /// The id of the tag `name` (ignoring case), nil when no session was ever filed under it.
    static func existingTagID(_ name: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM tag WHERE nameKey = ?", arguments: [SessionTags.key(name)])
    }

    /// Files session `id` under exactly `tags`: those it has and keeps are not touched, so a
    /// synced session whose tags stay is not an edit.
    static func setTags(_ tags: [String], session id: Int64, _ db: Database) throws {
        // Prepared once per connection: a sync files thousands of sessions.
        let current = try Int64.fetchAll(db.cachedStatement(sql: "SELECT tagId FROM timeLogTag WHERE timeLogId = ?"), arguments: [id])
        var wanted: [Int64] = []
        for name in SessionTags.sorted(tags) { wanted.append(try tagID(name, db)) }
        for gone in current where !wanted.contains(gone) {
            try db.cachedStatement(sql: "DELETE FROM timeLogTag WHERE timeLogId = ? AND tagId = ?").execute(arguments: [id, gone])
        }
        for new in wanted where !current.contains(new) {
            try db.cachedStatement(sql: "INSERT INTO timeLogTag (timeLogId, tagId) VALUES (?, ?)").execute(arguments: [id, new])
        }
    }

    /// The tags of session `id`, sorted.
    static func tags(session id: Int64, _ db: Database) throws -> [String] {
        SessionTags.sorted(try String.fetchAll(db, sql: """
            SELECT tag.name FROM timeLogTag JOIN tag ON tag.id = timeLogTag.tagId WHERE timeLogTag.timeLogId = ?
            """, arguments: [id]))
    }

    /// The tags of the running session's row, one a line in `activeSession.tags`.
    static func activeTags(_ text: String?) -> [String] { tags(text) }

    /// The running session's tags as the row keeps them.
    static func activeTagsText(_ tags: [String]) -> String { SessionTags.sorted(tags).joined(separator: "\n") }
}
