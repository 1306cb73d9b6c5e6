import FocusCore
import FoundationEssentials
import FocusSQLite

/// What an import did.
package struct ImportSummary: Sendable, Equatable {
    /// Sessions added.
    package var imported = 0
    /// Sessions skipped because the store already had them (same task, subtask and start).
    package var alreadyPresent = 0
    package var createdTasks = 0
    package var createdSubtasks = 0

    package init(imported: Int = 0, alreadyPresent: Int = 0, createdTasks: Int = 0, createdSubtasks: Int = 0) {
        self.imported = imported
        self.alreadyPresent = alreadyPresent
        self.createdTasks = createdTasks
        self.createdSubtasks = createdSubtasks
    }
}

extension AppDatabase {
    /// Imports sessions in one transaction: `produce` is called once and hands every session to
    /// the `insert` function it is given. Tasks and subtasks are found by title
    /// (case-insensitively) or created; a session the store already has (the identity index:
    /// task, subtask, start) is skipped, so re-importing a file adds nothing twice. Anything
    /// `produce` throws rolls the whole import back.
    /// `sameTimesArePresent`: a session whose start and end are those of one already in the
    /// log is already present, whatever its task (another tracker's interval imported again
    /// with other `--map` rules is the same interval, not more time).
    /// `batchSize`: sessions per INSERT (`SessionImporter.batchSize` when nil); 1 is the plain
    /// path, one row per statement, that a test holds the batches to.
    package func importSessions(
        now: Date, sameTimesArePresent: Bool = false, batchSize: Int? = nil,
        _ produce: (_ insert: (SessionRecord) throws -> Void) throws -> Void
    ) throws(FocusError) -> ImportSummary {
        try write { db in
            // The whole import is one transaction: with SQLite's default 2 MB page cache its
            // dirty pages spilled to the WAL again and again (half the time of a 100k import).
            // 64 MB holds the working set of a large import; the default comes back after.
            try db.execute(sql: "PRAGMA cache_size = -65536")
            defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
            let importer = try SessionImporter(db, now: now, batchSize: max(1, batchSize ?? SessionImporter.batchSize))
            let sameTimes = sameTimesArePresent ? try db.cachedStatement(sql: "SELECT 1 FROM timeLog WHERE startedAt = ? AND endedAt = ? LIMIT 1") : nil
            try produce { record in
                if let sameTimes, try Row.fetchOne(sameTimes, arguments: [record.start, record.end]) != nil {
                    importer.summary.alreadyPresent += 1
                    return
                }
                try importer.insert(record)
            }
            try importer.flush()
            return importer.summary
        }
    }

    /// Streams the sessions that start in `[from, to)` (either end open when nil), oldest
    /// first, to `body`; returns how many. Reads one row at a time: memory stays flat
    /// whatever the size of the history.
    @discardableResult
    package func exportSessions(from: Date?, to: Date?, _ body: (SessionRecord) throws -> Void) throws(FocusError) -> Int {
        try exportSessions(from: from, to: to) { record, _ in try body(record) }
    }

    /// How many sessions `exportSessions(from:to:)` would write now (for a progress line's total).
    package func exportCount(from: Date?, to: Date?) throws(FocusError) -> Int {
        try read { db in
            var sql = "SELECT count(*) FROM timeLog"
            var conditions: [String] = []
            var args: StatementArguments = []
            if let from { conditions.append("startedAt >= ?"); args += [from.unixSeconds] }
            if let to { conditions.append("startedAt < ?"); args += [to.unixSeconds] }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            return try Int.fetchOne(db, sql: sql, arguments: args) ?? 0
        }
    }

