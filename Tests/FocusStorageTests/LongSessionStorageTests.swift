import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// Sessions longer than a day (README, "Sessions longer than a day"): the v8 migration takes the
/// one-day CHECK off timeLog by rebuilding it, and everything built on the table still holds.
@Suite struct LongSessionMigrationTests {
    /// The schema objects on timeLog, by name, with their SQL.
    static func dependents(_ db: Database) throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'timeLog' AND type IN ('index', 'trigger') AND sql IS NOT NULL") {
            found[row[0]] = row[1]
        }
        return found
    }

    /// A database as v7 left it: two tasks, a subtask, a planned block, sessions (one on the
    /// block, the newest removed so the id counter is past the last row), a current plan.
    static func version7() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v7-nfc-titles")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0), (3, 'Gym', 'gym', 0);
                INSERT INTO subtask (id, taskId, title, titleKey, createdAt) VALUES (2, 1, 'Ch 2', 'ch 2', 0);
                INSERT INTO scheduledBlock (id, subtaskId, startedAt, endedAt) VALUES (1, 2, 1795300200, 1795303200);
                INSERT INTO timeLog (taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, blockId, note, createdAt) VALUES
                  (1, 2, 1795300200, 1795301700, 1500, 1500, 'completed', 1, 'first', 0),
                  (1, 2, 1795302000, 1795303000, 1500, 700, 'interrupted', NULL, NULL, 0),
                  (1, NULL, 1795210000, 1795296000, 86000, 86000, 'completed', NULL, NULL, 0),
                  (3, NULL, 1795310000, 1795311000, 1000, 1000, 'completed', NULL, NULL, 0);
                DELETE FROM timeLog WHERE id = 4;
                UPDATE planState SET stale = 0;
                """)
            try db.execute(sql: "PRAGMA user_version = 7")
        }
        return queue
    }

    @Test func upgradingAVersion7DatabaseKeepsEveryRowTotalIndexAndTrigger() throws {
        let queue = try Self.version7()
        let before = try queue.read { db in
            (dependents: try Self.dependents(db),
             rows: try Row.fetchAll(db, sql: "SELECT * FROM timeLog ORDER BY id"),
             totals: try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, sessionCount FROM task ORDER BY id"),
             subtotals: try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, lastWorkedAt FROM subtask ORDER BY id"))
        }
        #expect(before.dependents.count == 13)
        let db = try AppDatabase(queue, path: ":memory:")
        try db.read { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == AppDatabase.schemaVersion)
            // Every index and trigger as it was, word for word, and the new index of long sessions.
            var after = try Self.dependents(db)
            #expect(after.removeValue(forKey: "timeLog_long") != nil)
            // Later migrations' own (v11: each session's name on every machine).
            #expect(after.removeValue(forKey: "timeLog_syncUid") != nil)
            #expect(after.removeValue(forKey: "timeLog_sync_modified") != nil)
            // v13: the plan triggers fire only while the plan is current; the same events and
            // columns, the same effect.
            var expected = before.dependents
            // v22: v5's quarter totals, which nothing reads, are gone with their triggers.
            for name in ["timeLog_quarter_insert", "timeLog_quarter_delete", "timeLog_quarter_update"] {
                #expect(expected.removeValue(forKey: name) != nil)
            }
            for name in ["timeLog_plan_insert", "timeLog_plan_delete", "timeLog_plan_update"] {
                expected[name] = expected[name]?.replacingOccurrences(
                    of: " BEGIN UPDATE planState SET stale = 1 WHERE id = 1 AND stale = 0; END",
                    with: " WHEN (SELECT stale FROM planState WHERE id = 1) = 0 BEGIN UPDATE planState SET stale = 1 WHERE id = 1; END")
            }
            #expect(after["timeLog_plan_insert"]?.contains(" WHEN ") == true)
            #expect(after == expected)
            let columns = before.rows.first.map { Array($0.columnNames).joined(separator: ", ") } ?? "*"
            #expect(try Row.fetchAll(db, sql: "SELECT \(columns) FROM timeLog ORDER BY id") == before.rows)
            #expect(try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, sessionCount FROM task ORDER BY id") == before.totals)
            #expect(try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, lastWorkedAt FROM subtask ORDER BY id") == before.subtotals)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'focusQuarter'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'timeLog'") == 4)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'timeLog'")?.contains("86400") == false)
            #expect(try Int.fetchOne(db, sql: "SELECT stale FROM planState") == 0)
        }

        // A session of 27h 30m is stored; the id counter went on from where it was.
        let start = Date(timeIntervalSince1970: 1_795_400_000)
        let id = try db.recordSession(TimeLog(taskID: 1, subtaskID: 2, startedAt: start, endedAt: start + 99_000,
                                              plannedSeconds: 99_000, focusedSeconds: 90_000, status: .interrupted), now: start + 99_000)
        #expect(id == 5)
        func figures() throws -> [Int64] {
            try db.read { db in
                [try Int64.fetchOne(db, sql: "SELECT loggedSeconds FROM task WHERE id = 1") ?? -1,
                 try Int64.fetchOne(db, sql: "SELECT sessionCount FROM task WHERE id = 1") ?? -1,
                 try Int64.fetchOne(db, sql: "SELECT loggedSeconds FROM subtask WHERE id = 2") ?? -1,
                 try Int64.fetchOne(db, sql: "SELECT lastWorkedAt FROM subtask WHERE id = 2") ?? -1,
                 try Int64.fetchOne(db, sql: "SELECT stale FROM planState") ?? -1]
            }
        }
        // v1's totals and v6's plan state follow the insert, the update and the removal.
        #expect(try figures() == [1500 + 700 + 86000 + 90_000, 4, 1500 + 700 + 90_000, 1_795_499_000, 1])
        try db.writer.write { try $0.execute(sql: "UPDATE planState SET stale = 0") }
        var log = try #require(try db.session(id: 5)).log
        log.endedAt = start + 200_000
        log.focusedSeconds = 150_000
        try db.updateSession(log)
        #expect(try figures() == [1500 + 700 + 86000 + 150_000, 4, 1500 + 700 + 150_000, 1_795_600_000, 1])
        try db.removeSession(id: 5)
        #expect(try figures()[0...2] == [1500 + 700 + 86000, 3, 1500 + 700])
        // Foreign keys still act: a removed block leaves its session, a removed task takes its own.
        try db.writer.write { try $0.execute(sql: "DELETE FROM scheduledBlock WHERE id = 1") }
        #expect(try db.session(id: 1)?.log.blockID == nil)
        _ = try db.remove(.task(id: 3), isRunning: { .nobody })
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM timeLog WHERE taskId = 3") } == 0)
        // The identity index still makes a session itself.
        #expect(throws: FocusError.self) {
            try db.recordSession(TimeLog(taskID: 1, subtaskID: 2, startedAt: Date(timeIntervalSince1970: 1_795_300_200),
                                         endedAt: Date(timeIntervalSince1970: 1_795_300_300), plannedSeconds: 100,
                                         focusedSeconds: 100, status: .completed), now: start)
        }
    }

    @Test func windowReadsUseTheIndexOfLongSessions() throws {
        let db = try AppDatabase.inMemory()
        try db.read { db in
            let plan = try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT id FROM timeLog INDEXED BY timeLog_long
                WHERE endedAt - startedAt > 86400 AND startedAt < 10 AND endedAt > 5
                """).map { $0["detail"] as String? ?? "" }
            #expect(plan.contains { $0.contains("timeLog_long") })
        }
    }
}

