import FocusCLI
import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Backups need a real file: these run commands against the live environment on a database in a
/// temporary directory, with `FOCUS_NOW` moving the days.
final class FileWorld {
    let dir: TempDir
    let console = RecordingConsole(width: 80)
    var db: String { dir.path + "/data/focus.sqlite" }

    init() throws {
        dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/config/focus", withIntermediateDirectories: true)
        _ = try dir.file("config/focus/config.toml", "notifications = false\nbell = false\n")
    }

    /// Runs a command line as if it were `now` (ISO 8601) in Berlin (a step whose result the
    /// test does not need may ignore it).
    @discardableResult
    func run(_ arguments: String..., now: String) async -> (code: Int32, out: String, err: String) {
        await run(arguments, now: now)
    }

    @discardableResult
    func run(_ arguments: [String], now: String) async -> (code: Int32, out: String, err: String) {
        let environment = ["FOCUS_DB": db, "FOCUS_NOW": now, "TZ": "Europe/Berlin", "HOME": dir.path,
                           "XDG_CONFIG_HOME": dir.path + "/config"]
        let outBefore = console.stdout.count
        let errBefore = console.stderr.count
        let console = self.console
        let code = await FocusMain.run(arguments: arguments, console: console) { global throws(FocusError) in
            try FocusEnvironment.live(global: global, environment: environment, console: console)
        }
        return (code, String(console.stdout.dropFirst(outBefore)), String(console.stderr.dropFirst(errBefore)))
    }

    /// `log add Thesis` starting at `start` (Berlin), 25 minutes, as if it were `now`.
    @discardableResult
    func logSession(_ start: String, now: String) async -> Int32 {
        await run("log", "add", "Thesis", "--start", start, "--duration", "25m", "--allow-future", now: now).code
    }

    func backupNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path + "/data").filter { $0.contains(".backup-") }.sorted()
    }

    static func sessions(in path: String) throws -> Int {
        var config = Configuration()
        config.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: config)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM timeLog") ?? -1 }
    }

    /// Runs SQL on a database file outside focus.
    static func execute(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    static func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}

@Suite struct BackupCommandTests {
    static func day(_ d: Int) -> String { d < 10 ? "2026-11-0\(d)" : "2026-11-\(d)" }

    @Test func theFirstWriteOfEachDayMakesOnePrivateBackupAndTheNewestSevenAreKept() async throws {
        let w = try FileWorld()
        #expect(await w.run("task", "add", "Thesis", now: "2026-11-01T07:00:00Z").code == 0)
        for d in 1...9 {
            let now = "\(Self.day(d))T10:00:00Z"
            #expect(await w.logSession("\(Self.day(d)) 08:00", now: now) == 0)
            let first = try FileWorld.bytes(w.db + ".backup-\(Self.day(d))")
            #expect(await w.logSession("\(Self.day(d)) 09:00", now: now) == 0)
            // A second write the same day leaves the day's backup alone.
            #expect(try FileWorld.bytes(w.db + ".backup-\(Self.day(d))") == first)
        }
        #expect(try w.backupNames() == (3...9).map { "focus.sqlite.backup-\(Self.day($0))" })
        for name in try w.backupNames() {
            #expect(try FileWorld.mode(w.dir.path + "/data/" + name) == 0o600)
        }
        // Each is the database as it was after the day's first write.
        #expect(try FileWorld.sessions(in: w.db + ".backup-2026-11-05") == 9)
        #expect(try FileWorld.sessions(in: w.db) == 18)
    }

