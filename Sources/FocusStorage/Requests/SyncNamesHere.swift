import FocusCore
import FocusSQLite

/// The rows here by sync name while a sync applies its changes (`SyncRowNames`): the names of
/// the tasks and subtasks are read once and kept as the apply names rows; sessions, of which
/// there may be a million while a sync brings a few, are looked up one by one.
final class SyncNamesHere: SyncRowNames {
    private let db: Database
    /// Read on first use, and again after a step that moved or removed names (`forget`).
    private var tasks: [String: Int64]?
    private var subtasks: [String: Int64]?

    init(_ db: Database) {
        self.db = db
    }

    func task(_ uid: String) throws -> Int64? { try taskNames()[uid] }

    func subtask(_ uid: String) throws -> Int64? { try subtaskNames()[uid] }

    func session(_ uid: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM timeLog WHERE syncUid = ?"), arguments: [uid])
    }

    func instance(series: Int64, period: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM subtask WHERE seriesId = ? AND periodStart = ?"),
                           arguments: [series, period])
    }

    func session(task: Int64, subtask: Int64?, start: Int64) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM timeLog WHERE taskId = ? AND ifnull(subtaskId, 0) = ? AND startedAt = ?
            """), arguments: [task, subtask ?? 0, start])
    }

    /// Row `id` of `kind` now has the name `uid` (made, or named again).
    func named(_ uid: String, _ kind: SyncKind, id: Int64) {
        switch kind {
        case .task: tasks?[uid] = id
        case .subtask: subtasks?[uid] = id
        case .session: break
        }
    }

    /// Rows moved or went (with what hangs off them): the names are read again when next asked.
    func forget() {
        tasks = nil
        subtasks = nil
    }

    private func taskNames() throws -> [String: Int64] {
        if let tasks { return tasks }
        let read = try Self.names(db, sql: "SELECT syncUid, id FROM task WHERE syncUid IS NOT NULL")
        tasks = read
        return read
    }

    private func subtaskNames() throws -> [String: Int64] {
        if let subtasks { return subtasks }
        let read = try Self.names(db, sql: "SELECT syncUid, id FROM subtask WHERE syncUid IS NOT NULL")
        subtasks = read
        return read
    }

    private static func names(_ db: Database, sql: String) throws -> [String: Int64] {
        var names: [String: Int64] = [:]
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() { names[row.text("syncUid")] = row.id("id") }
        return names
    }
}