/// Every window read finds the long sessions that run over it, however early they began.
@Suite struct LongSessionReadTests {
    let now = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-23T00:00:00Z

    func database() throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        let records = [
            // 20 days, from 2026-11-01.
            SessionRecord(task: "Thesis", subtask: nil, start: 1_793_491_200, end: 1_793_491_200 + 20 * 86_400,
                          status: .interrupted, focusedSeconds: 20 * 86_400, plannedSeconds: 1500),
            SessionRecord(task: "Gym", subtask: nil, start: 1_795_000_000, end: 1_795_001_500,
                          status: .completed, focusedSeconds: 1500, plannedSeconds: 1500),
        ]
        _ = try db.importSessions(now: now) { insert in for r in records { try insert(r) } }
        return db
    }

    @Test func sessionsOverlappingAWindowIncludeOneBegunWeeksBefore() throws {
        let db = try database()
        let from = Date(timeIntervalSince1970: 1_793_491_200 + 15 * 86_400)
        let found = try db.sessions(overlapping: from, from + 86_400)
        #expect(found.map(\.task) == ["Thesis"])
        #expect(try db.sessions(overlapping: from, now).map(\.task) == ["Thesis", "Gym"])
        let gym = try db.catalog().resolve("Gym").taskID
        #expect(try db.sessions(overlapping: from, from + 86_400, taskID: gym).isEmpty)
        #expect(try db.overlappingCount(from, from + 60) == 1)
        #expect(try db.overlappingCount(from + 20 * 86_400, from + 20 * 86_400 + 60) == 0)
    }

    @Test func aSessionLeftPausedOverADayIsRecoveredNotRefused() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: now)
        let start = now - 40 * 3600
        // Paused after 10 minutes, and left so for 30 hours while focus kept checkpointing.
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(900), isPaused: true,
            phaseStartedAt: start, endsAt: nil, focusedSeconds: 600, workStartedAt: start, workPlannedSeconds: 1500)
        _ = try db.claimSession(ActiveSession(pid: 4242, taskID: task, subtaskID: nil, blockID: nil, snapshot: snapshot,
                                              checkpointAt: start + 30 * 3600), now: start, lock: {})
        let recovered = try db.recoverStaleSession(owner: { .nobody }, now: now)
        let log = try #require(recovered?.log?.log)
        #expect(log.endedAt.timeIntervalSince(log.startedAt) == 30 * 3600)
        #expect(log.focusedSeconds == 600)
        #expect(log.status == .interrupted)
    }
}
