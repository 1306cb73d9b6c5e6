import FocusCore
import FoundationEssentials
import FocusSQLite

/// The store. Owns every write as one named transaction; nothing is ever half-written.
package struct AppDatabase: Sendable {
    package let writer: any DatabaseWriter
    /// The file path, for messages (":memory:" in tests).
    package let path: String
    /// Makes the day's backup after the first committed write of each local day (live only).
    package var dailyBackup: DailyBackup?
    /// Told after every committed write (the environment re-plans after a command that wrote).
    package var onWrite: (@Sendable () -> Void)?
    /// Set when this process made the file (live only): what it created, the file first and then
    /// each folder it made, innermost first, and `data_version` once the schema was in place.
    package var creation: (paths: [String], dataVersion: Int)?

    /// Wraps a connection, running the migrator unless the schema is already current.
    package init(_ writer: any DatabaseWriter, path: String) throws(FocusError) {
        self.writer = writer
        self.path = path
        try migrateIfNeeded()
    }

    /// A fresh in-memory database (tests, benchmarks).
    package static func inMemory() throws(FocusError) -> AppDatabase {
        do {
            let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
            return try AppDatabase(queue, path: ":memory:")
        } catch let e as FocusError {
            throw e
        } catch {
            throw AppDatabase.map(error, path: ":memory:")
        }
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        // Another focus may hold the write lock for a moment (a checkpoint, an import): wait for it.
        config.busyMode = .timeout(6)
        config.label = "focus"
        config.prepareDatabase { db in
            // Read pages straight from the file's mapping instead of copying each into a page
            // cache of its own: a month's stats over a decade touch ~2 MB of the file, and the
            // copies, their allocations and page faults were a third of the command's time.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            // Each insert into timeLog fires triggers, so SQLite keeps a statement journal to
            // undo just that statement; as a temporary file it took 16 small writes per session
            // of an import (1.6 million system calls for 100k). In memory it costs nothing.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return config
    }

    private func migrateIfNeeded() throws(FocusError) {
        do {
            // The common case in one read, without the write lock.
            let version = try writer.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            if version == AppDatabase.schemaVersion { return }
            if version > AppDatabase.schemaVersion { throw FocusError.newerSchema(path: path) }
            // The version check, every migration and the version stamp in one IMMEDIATE
            // transaction: a second process opening a new or old file at the same moment waits
            // for this one and then finds the schema current (README, Files).
            let path = path
            try AppDatabase.migrator.migrate(writer, check: { db in
                try AppDatabase.needsMigration(db, path: path)
            }, stamp: { db in
                try db.execute(sql: "PRAGMA user_version = \(AppDatabase.schemaVersion)")
            })
        } catch let e as FocusError {
            throw e
        } catch {
            throw AppDatabase.map(error, path: path)
        }
    }

    /// Read inside the migrating transaction: whether the schema is behind (false when another
    /// process brought it up to date meanwhile). A newer schema, or a database focus did not
    /// make (tables, but no version and no record of focus's migrations), is refused unchanged.
    static func needsMigration(_ db: Database, path: String) throws -> Bool {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version == AppDatabase.schemaVersion { return false }
        if version > AppDatabase.schemaVersion { throw FocusError.newerSchema(path: path) }
        if version == 0 {
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            // A file an earlier focus began making (it committed each migration on its own) goes on.
            if !tables.isEmpty, !tables.contains("grdb_migrations") {
                throw FocusError.corruptDatabase(path: path, reason: "it is an SQLite database of another program")
            }
        }
        return true
    }

    /// Runs a read, mapping SQLite's errors to focus's.
    package func read<T>(_ body: (Database) throws -> T) throws(FocusError) -> T {
        do {
            return try writer.read { db in try body(db) }
        } catch let e as FocusError {
            throw e
        } catch {
            throw AppDatabase.map(error, path: path, access: .read)
        }
    }

    /// Runs one IMMEDIATE transaction: all of it is written, or none of it.
    package func write<T>(_ body: (Database) throws -> T) throws(FocusError) -> T {
        do {
            let result = try writer.write { db in try body(db) }
            onWrite?()
            dailyBackup?.afterWrite(self)
            return result
        } catch let e as FocusError {
            throw e
        } catch {
            throw AppDatabase.map(error, path: path)
        }
    }

    /// A constraint failure in words: SQLite's own text (`UNIQUE constraint failed: index
    /// 'timeLog_identity'`) names schema internals, never shown as it is.
    static func constraint(_ db: DatabaseError) -> FocusError {
        let message = db.message ?? ""
        if message.contains("timeLog_identity") || message.contains("timeLog.") && db.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return .duplicateSession(path: nil, start: nil)
        }
        switch db.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            if message.contains("task.titleKey") { return .storeRule("a task with that name already exists") }
            if message.contains("subtask.") { return .storeRule("its task already has a subtask with that name") }
            if message.contains("calendar.") { return .storeRule("a calendar with that name already exists") }
            return .storeRule("it would record something twice")
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return .storeRule("it refers to a task, subtask, block or calendar that is not there")
        case .SQLITE_CONSTRAINT_NOTNULL:
            return .storeRule("a value that is required is missing")
        case .SQLITE_CONSTRAINT_CHECK:
            if message.contains("instr(title") { return .storeRule("a task name cannot contain '/'") }
            if message.contains("title") || message.contains("name") { return .storeRule("a name cannot be empty") }
            return .storeRule("a value is out of range (a time before its start, a negative length or an unknown status)")
        default:
            return .storeRule("it breaks one of the database's rules")
        }
    }

    /// Turns an SQLite error into the sentence and exit code a person gets; `access` is what the
    /// command was doing (a read that fails says "cannot read", never "cannot write").
    package static func map(_ error: any Error, path: String, access: IOAccess = .write) -> FocusError {
        if let e = error as? FocusError { return e }
        guard let db = error as? DatabaseError else {
            return .io(path: path, reason: String(describing: error), access: access)
        }
        switch db.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .databaseLocked(path: path)
        case .SQLITE_NOTADB:
            return .corruptDatabase(path: path, reason: "the file is not an SQLite database")
        case .SQLITE_CORRUPT:
            return .corruptDatabase(path: path, reason: "the database file is damaged")
        case .SQLITE_FULL:
            return .io(path: path, reason: diagnosis(path: path) ?? "the disk is full; free some space and try again (nothing was written)")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return .io(path: path, reason: diagnosis(path: path) ?? "permission denied or read-only file system", access: access)
        case .SQLITE_CANTOPEN:
            return .io(path: path, reason: diagnosis(path: path) ?? "the file cannot be opened (check the directory exists and is writable)", access: .open)
        case .SQLITE_IOERR:
            let reason = lostWriteAheadLog(path: path) ?? diagnosis(path: path) ?? "input/output error (\(db.message ?? "disk error"))"
            return .io(path: path, reason: reason, access: access)
        case .SQLITE_CONSTRAINT:
            return constraint(db)
        default:
            return .io(path: path, reason: db.message ?? "SQLite error \(db.resultCode.rawValue)", access: access)
        }
    }
}
