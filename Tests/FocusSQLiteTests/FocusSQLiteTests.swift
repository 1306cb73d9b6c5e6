import FocusSQLite
import Foundation
import Testing

/// The SQLite layer focus's store stands on: what goes in comes out, a failed write leaves
/// nothing, the migrations of databases made before it go on where they were.
@Suite struct FocusSQLiteTests {
    final class TempFile {
        let dir = NSTemporaryDirectory() + "focus-sqlite-\(UUID().uuidString)"
        var path: String { dir + "/test.sqlite" }
        init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: dir) }
    }

    @Test func everyKindOfValueComesBackAsItWent() throws {
        let queue = try DatabaseQueue()
        let texts = ["", "plain", "nul\u{0}inside", "👩‍💻 café", String(repeating: "x", count: 100_000)]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB)")
            for s in texts {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [Int64.max, 0.5, s, Data(s.utf8)])
            }
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [nil, nil, nil, Data()])
        }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT i, r, s, b, typeof(s) AS kind FROM t ORDER BY rowid") }
        #expect(rows.count == texts.count + 1)
        for (row, s) in zip(rows, texts) {
            #expect(row["i"] as Int64? == .max)
            #expect(row["r"] as Double? == 0.5)
            #expect(row["s"] as String? == s)
            #expect(row["b"] as Data? == Data(s.utf8))
            #expect(row["kind"] as String? == "text", "an empty string stays text, never NULL")
        }
        let last = try #require(rows.last)
        #expect(last["i"] as Int64? == nil)
        #expect((last["s"] as DatabaseValue?)?.isNull == true)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT s FROM t ORDER BY rowid") } == texts)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE b IS NULL") } == 0)
    }

    @Test func columnsAreFoundByNameWhateverTheirCase() throws {
        let queue = try DatabaseQueue()
        let row = try #require(try queue.read { db in try Row.fetchOne(db, sql: "SELECT 1 AS taskId, 'x' AS Title") })
        #expect(row["taskId"] as Int? == 1)
        #expect(row["taskid"] as Int? == 1)
        #expect(row["title"] as String? == "x")
        #expect(row["missing"] as Int? == nil)
        #expect(row[5] as Int? == nil)
    }

    @Test func oneExecuteRunsEveryStatementWithItsOwnArguments() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE t (n INTEGER); -- a comment
                INSERT INTO t VALUES (?); INSERT INTO t VALUES (?), (?);
                """, arguments: [1, 2, 3])
        }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") } == [1, 2, 3])
        for arguments: StatementArguments in [[1], [1, 2, 3]] {
            #expect(throws: DatabaseError.self) {
                try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?), (?)", arguments: arguments) }
            }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 3)
    }

    @Test func aWriteThatThrowsLeavesNothingAndAReadWritesNothing() throws {
        struct Stop: Error {}
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER UNIQUE)") }
        #expect(throws: Stop.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2), (2)") }
        }
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(error.message?.contains("t.n") == true)
        #expect(throws: DatabaseError.self) {
            try queue.read { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
        // The connection is usable after each failure, and writes again.
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (4)") }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t") } == [4])
    }

    @Test func cachedStatementsAndCursorsReadEachRowOnce() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?)")
            for n in 1...100 {
                try insert.setUncheckedArguments([n])
                try insert.execute()
                #expect(db.lastInsertedRowID == Int64(n))
            }
            #expect(try db.cachedStatement(sql: "INSERT INTO t VALUES (?)") === insert)
            try db.execute(sql: "DELETE FROM t WHERE n > 90")
            #expect(db.changesCount == 10)
        }
        let sum = try queue.read { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT n FROM t WHERE n > ? ORDER BY n", arguments: [80])
            var seen: [Int] = []
            while let row = try cursor.next() { seen.append(row[0]) }
            #expect(try cursor.next() == nil)
            return seen
        }
        #expect(sum == Array(81...90))
    }

    @Test func aFileThatIsNotADatabaseSaysSoWhenOpened() throws {
        let file = try TempFile()
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: file.path))
        let error = try #require(throws: DatabaseError.self) { try DatabaseQueue(path: file.path) }
        #expect(error.resultCode == .SQLITE_NOTADB)
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: file.dir + "/missing/x.sqlite")
        }
        var readOnly = Configuration()
        readOnly.readonly = true
        let missing = try #require(throws: DatabaseError.self) { try DatabaseQueue(path: file.dir + "/absent.sqlite", configuration: readOnly) }
        #expect(missing.resultCode == .SQLITE_CANTOPEN)
        #expect(!FileManager.default.fileExists(atPath: file.dir + "/absent.sqlite"))
    }

    @Test func anotherConnectionsWriteIsWaitedForOrRefusedAsConfigured() throws {
        let file = try TempFile()
        let holder = try DatabaseQueue(path: file.path)
        try holder.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
        var impatient = Configuration()
        impatient.busyMode = .immediateError
        let other = try DatabaseQueue(path: file.path, configuration: impatient)
        try holder.withConnection { db in try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO t VALUES (1)") }
        let error = try #require(throws: DatabaseError.self) {
            try other.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(error.resultCode == .SQLITE_BUSY)
        try holder.withConnection { db in try db.execute(sql: "COMMIT") }
        try other.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try holder.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") } == [1, 2])
    }

    @Test func foreignKeysAreEnforcedOnEveryConnection() throws {
        let queue = try DatabaseQueue()
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id))")
        }
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO c VALUES (7)") }
        }
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    }
}

extension FocusSQLiteTests {
    static func migrator(failing: Bool = false) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id))")
        }
        migrator.registerMigration("v2-rebuild") { db in
            // Rebuilding a referenced table, as SQLite's documentation says to: foreign keys off.
            try db.execute(sql: """
                INSERT INTO p VALUES (1); INSERT INTO c VALUES (1);
                CREATE TABLE p2 (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO p2 (id) SELECT id FROM p;
                DROP TABLE p; ALTER TABLE p2 RENAME TO p;
                """)
            if failing { try db.execute(sql: "DELETE FROM p") }
        }
        return migrator
    }

    @Test func migrationsRunOnceInOrderAndAreRecordedWhereEarlierDatabasesKeptThem() throws {
        let queue = try DatabaseQueue()
        try Self.migrator().migrate(queue, upTo: "v1")
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") } == ["v1"])
        try Self.migrator().migrate(queue)
        try Self.migrator().migrate(queue)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") } == ["v1", "v2-rebuild"])
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM c") } == 1)
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func aMigrationThatBreaksAForeignKeyIsUndoneWhole() throws {
        let queue = try DatabaseQueue()
        try Self.migrator().migrate(queue, upTo: "v1")
        let error = try #require(throws: DatabaseError.self) { try Self.migrator(failing: true).migrate(queue) }
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") } == ["v1"])
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'p2'") } == 0)
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func anOnlineBackupCopiesEveryPageAndSaysHowFarItGot() throws {
        let file = try TempFile()
        let source = try DatabaseQueue()
        try source.write { db in
            try db.execute(sql: "CREATE TABLE t (s TEXT)")
            for _ in 0..<200 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "x", count: 1000)]) }
        }
        let target = try DatabaseQueue(path: file.path)
        var steps: [BackupProgress] = []
        try source.backup(to: target, pagesPerStep: 10) { steps.append($0) }
        #expect(steps.count > 2)
        #expect(steps.last.map { $0.completedPageCount == $0.totalPageCount } == true)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.completedPageCount <= $1.completedPageCount })
        #expect(try target.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 200)
    }
}
