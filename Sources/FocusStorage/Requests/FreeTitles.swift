import FocusCore
import FocusSQLite

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
