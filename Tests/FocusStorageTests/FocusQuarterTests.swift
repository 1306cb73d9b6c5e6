import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

/// The focus-by-quarter-hour totals the schema's triggers keep (no command reads them since the
/// stats read sessions one by one, README "Fast paths"; `focus doctor` checks their ranges):
/// whatever writes the log, they stay the sums of its sessions.
@Suite struct FocusQuarterTests {
    let now = TestWorld.instant("2026-11-22T09:00:00Z")

    /// (quarter, focused seconds, sessions, latest end) as stored, and as the log itself sums them.
    static func storedAndRecomputed(_ db: AppDatabase) throws -> (stored: [[Int64]], recomputed: [[Int64]]) {
        try db.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT quarter, focusedSeconds, sessionCount, lastEnd FROM focusQuarter ORDER BY quarter")
                .map { [$0[0], $0[1], $0[2], $0[3]] as [Int64] }
            let recomputed = try Row.fetchAll(db, sql: """
                SELECT startedAt / 900 - (startedAt % 900 < 0), sum(focusedSeconds), count(*), max(endedAt) FROM timeLog GROUP BY 1 ORDER BY 1
                """).map { [$0[0], $0[1], $0[2], $0[3]] as [Int64] }
            return (stored, recomputed)
        }
    }

    @Test func quarterTotalsFollowEveryWriteToTheLog() throws {
        let db = try AppDatabase.inMemory()
        let base: Int64 = 1_795_300_200  // a quarter hour, 2026-11-21
        let records = [
            SessionRecord(task: "Thesis", subtask: "Ch 1", start: base, end: base + 1500, status: .completed, focusedSeconds: 1500, plannedSeconds: 1500),
            SessionRecord(task: "Thesis", subtask: "Ch 1", start: base + 899, end: base + 1500, status: .interrupted, focusedSeconds: 600, plannedSeconds: 1500),
            SessionRecord(task: "Thesis", subtask: nil, start: base + 900, end: base + 900, status: .interrupted, focusedSeconds: 0, plannedSeconds: 1500),
            SessionRecord(task: "Garden", subtask: nil, start: base - 1, end: base + 3000, status: .completed, focusedSeconds: 2900, plannedSeconds: 3000),
        ]
        _ = try db.importSessions(now: now) { insert in for r in records { try insert(r) } }
        var state = try Self.storedAndRecomputed(db)
        #expect(state.stored == [[base / 900 - 1, 2900, 1, base + 3000], [base / 900, 2100, 2, base + 1500], [base / 900 + 1, 0, 1, base + 900]])
        #expect(state.stored == state.recomputed)

        // Recorded, edited (moved to another quarter, less focus), removed, cascaded.
        let garden = try db.catalog().resolve("Garden").taskID
        let id = try db.recordSession(TimeLog(taskID: garden, startedAt: Date(timeIntervalSince1970: Double(base + 7200)), endedAt: Date(timeIntervalSince1970: Double(base + 8700)),
                                              plannedSeconds: 1500, focusedSeconds: 1500, status: .completed), now: now)
        var log = try #require(try db.session(id: id)?.log)
        log.startedAt = Date(timeIntervalSince1970: Double(base + 9000))
        log.endedAt = Date(timeIntervalSince1970: Double(base + 9900))
        log.focusedSeconds = 700
        try db.updateSession(log)
        state = try Self.storedAndRecomputed(db)
        #expect(state.stored.last == [base / 900 + 10, 700, 1, base + 9900])
        #expect(state.stored == state.recomputed)
        // Ending later keeps the quarter's latest end up to date; removing it brings it back.
        log.endedAt = Date(timeIntervalSince1970: Double(base + 9950))
        try db.updateSession(log)
        #expect(try Self.storedAndRecomputed(db).stored.last == [base / 900 + 10, 700, 1, base + 9950])
        try db.removeSession(id: id)
        state = try Self.storedAndRecomputed(db)
        #expect(state.stored == state.recomputed)
        #expect(state.stored.count == 3, "an emptied quarter is dropped")
        _ = try db.remove(db.catalog().resolve("Thesis"), isRunning: { .nobody })
        state = try Self.storedAndRecomputed(db)
        #expect(state.stored == [[base / 900 - 1, 2900, 1, base + 3000]])
        #expect(state.stored == state.recomputed)
    }

    @Test func upgradingADatabaseSumsItsExistingHistory() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-reminders")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0);
                INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES
                  (1, 1000, 2500, 1500, 1500, 'completed', 0),
                  (1, 1700, 1800, 1500, 100, 'interrupted', 0),
                  (1, 1800, 3300, 1500, 1500, 'completed', 0),
                  (1, -100, 200, 1500, 300, 'completed', 0);
                PRAGMA user_version = 4;
                """)
        }
        let db = try AppDatabase(queue, path: ":memory:")
        let state = try Self.storedAndRecomputed(db)
        #expect(state.stored == [[-1, 300, 1, 200], [1, 1600, 2, 2500], [2, 1500, 1, 3300]])
        #expect(state.stored == state.recomputed)
        #expect(try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == AppDatabase.schemaVersion)
    }
}
