import CSQLite
import Glibc
import Synchronization

/// Reads from a database.
package protocol DatabaseReader: AnyObject, Sendable {
    /// Runs `body` in a read-only transaction: it sees one state of the database throughout.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` with the connection and nothing around it (no transaction). Called again from
    /// inside `body` on the same thread, it throws (SQLITE_MISUSE) instead of waiting for itself.
    func withConnection<T>(_ body: (Database) throws -> T) throws -> T
}

/// Reads from and writes to a database.
package protocol DatabaseWriter: DatabaseReader {
    /// Runs `body` in one IMMEDIATE transaction: all of it is written, or none of it.
    func write<T>(_ body: (Database) throws -> T) throws -> T
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T
}

/// How far an online backup has gone, in pages.
package struct BackupProgress: Sendable {
    package var completedPageCount: Int
    package var totalPageCount: Int
}

extension DatabaseReader {
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { db in
            // The read is a transaction (one snapshot) with writes refused
            // (https://sqlite.org/pragma.html#pragma_query_only).
            if db.isInsideTransaction { return try body(db) }
            try db.execute(sql: "PRAGMA query_only = 1")
            defer { try? db.execute(sql: "PRAGMA query_only = 0") }
            return try db.inTransaction(.deferred) { try body(db) }
        }
    }

    /// Copies this database into `destination` with SQLite's online backup
    /// (https://sqlite.org/backup.html): all at once, or `pagesPerStep` pages at a time,
    /// telling `progress` after each step.
    package func backup(to destination: any DatabaseWriter, pagesPerStep: Int32 = -1, progress: ((BackupProgress) throws -> Void)? = nil) throws {
        try withConnection { source in
            try destination.withConnection { target in
                guard let backup = sqlite3_backup_init(target.sqliteConnection, "main", source.sqliteConnection, "main") else {
                    throw DatabaseError(code: sqlite3_extended_errcode(target.sqliteConnection), connection: target.sqliteConnection)
                }
                var finished = false
                defer { if !finished { sqlite3_backup_finish(backup) } }
                while true {
                    let code = sqlite3_backup_step(backup, pagesPerStep)
                    let total = Int(sqlite3_backup_pagecount(backup))
                    if code == SQLITE_DONE {
                        try progress?(BackupProgress(completedPageCount: total, totalPageCount: total))
                        break
                    }
                    guard code == SQLITE_OK else {
                        finished = true
                        sqlite3_backup_finish(backup)
                        throw DatabaseError(code: code, connection: target.sqliteConnection)
                    }
                    try progress?(BackupProgress(completedPageCount: total - Int(sqlite3_backup_remaining(backup)), totalPageCount: total))
                }
                finished = true
                let code = sqlite3_backup_finish(backup)
                guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: target.sqliteConnection) }
            }
        }
    }
}

/// One connection, used by one thread at a time: every call waits for the one before it.
/// The calls are not reentrant: a `read` inside a `write` of the same queue throws a
/// DatabaseError (SQLITE_MISUSE) saying so, where waiting for the lock would wait forever.
package final class DatabaseQueue: DatabaseWriter, @unchecked Sendable {
    private let database: Database
    private let lock = Lock()
    /// The thread inside `withConnection` (pthread_self(3)), 0 when none.
    private let holder = Atomic<UInt>(0)

    /// Opens (or, unless read-only, creates) the database file at `path`.
    package init(path: String, configuration: Configuration = Configuration()) throws {
        database = try Database(path: path, configuration: configuration)
    }

    /// A private in-memory database.
    package init(configuration: Configuration = Configuration()) throws {
        database = try Database(path: ":memory:", configuration: configuration)
    }

    /// Closes the connection now rather than when the queue is released (its files can then be
    /// renamed or removed). Nothing may use the queue after.
    package func close() throws {
        try withConnection { $0.close() }
    }

    package func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        let me = UInt(pthread_self())
        guard holder.load(ordering: .acquiring) != me else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the database was used again from inside its own read or write; this would wait for itself forever")
        }
        lock.lock()
        holder.store(me, ordering: .releasing)
        defer {
            holder.store(0, ordering: .releasing)
            lock.unlock()
        }
        return try body(database)
    }

    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection { db in try db.inTransaction(.immediate) { try body(db) } }
    }

    package func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withConnection(body)
    }
}

/// A pthread mutex (pthread_mutex_lock(3)).
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
