import FocusCore
import FoundationEssentials
import Glibc
import FocusSQLite

/// What shell completion offers from a person's data (`focus start Th<Tab>`): read from the
/// database file read-only, never created, never migrated; nothing when it is missing or not
/// readable (completion must never fail or write).
package enum CompletionData {
    /// `Thesis`, `Thesis/Chapter 2`, …: open tasks and their open subtasks (with `all`, done and
    /// archived ones too), by title.
    package static func paths(databasePath: String, all: Bool = false) -> [String] {
        query(databasePath) { db in
            var result: [String] = []
            let tasks = try Row.fetchAll(db, sql: "SELECT id, title FROM task \(all ? "" : "WHERE archived = 0") ORDER BY titleKey LIMIT 2000")
            var titles: [Int64: String] = [:]
            for row in tasks {
                let title = row.text("title")
                titles[row.id("id")] = title
                result.append(title)
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT taskId, title FROM subtask WHERE seriesId IS NULL\(all ? "" : " AND done = 0") ORDER BY taskId, titleKey LIMIT 20000
                """) {
                if let task = titles[row.id("taskId")] { result.append(task + "/" + row.text("title")) }
            }
            return result
        } ?? []
    }

    /// The newest sessions' ids, newest first.
    package static func sessionIDs(databasePath: String, limit: Int = 50) -> [String] {
        query(databasePath) { db in
            try Row.fetchAll(db, sql: "SELECT id FROM timeLog ORDER BY startedAt DESC LIMIT ?", arguments: [limit]).map { String($0.id("id")) }
        } ?? []
    }

    /// Stored calendars' names.
    package static func calendarNames(databasePath: String) -> [String] {
        query(databasePath) { db in
            try Row.fetchAll(db, sql: "SELECT name FROM calendar ORDER BY nameKey").map { $0.text("name") }
        } ?? []
    }

    private static func query<T>(_ path: String, _ body: (Database) throws -> T) -> T? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(0.2)
        guard let queue = try? DatabaseQueue(path: path, configuration: config) else { return nil }
        return try? queue.read(body)
    }
}