    /// As `exportSessions(from:to:_:)`, each session with its identity (the task and subtask
    /// ids of the identity index; with the start they name the session while it exists).
    @discardableResult
    package func exportSessions(
        from: Date?, to: Date?, identified body: (SessionRecord, SessionIdentity) throws -> Void
    ) throws(FocusError) -> Int {
        // An export reads the whole table once: through the mapping every page of the file
        // would stay resident (146 MB for a million sessions); the small page cache keeps
        // memory flat instead. Stats, which read a window, keep the mapping.
        do {
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA mmap_size = 0") }
        } catch {
            throw AppDatabase.map(error, path: path)
        }
        return try read { db in
            var names = TitleCache()
            // Tags are looked up only when some session has one: an untagged history pays nothing.
            let tagged = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM timeLogTag)") ?? false
            var sql = "SELECT taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, note, syncUid"
                + (tagged ? ", \(AppDatabase.tagNamesColumn)" : "") + " FROM timeLog"
            var conditions: [String] = []
            var args: StatementArguments = []
            if let from { conditions.append("startedAt >= ?"); args += [from.unixSeconds] }
            if let to { conditions.append("startedAt < ?"); args += [to.unixSeconds] }
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY startedAt, id"
            let rows = try Row.fetchCursor(db, sql: sql, arguments: args)
            var count = 0
            while let row = try rows.next() {
                let taskID = row.id(0)
                let syncUID = row.optionalText(8)
                let subtaskID = row.optionalID(1)
                let (start, end) = StoredNumber.session(start: row.storedInteger(2), end: row.storedInteger(3))
                let record = SessionRecord(
                    task: try names.task(taskID, db), subtask: try subtaskID.map { id in try names.subtask(id, db) },
                    start: start, end: end, status: SessionStatus(rawValue: row.text(6)) ?? .interrupted,
                    focusedSeconds: min(row.seconds(5), Int(end - start)), plannedSeconds: row.seconds(4), note: row.optionalText(7),
                    tags: tagged ? AppDatabase.tags(row.optionalText(9)) : [])
                try body(record, SessionIdentity(taskID: taskID, subtaskID: subtaskID, start: record.start, syncUID: syncUID))
                count += 1
            }
            return count
        }
    }
}

/// What makes a session itself in the store (the `timeLog_identity` index): re-importing
/// the same history never adds a second session with the same identity.
package struct SessionIdentity: Sendable, Hashable {
    package var taskID: Int64
    package var subtaskID: Int64?
    /// Unix seconds.
    package var start: Int64
    /// The session's sync name (README, "Two machines"), the same on every machine; nil
    /// before its first sync.
    package var syncUID: String?

    package init(taskID: Int64, subtaskID: Int64?, start: Int64, syncUID: String? = nil) {
        self.taskID = taskID
        self.subtaskID = subtaskID
        self.start = start
        self.syncUID = syncUID
    }
}

/// Task and subtask titles by id, looked up once each (a window names a handful of them).
struct TitleCache {
    private var tasks: [Int64: String] = [:]
    private var subtasks: [Int64: String] = [:]

    mutating func task(_ id: Int64, _ db: Database) throws -> String {
        if let title = tasks[id] { return title }
        let title = try String.fetchOne(db.cachedStatement(sql: "SELECT title FROM task WHERE id = ?"), arguments: [id]) ?? "#\(id)"
        tasks[id] = title
        return title
    }

    mutating func subtask(_ id: Int64, _ db: Database) throws -> String {
        if let title = subtasks[id] { return title }
        let title = try String.fetchOne(db.cachedStatement(sql: "SELECT title FROM subtask WHERE id = ?"), arguments: [id]) ?? "#\(id)"
        subtasks[id] = title
        return title
    }
}

/// The inside of one import transaction: prepared statements and the ids of every task and
/// subtask title met so far.
private final class SessionImporter {
    let db: Database
    let now: Int64
    var summary = ImportSummary()
    /// Task ids by title key.
    var taskIDs: [String: Int64] = [:]
    /// Subtask ids by task id, then title key.
    var subtaskIDs: [Int64: [String: Int64]] = [:]

    /// Sessions are inserted `batchSize` at a time, by one statement: an insert that fires
    /// triggers keeps a statement journal to undo just itself, and copying each page it touches
    /// there first was a third of the work of a one-row insert (docs/PERFORMANCE.md, "Fast paths").
    static let batchSize = 64
    let batchSize: Int
    /// Sessions resolved to ids, waiting for the next batch.
    var pending: [(task: Int64, subtask: Int64?, record: SessionRecord)] = []
    let insertBatch: Statement
    let insertPathID: Statement
    let insertTask: Statement
    let insertSubtask: Statement
    let findSession: Statement