    @Test func readingCommandsAndFailingWritesMakeNoBackup() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "list", now: now).code == 0)
        #expect(await w.run("stats", "--last", "7", now: now).code == 0)
        #expect(await w.run("status", now: now).code == 0)
        #expect(await w.logSession("2026-11-22 08:00", now: now) == 64)  // no task "Thesis" yet
        // The failed write left no database (nor its folder), so no backup either.
        #expect(!FileManager.default.fileExists(atPath: w.db))
        #expect(!FileManager.default.fileExists(atPath: w.dir.path + "/data"))
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        #expect(try w.backupNames() == ["focus.sqlite.backup-2026-11-22"])
    }

    @Test func backupWritesTodaysCopyOrANamedFileAndWillNotOverwriteOneUnasked() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        await w.run("task", "add", "Thesis", now: now)
        await w.logSession("2026-11-22 08:00", now: now)
        let today = await w.run("backup", now: now)
        #expect(today.code == 0)
        #expect(today.out.hasPrefix("Backed up \(w.db) to \(w.db).backup-2026-11-22 (1 session, "))
        #expect(try FileWorld.sessions(in: w.db + ".backup-2026-11-22") == 1)

        let named = w.dir.path + "/mine.sqlite"
        #expect(await w.run("backup", named, now: now).code == 0)
        #expect(try FileWorld.mode(named) == 0o600)
        let again = await w.run("backup", named, now: now)
        #expect(again.code == 64)
        #expect(again.err == "focus: error: \(named) already exists. Pick another name, or add --force to replace it.\n")
        #expect(await w.run("backup", named, "--force", now: now).code == 0)
        // The copy is one self-contained file, not a WAL database needing companions.
        #expect(!FileManager.default.fileExists(atPath: named + "-wal"))
        #expect(try FileWorld.sessions(in: named) == 1)
    }

    @Test func restoreBringsBackABackupAndKeepsTheReplacedDatabaseAside() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        await w.run("task", "add", "Thesis", now: now)
        await w.logSession("2026-11-22 07:00", now: now)
        await w.logSession("2026-11-22 08:00", now: now)
        let saved = w.dir.path + "/saved.sqlite"
        #expect(await w.run("backup", saved, now: now).code == 0)
        await w.logSession("2026-11-22 09:00", now: now)

        let r = await w.run("restore", saved, now: now)
        #expect(r.code == 0)
        let aside = w.db + ".before-restore-20261122-090000"
        #expect(r.out == """
            Restored \(w.db) from \(saved) (2 sessions, schema \(AppDatabase.schemaVersion)).
            The database it replaced is kept as \(aside).

            """)
        let log = await w.run("log", "--json", now: now)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as? [[String: Any]])
        #expect(entries.count == 2)
        #expect(try FileWorld.sessions(in: aside) == 3)
        #expect(try FileWorld.mode(aside) == 0o600)
        // The restored database takes writes as usual.
        #expect(await w.logSession("2026-11-22 10:00", now: now) == 0)
    }

    @Test func restoreRefusesWhileASessionIsRunning() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        await w.run("task", "add", "Thesis", now: now)
        let saved = w.dir.path + "/saved.sqlite"
        await w.run("backup", saved, now: now)
        // This test process plays the running countdown.
        let db = try AppDatabase.open(path: w.db)
        let start = TestWorld.instant(now)
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500), isPaused: false,
            phaseStartedAt: start, endsAt: start.addingTimeInterval(1500), focusedSeconds: 0, workStartedAt: start,
            workPlannedSeconds: 1500)
        var lock: SessionLock?
        _ = try db.claimSession(ActiveSession(pid: getpid(), taskID: 1, subtaskID: nil, blockID: nil, snapshot: snapshot, checkpointAt: start),
                                now: start) { () throws(FocusError) in lock = try SessionLock.acquire(database: w.db) }
        defer { lock?.release() }
        let before = try FileWorld.bytes(w.db)
        let r = await w.run("restore", saved, now: now)
        #expect(r.code == 69)
        #expect(r.err == "focus: error: a session is running (pid \(getpid())). Stop it with `focus stop`, then restore.\n")
        #expect(try FileWorld.bytes(w.db) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: w.dir.path + "/data").filter { $0.contains("before-restore") } == [])
    }

    @Test func restoreRefusesFilesThatAreNotFocusBackupsAndChangesNothing() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        await w.run("task", "add", "Thesis", now: now)
        let text = try w.dir.file("notes.txt", "not a database\n")
        let other = w.dir.path + "/other.sqlite"
        try FileWorld.execute(other, "CREATE TABLE contact (name TEXT); PRAGMA user_version = 3")
        let newer = w.dir.path + "/newer.sqlite"
        await w.run("backup", newer, now: now)
        try FileWorld.execute(newer, "PRAGMA user_version = 999")
        let before = try FileWorld.bytes(w.db)
        let cases: [(String, String)] = [
            (text, "not an SQLite database (it does not start with the SQLite header)"),
            (other, "it is an SQLite database but not one of focus's"),
            (newer, "it was written by a newer focus (schema 999; this one understands up to \(AppDatabase.schemaVersion))"),
        ]
        for (file, reason) in cases {
            let r = await w.run("restore", file, now: now)
            #expect(r.code == 65, "\(file)")
            #expect(r.err.hasPrefix("focus: error: \(file): \(reason)"), "\(r.err)")
        }
        let missing = await w.run("restore", w.dir.path + "/nope.sqlite", now: now)
        #expect(missing.code == 66)
        #expect(missing.err == "focus: error: cannot read \(w.dir.path)/nope.sqlite: no such file. Check the path.\n")
        #expect(try FileWorld.bytes(w.db) == before)
    }

    @Test func aDamagedDatabaseNamesRestoreAndRestoreReplacesIt() async throws {
        let w = try FileWorld()
        await w.run("task", "add", "Thesis", now: "2026-11-20T09:00:00Z")
        await w.logSession("2026-11-21 08:00", now: "2026-11-21T09:00:00Z")
        let garbage = Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try garbage.write(to: URL(fileURLWithPath: w.db))

        let status = await w.run("status", now: "2026-11-22T09:00:00Z")
        #expect(status.code == 74)
        #expect(status.err.contains("restore a backup with `focus restore FILE` (daily ones are kept beside it as focus.sqlite.backup-DATE)"))
        #expect(try FileWorld.bytes(w.db) == garbage)

        let r = await w.run("restore", w.db + ".backup-2026-11-21", now: "2026-11-22T09:00:00Z")
        #expect(r.code == 0)
        #expect(await w.run("status", now: "2026-11-22T09:00:00Z").out == "idle\n")
        #expect(try FileWorld.sessions(in: w.db) == 1)
        // The damaged file is kept as it was, byte for byte.
        #expect(try FileWorld.bytes(w.db + ".before-restore-20261122-090000") == garbage)
    }

    @Test func doctorReportsTheBackups() async throws {
        let w = try FileWorld()
        let none = await w.run("doctor", now: "2026-11-01T09:00:00Z")
        #expect(none.out.contains("\nbackups        none yet (focus makes one each day it writes; `focus backup` makes one now)\n"))
        await w.run("task", "add", "Thesis", now: "2026-11-01T09:00:00Z")
        await w.logSession("2026-11-02 08:00", now: "2026-11-02T09:00:00Z")
        await w.logSession("2026-11-03 08:00", now: "2026-11-03T09:00:00Z")
        let size = BackupCommand.size(Int64(try FileWorld.bytes(w.db + ".backup-2026-11-03").count))
        let r = await w.run("doctor", now: "2026-11-03T10:00:00Z")
        #expect(r.out.contains("\nbackups        3 daily, newest 2026-11-03 (\(size)), in \(w.dir.path)/data\n"), "\(r.out)")
    }
}
