import FocusCoreTestSupport
import Foundation
import Testing

/// The real binary on databases edited by hand with the `sqlite3` shell (README, "Hostile
/// input"): numbers SQLite accepts but focus cannot hold as they are — the 64-bit bounds, 1e300
/// — are read clamped, never a crash (these exited 132), and `focus doctor` and `focus restore`
/// name them.
@Suite struct HostileValueTests {
    static let now = ["FOCUS_NOW": "2026-11-23T07:30:00+01:00"]

    /// A database with a task, a subtask with an estimate and a due date, a session on it (#1)
    /// and a plan, then `sql` applied by the sqlite3 shell (past the CHECK constraints, as a
    /// hand edit can be).
    static func edited(_ sql: String) async throws -> Sandbox {
        let s = try Sandbox()
        // No notification server is a problem of its own for doctor: out of the way.
        try "notifications = false\n".write(toFile: config(s), atomically: true, encoding: .utf8)
        for args in [["task", "add", "Thesis/Chapter 2", "--estimate", "3h", "--due", "2026-11-27 17:00"],
                     ["log", "add", "Thesis/Chapter 2", "--start", "2026-11-22 09:00", "--duration", "25m"], ["plan"]] {
            let r = try await s.run(args, env: now)
            #expect(r.code == 0, "\(args): \(r.err)")
        }
        try await sqlite(s, "PRAGMA ignore_check_constraints = ON; " + sql)
        return s
    }

    static func sqlite(_ s: Sandbox, _ sql: String) async throws {
        let r = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(r.status == 0, "sqlite3: \(r.err)")
    }

    /// Runs `args` and expects a clean success: exit 0, nothing on standard error that says crash.
    static func expectReads(_ s: Sandbox, _ commands: [[String]], _ what: String) async throws {
        for command in commands {
            let args = command.map { $0 == "REPORT" ? s.dir.appendingPathComponent("report.html").path : $0 }
            let r = try await s.run(args, env: now)
            #expect(r.code == 0, "\(what): focus \(args.joined(separator: " ")) exited \(r.code): \(r.err.prefix(400))")
            #expect(!r.err.contains("Fatal error"), "\(what): \(args)")
        }
    }

    static let max = "9223372036854775807"
    static let min = "-9223372036854775808"

    @Test(arguments: [
        ("UPDATE subtask SET estimateSeconds = 1e300 WHERE id = 2", [["task", "list"], ["task", "show", "Thesis/Chapter 2"], ["stats"], ["plan", "--dry-run"]]),
        ("UPDATE timeLog SET endedAt = \(max)", [["log"], ["log", "--json"], ["stats", "--json"], ["export"], ["agenda"]]),
        ("UPDATE timeLog SET startedAt = \(min)", [["export"], ["log"], ["stats"], ["report", "--html", "REPORT"]]),
        ("UPDATE subtask SET due = \(max)", [["task", "list"], ["task", "show", "Thesis/Chapter 2"], ["agenda"], ["plan", "--dry-run"]]),
        ("UPDATE subtask SET due = \(min)", [["task", "list"], ["task", "show", "Thesis/Chapter 2"], ["plan", "--dry-run", "--json"]]),
        ("UPDATE timeLog SET focusedSeconds = \(max)", [["task", "list"], ["log"], ["stats"], ["stats", "--json"], ["report", "--html", "REPORT"]]),
        ("UPDATE task SET loggedSeconds = \(max), sessionCount = \(min)", [["task", "list"], ["task", "show", "Thesis"], ["task", "list", "--json"]]),
        ("UPDATE scheduledBlock SET startedAt = \(min), endedAt = \(max)", [["agenda"], ["status"], ["plan", "--dry-run"]]),
        // Int64.min as an id was the stats id table's empty-slot mark: an index out of range.
        ("UPDATE timeLog SET taskId = \(min), subtaskId = \(min)", [["stats"], ["stats", "--task", "Thesis"], ["report", "--html", "REPORT"], ["log"]]),
        ("UPDATE subtask SET spanSeconds = -1e300, loggedSeconds = '99999999999999999999999'", [["task", "list"], ["task", "show", "Thesis/Chapter 2"], ["plan", "--dry-run"]]),
    ])
    func readsSurviveOutOfRangeNumbers(sql: String, commands: [[String]]) async throws {
        let s = try await Self.edited(sql)
        defer { s.remove() }
        try await Self.expectReads(s, commands, sql)
    }

