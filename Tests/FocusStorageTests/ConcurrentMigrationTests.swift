import FocusCore
import FocusStorage
import Foundation
import Synchronization
import FocusSQLite
import Testing

/// Several processes opening one database at once, each on a connection of its own (threads
/// here: SQLite's file locks work between connections as between processes). Creating and
/// migrating is one transaction that re-reads what is applied after taking the write lock.
@Suite struct ConcurrentMigrationTests {
    final class Folder {
        let path = NSTemporaryDirectory() + "focus-migrate-\(UUID().uuidString)"
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Runs `open` on `count` threads released together; each result, in thread order.
    static func together(_ count: Int, _ open: @escaping @Sendable () throws -> AppDatabase) -> [Result<AppDatabase, any Error>] {
        let results = Mutex<[Int: Result<AppDatabase, any Error>]>([:])
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), done = DispatchGroup()
        for i in 0..<count {
            done.enter()
            Thread.detachNewThread {
                ready.signal()
                go.wait()
                let r = Result { try open() }
                results.withLock { $0[i] = r }
                done.leave()
            }
        }
        for _ in 0..<count { ready.wait() }
        for _ in 0..<count { go.signal() }
        done.wait()
        return results.withLock { d in (0..<count).map { d[$0]! } }
    }

    static func applied(_ db: AppDatabase) throws -> [String] {
        try db.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
    }

    /// Every migration, as one process alone applies them.
    static let all: [String] = (try? applied(AppDatabase.inMemory())) ?? []

    @Test func threeOpenersOfANewFileAllGetTheSameMigratedDatabase() throws {
        for run in 0..<15 {
            let folder = try Folder()
            let path = folder.path + "/focus.sqlite"
            let results = Self.together(3) { try AppDatabase.open(path: path) }
            for r in results {
                switch r {
                case let .success(db):
                    #expect(try Self.applied(db) == Self.all, "run \(run)")
                    #expect(try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == AppDatabase.schemaVersion)
                case let .failure(error):
                    Issue.record("run \(run): \(error)")
                }
            }
        }
    }

    /// A database two versions behind, opened by four processes at once: the migrations it lacks
    /// are applied once (before: "duplicate column name: localFingerprint", exit 74).
    @Test func fourOpenersOfAnOldDatabaseUpgradeItOnce() throws {
        for run in 0..<10 {
            let folder = try Folder()
            let path = folder.path + "/focus.sqlite"
            do {
                let old = try DatabaseQueue(path: path)
                try AppDatabase.migrator.migrate(old, upTo: "v11-sync")
                try old.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA user_version = 10")
                    try db.execute(sql: "INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0)")
                }
                try old.close()
            }
            let results = Self.together(4) { try AppDatabase.open(path: path) }
            for r in results {
                switch r {
                case let .success(db):
                    let applied = try Self.applied(db)
                    #expect(applied == Self.all, "run \(run): \(applied)")
                    #expect(try db.read { try String.fetchAll($0, sql: "SELECT title FROM task") } == ["Thesis"])
                case let .failure(error):
                    Issue.record("run \(run): \(error)")
                }
            }
        }
    }

    /// An old process's half-made database (each migration was once committed on its own; it
    /// stopped after the first) is ours to finish, not "another program's".
    @Test func aDatabaseAnEarlierFocusBeganMakingIsFinished() throws {
        let folder = try Folder()
        let path = folder.path + "/focus.sqlite"
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v1-domain")
            try old.close()
        }
        let db = try AppDatabase.open(path: path)
        #expect(try Self.applied(db) == Self.all)
    }

    /// Another program's database, with tables and no record of focus's migrations, is refused
    /// and left as it was, also when found inside the migrating transaction.
    @Test func anotherProgramsDatabaseIsRefusedUnchanged() throws {
        let folder = try Folder()
        let path = folder.path + "/other.sqlite"
        do {
            let other = try DatabaseQueue(path: path)
            try other.write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT)") }
            try other.close()
        }
        let error = try #require(throws: FocusError.self) { try AppDatabase.open(path: path) }
        #expect(String(describing: error).contains("another program"))
        let check = try DatabaseQueue(path: path)
        #expect(try check.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") } == ["notes"])
    }
}
