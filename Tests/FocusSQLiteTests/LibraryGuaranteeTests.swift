import FocusSQLite
import Foundation
import Testing

/// What a database library promises beyond reading and writing: misuse is a clear error (never
/// a deadlock, never SQL silently cut), every refused value surfaces, caches stay bounded, and a
/// writer in another process is waited for as configured.
@Suite struct LibraryGuaranteeTests {
    @Test func usingTheQueueFromInsideItsOwnWriteIsAnErrorNotADeadlock() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
        let error = try #require(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
            }
        }
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.message?.contains("from inside its own read or write") == true, "\(error)")
        // The outer write was rolled back whole, and the queue works after.
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t") } == [2])
    }

    @Test func aTransactionInsideAnotherIsRefusedAndTheOuterOneIsKeptOrUndoneWhole() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
        try queue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                let nested = try #require(throws: DatabaseError.self) { try db.inTransaction { try db.execute(sql: "INSERT INTO t VALUES (2)") } }
                #expect(nested.resultCode == .SQLITE_MISUSE)
                #expect(db.isInsideTransaction, "the outer transaction is still open")
            }
        }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t") } == [1])
    }

    @Test func sqlWithTwoStatementsRunsBothOrIsRefused() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);") }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") } == [1, 2])
        for sql in ["INSERT INTO t VALUES (3); INSERT INTO t VALUES (4)", "SELECT n FROM t; DELETE FROM t"] {
            let error = try #require(throws: DatabaseError.self) {
                try queue.write { db in _ = try Row.fetchAll(db, sql: sql) }
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message?.contains("more than one statement") == true)
            #expect(throws: DatabaseError.self) { try queue.write { db in _ = try db.cachedStatement(sql: sql) } }
        }
        // Trailing spaces, semicolons' neighbours and comments are not statements.
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t; -- all of them\n  ") } == 2)
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY n") } == [1, 2])
    }

    @Test func everyBindErrorSurfaces() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (s TEXT)") }
        // A value longer than the connection allows (https://sqlite.org/limits.html).
        try queue.writeWithoutTransaction { db in db.lengthLimit = 1000 }
        let huge = String(repeating: "x", count: 2000)
        for checked in [true, false] {
            let error = try #require(throws: DatabaseError.self) {
                try queue.write { db in
                    let insert = try db.cachedStatement(sql: "INSERT INTO t VALUES (?)")
                    if checked { try insert.setArguments([huge]) } else { try insert.setUncheckedArguments([huge]) }
                    try insert.execute()
                }
            }
            #expect(error.resultCode == .SQLITE_TOOBIG, "\(error)")
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func theStatementCacheIsBounded() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER)")
            let kept = try db.cachedStatement(sql: "SELECT count(*) FROM t")
            for rows in 1...500 {
                let sql = "INSERT INTO t VALUES " + Array(repeating: "(?)", count: rows).joined(separator: ", ")
                try db.cachedStatement(sql: sql).execute(arguments: StatementArguments((1...rows).map { $0 }))
                // The statement used all along stays cached (least recently used goes first).
                #expect(try db.cachedStatement(sql: "SELECT count(*) FROM t") === kept)
                #expect(db.cachedStatementCount <= Database.statementCacheCapacity)
            }
            #expect(db.cachedStatementCount == Database.statementCacheCapacity)
            #expect(try Int.fetchOne(kept) == 500 * 501 / 2)
        }
    }

    @Test func valuesAtTheLimitsOfEachTypeComeBackUnchanged() throws {
        let queue = try DatabaseQueue()
        let integers: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        let reals: [Double] = [-.greatestFiniteMagnitude, -1.5, -0.0, .leastNonzeroMagnitude, .ulpOfOne, 1e308, .greatestFiniteMagnitude, .infinity, -.infinity]
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE i (v INTEGER); CREATE TABLE r (v REAL); CREATE TABLE b (v BLOB)")
            for v in integers { try db.execute(sql: "INSERT INTO i VALUES (?)", arguments: [v]) }
            for v in reals { try db.execute(sql: "INSERT INTO r VALUES (?)", arguments: [v]) }
            for n in [0, 1, 1 << 20] { try db.execute(sql: "INSERT INTO b VALUES (?)", arguments: [Data((0..<n).map { UInt8($0 & 0xFF) })]) }
        }
        #expect(try queue.read { db in try Int64.fetchAll(db, sql: "SELECT v FROM i ORDER BY rowid") } == integers)
        let back = try queue.read { db in try Double.fetchAll(db, sql: "SELECT v FROM r ORDER BY rowid") }
        #expect(back == reals)
        #expect(back[2].sign == .minus || back[2] == 0, "negative zero stays a zero")
        let blobs = try queue.read { db in try Data.fetchAll(db, sql: "SELECT v FROM b ORDER BY rowid") }
        #expect(blobs.map(\.count) == [0, 1, 1 << 20])
        #expect(blobs.last?[300] == UInt8(300 & 0xFF))
        // NaN is stored as NULL by SQLite (https://sqlite.org/datatype3.html): read back as nil.
        try queue.write { db in try db.execute(sql: "INSERT INTO r VALUES (?)", arguments: [Double.nan]) }
        #expect(try queue.read { db in try Double.fetchOne(db, sql: "SELECT v FROM r ORDER BY rowid DESC LIMIT 1") } == nil)
        // Integers read as the C API converts them: a real beyond Int64 saturates.
        #expect(try queue.read { db in try Int64.fetchOne(db, sql: "SELECT CAST(1e300 AS INTEGER)") } == .max)
    }

    @Test func constraintFailuresCarryTheirExtendedCodes() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE p (id INTEGER PRIMARY KEY);
                CREATE TABLE c (id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id), name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n >= 0));
                INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 1, 'a', 0);
                """)
        }
        let cases: [(String, ResultCode)] = [
            ("INSERT INTO c VALUES (2, 1, NULL, 0)", .SQLITE_CONSTRAINT_NOTNULL),
            ("INSERT INTO c VALUES (2, 1, 'a', 0)", .SQLITE_CONSTRAINT_UNIQUE),
            ("INSERT INTO c VALUES (1, 1, 'b', 0)", .SQLITE_CONSTRAINT_PRIMARYKEY),
            ("INSERT INTO c VALUES (2, 1, 'b', -1)", .SQLITE_CONSTRAINT_CHECK),
            ("INSERT INTO c VALUES (2, 9, 'b', 0)", .SQLITE_CONSTRAINT_FOREIGNKEY),
        ]
        for (sql, code) in cases {
            let error = try #require(throws: DatabaseError.self) { try queue.write { db in try db.execute(sql: sql) } }
            #expect(error.extendedResultCode == code, "\(sql): \(error)")
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.sql == sql)
        }
    }

    /// A writer in another process (the sqlite3 shell) holds the write lock until told to let
    /// go: a connection without a busy timeout fails at once, one with a timeout waits for the
    /// other's commit and then writes after it.
    @Test func aWriterInAnotherProcessIsWaitedForOrRefusedAsConfigured() async throws {
        let dir = NSTemporaryDirectory() + "focus-busy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/busy.sqlite", release = dir + "/release", locked = dir + "/locked"
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
        // Both connections opened before the other process takes the lock (opening may write).
        var impatient = Configuration()
        impatient.busyMode = .immediateError
        let now = try DatabaseQueue(path: path, configuration: impatient)
        var patient = Configuration()
        patient.busyMode = .timeout(60)
        let waiting = try DatabaseQueue(path: path, configuration: patient)
        // The shell says when it holds the lock (a file made after its BEGIN IMMEDIATE succeeded;
        // `.bail on`: a failed BEGIN ends it instead), so this test never competes with it for
        // the lock it is waiting to see taken.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", """
            (echo '.bail on'; echo '.timeout 60000'; echo 'BEGIN IMMEDIATE; INSERT INTO t VALUES (1);'; echo '.shell touch \(locked)'; \
              while [ ! -e '\(release)' ] && [ -d '\(dir)' ]; do sleep 0.05; done; echo 'COMMIT;') \
              | sqlite3 '\(path)'
            """]
        try shell.run()
        defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: locked), shell.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(FileManager.default.fileExists(atPath: locked), "the sqlite3 shell never took the write lock (it exited: \(!shell.isRunning))")
        var refused: DatabaseError?
        do {
            try now.write { db in try db.execute(sql: "INSERT INTO t VALUES (0)") }
        } catch let e as DatabaseError { refused = e }
        let error = try #require(refused, "a writer without a busy timeout was not refused while the shell held the lock")
        #expect(error.resultCode == .SQLITE_BUSY)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = FileManager.default.createFile(atPath: release, contents: nil)
        }
        try waiting.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        // Written after the other process's commit, not before or instead of it.
        #expect(try waiting.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t ORDER BY rowid") } == [1, 2])
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }

    /// Switching to WAL while another connection holds the write lock: SQLite refuses the plain
    /// pragma at once, without its busy handler (https://sqlite.org/c3ref/busy_handler.html);
    /// `switchToWAL` waits for the other's commit instead, within the busy timeout.
    @Test func switchingToWALWaitsForAWriterInsteadOfFailingAtOnce() throws {
        let dir = NSTemporaryDirectory() + "focus-wal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/wal.sqlite"
        var config = Configuration()
        config.busyMode = .timeout(30)
        let writer = try DatabaseQueue(path: path, configuration: config)
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
        let switcher = try DatabaseQueue(path: path, configuration: config)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        let started = Date()
        let error = try #require(throws: DatabaseError.self) {
            try switcher.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        }
        #expect(error.resultCode == .SQLITE_BUSY)
        #expect(Date().timeIntervalSince(started) < 5, "SQLite waited on its own; the busy timeout is 30 s")
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            release.signal()
        }
        try switcher.writeWithoutTransaction { db in try db.switchToWAL() }
        done.wait()
        #expect(try switcher.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try writer.read { db in try Int.fetchAll(db, sql: "SELECT n FROM t") } == [1])
    }
}