    @Test func logEditOfASessionWithExtremeTimesSavesItWithinTheRules() async throws {
        let s = try await Self.edited("UPDATE timeLog SET startedAt = \(Self.min)")
        defer { s.remove() }
        let r = try await s.run("log", "edit", "1", "--note", "x", env: Self.now)
        #expect(r.code == 0, "\(r.err)")
        try await Self.expectReads(s, [["log"], ["export"], ["stats"]], "after log edit")
    }

    @Test func taskEditOfASubtaskWithANegativeSpanOrZeroEstimateSavesIt() async throws {
        // Read as 1 s (the table's CHECK wants more than 0), so the row can be written back.
        let s = try await Self.edited("UPDATE subtask SET spanSeconds = -5, estimateSeconds = 0 WHERE id = 2")
        defer { s.remove() }
        let r = try await s.run("task", "edit", "Thesis/Chapter 2", "--notes", "x", env: Self.now)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("estimate 1s"), "\(r.out)")
    }

    @Test func aStaleSessionWithExtremeTimesIsRecoveredAtMostADayLong() async throws {
        let s = try await Self.edited("""
            INSERT INTO activeSession (id, pid, taskId, subtaskId, phase, state, cycle, cycles, workStartedAt, phaseStartedAt,
              plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt)
            VALUES (1, 4194000, 1, 2, 'work', 'running', 1, 4, \(Self.min), \(Self.min), 1500, 1500, \(Self.max), 0, NULL, \(Self.max));
            """)
        defer { s.remove() }
        let r = try await s.run("status", env: Self.now)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("recorded as interrupted"), "\(r.err)")
        try await Self.expectReads(s, [["task", "list"], ["log", "--json"], ["stats"]], "after recovery")
    }

    @Test func doctorNamesEachOutOfRangeValueAndExitsOne() async throws {
        let s = try await Self.edited("UPDATE timeLog SET endedAt = \(Self.max); UPDATE subtask SET estimateSeconds = 1e300 WHERE id = 2")
        defer { s.remove() }
        let r = try await s.run("doctor", env: Self.now)
        #expect(r.code == 1)
        #expect(r.out.contains("✗ timeLog #1 endedAt = 9223372036854775807 (expected an instant in the years 0001-9999)"), "\(r.out)")
        #expect(r.out.contains("✗ subtask #2 estimateSeconds = 1.0e+300"), "\(r.out)")
        #expect(r.out.contains("problem"), "\(r.out)")
    }

    @Test func doctorListsASessionEndingBeforeItStarts() async throws {
        let s = try await Self.edited("UPDATE timeLog SET endedAt = startedAt - 60")
        defer { s.remove() }
        let r = try await s.run("doctor", env: Self.now)
        #expect(r.code == 1)
        #expect(r.out.contains("✗ timeLog #1 endedAt = "), "\(r.out)")
    }

    @Test func doctorOnAHealthyDatabaseExitsZeroWithoutMarks() async throws {
        let s = try await Self.edited("SELECT 1")
        defer { s.remove() }
        let r = try await s.run("doctor", env: Self.now)
        #expect(r.code == 0, "\(r.out)")
        #expect(!r.out.contains("✗"), "\(r.out)")
        #expect(r.out.contains("values         every stored number is within its range"), "\(r.out)")
    }

    @Test func doctorSaysWhenTZCannotBeReadAndWhichZoneIsUsed() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try "notifications = false\n".write(toFile: Self.config(s), atomically: true, encoding: .utf8)
        let r = try await s.run(["doctor"], env: Self.now.merging(["TZ": "garbage"]) { $1 })
        #expect(r.code == 1)
        let line = r.out.split(separator: "\n").first { $0.hasPrefix("time zone") }.map(String.init) ?? ""
        #expect(line.contains("✗ TZ=garbage could not be read"), "\(r.out)")
        #expect(line.contains("using "), "\(r.out)")
    }

    @Test func restoreOfAFileWithOutOfRangeValuesRestoresItAndNamesThem() async throws {
        let bad = try await Self.edited("UPDATE timeLog SET endedAt = \(Self.max)")
        defer { bad.remove() }
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Other", env: Self.now).code == 0)
        let r = try await s.run("restore", bad.db, env: Self.now)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("stored values are out of range"), "\(r.err)")
        #expect(r.err.contains("timeLog #1 endedAt = 9223372036854775807"), "\(r.err)")
        // And the commands after it read it clamped, as the issue's crash did not.
        try await Self.expectReads(s, [["log"], ["task", "list"], ["stats"], ["export"]], "after restore")
    }

    static func config(_ s: Sandbox) throws -> String {
        let dir = s.dir.appendingPathComponent("config/focus")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("config.toml").path
    }
}