    init(_ db: Database, now: Date, batchSize: Int) throws {
        self.db = db
        self.now = now.unixSeconds
        self.batchSize = batchSize
        for row in try Row.fetchAll(db, sql: "SELECT id, titleKey FROM task") {
            taskIDs[row.text(1)] = row.id(0)
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, taskId, titleKey FROM subtask") {
            subtaskIDs[row.id(1), default: [:]][row.text(2)] = row.id(0)
        }
        pending.reserveCapacity(batchSize)
        insertBatch = try db.makeStatement(sql: Self.insertSQL(rows: batchSize))
        insertPathID = try db.cachedStatement(sql: "INSERT INTO pathId DEFAULT VALUES")
        insertTask = try db.cachedStatement(sql: "INSERT INTO task (id, title, titleKey, createdAt) VALUES (?, ?, ?, ?)")
        insertSubtask = try db.cachedStatement(sql: "INSERT INTO subtask (id, taskId, title, titleKey, createdAt) VALUES (?, ?, ?, ?, ?)")
        findSession = try db.cachedStatement(sql: "SELECT id FROM timeLog WHERE taskId = ? AND ifnull(subtaskId, 0) = ifnull(?, 0) AND startedAt = ?")
    }

    /// Only the identity index may turn an insert into a no-op: every other rule of the table
    /// still fails loudly (unlike INSERT OR IGNORE, which would hide a broken CHECK).
    static func insertSQL(rows: Int) -> String {
        "INSERT INTO timeLog (taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, note, createdAt) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT DO NOTHING"
    }

    func insert(_ r: SessionRecord) throws {
        let taskID = try task(r.task)
        let subtaskID = try r.subtask.map { try subtask($0, of: taskID) }
        pending.append((taskID, subtaskID, r))
        if pending.count == batchSize { try flush() }
    }

    /// Inserts the pending sessions: the values are bound through SQLite's C API
    /// (`StatementArguments` box each value).
    func flush() throws {
        guard !pending.isEmpty else { return }
        let statement = pending.count == batchSize ? insertBatch : try db.makeStatement(sql: Self.insertSQL(rows: pending.count))
        statement.clearBindings()
        for (k, p) in pending.enumerated() {
            let i = Int32(k * 9)
            try statement.bind(p.task, at: i + 1)
            if let sub = p.subtask { try statement.bind(sub, at: i + 2) }
            try statement.bind(p.record.start, at: i + 3)
            try statement.bind(p.record.end, at: i + 4)
            try statement.bind(Int64(p.record.plannedSeconds), at: i + 5)
            try statement.bind(Int64(p.record.focusedSeconds), at: i + 6)
            try statement.bind(p.record.status.rawValue, at: i + 7)
            if let note = p.record.note { try statement.bind(note, at: i + 8) }
            try statement.bind(now, at: i + 9)
        }
        let changes = try statement.run()
        summary.imported += changes
        summary.alreadyPresent += pending.count - changes
        // Tags go on the session, new or already there (a re-import adds what the file has and
        // the session lacks, once: README "Tags").
        for p in pending where !p.record.tags.isEmpty {
            guard let id = try Int64.fetchOne(findSession, arguments: [p.task, p.subtask, p.record.start]) else { continue }
            let current = try AppDatabase.tags(session: id, db)
            let merged = SessionTags.edited(current, adding: p.record.tags, removing: [])
            if merged != current { try AppDatabase.setTags(merged, session: id, db) }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func nextPathID() throws -> Int64 {
        try insertPathID.execute()
        return db.lastInsertedRowID
    }

    private func task(_ title: String) throws -> Int64 {
        let key = TaskCatalog.key(title)
        let id: Int64
        if let found = taskIDs[key] {
            id = found
        } else {
            id = try nextPathID()
            try insertTask.setUncheckedArguments([id, title, key, now])
            try insertTask.execute()
            taskIDs[key] = id
            summary.createdTasks += 1
        }
        return id
    }

    private func subtask(_ title: String, of taskID: Int64) throws -> Int64 {
        let key = TaskCatalog.key(title)
        let id: Int64
        if let found = subtaskIDs[taskID]?[key] {
            id = found
        } else {
            id = try nextPathID()
            try insertSubtask.setUncheckedArguments([id, taskID, title, key, now])
            try insertSubtask.execute()
            subtaskIDs[taskID, default: [:]][key] = id
            summary.createdSubtasks += 1
        }
        return id
    }
}
