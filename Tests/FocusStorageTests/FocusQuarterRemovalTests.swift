import FocusCore
import FocusRendering
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// v5 kept focus by quarter hour in `focusQuarter`; since the stats read sessions one by one
/// (README, "Fast paths") nothing read it, and v22 drops it with its triggers. A database from
/// before keeps every session, total and stats figure through the upgrade.
@Suite struct FocusQuarterRemovalTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")

    /// Two tasks, a subtask and sessions around `now` (one across midnight, one of 27 hours).
    static let history = """
        INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0), (3, 'Garden', 'garden', 0);
        INSERT INTO subtask (id, taskId, title, titleKey, estimateSeconds, createdAt) VALUES (2, 1, 'Ch 1', 'ch 1', 36000, 0);
        INSERT INTO timeLog (taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES
          (1, 2, 1795300200, 1795301700, 1500, 1500, 'completed', 0),
          (1, 2, 1795301099, 1795301700, 1500, 600, 'interrupted', 0),
          (1, NULL, 1795224600, 1795226400, 1500, 1500, 'completed', 0),
          (3, NULL, 1795129200, 1795132200, 3000, 2900, 'completed', 0),
          (3, NULL, 1794900000, 1794999000, 99000, 90000, 'interrupted', 0);
        """

    func report(_ db: AppDatabase) throws -> (report: StatsReport, text: String) {
        let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
        let window = StatsWindow.last(30, today: berlin.day(of: now))
        let report = StatsCalculator.report(try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil))
        let text = StatsRenderer(width: 80, color: false, today: berlin.day(of: now)).render(report)
        return (report, String(describing: text))
    }

    func hasQuarterTable(_ db: AppDatabase) throws -> Bool {
        try db.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'focusQuarter' OR name LIKE 'timeLog_quarter_%'") != 0
        }
    }

    @Test func upgradingDropsTheQuarterTotalsAndKeepsEverySessionAndFigure() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v21-recurring-work")
        let before = try queue.write { db in
            try db.execute(sql: Self.history)
            try db.execute(sql: "PRAGMA user_version = \(AppDatabase.schemaVersion - 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM focusQuarter") == 4, "v5's triggers kept the quarters")
            return (sessions: try Row.fetchAll(db, sql: "SELECT * FROM timeLog ORDER BY id"),
                    totals: try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, sessionCount FROM task ORDER BY id"),
                    subtotals: try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, lastWorkedAt FROM subtask ORDER BY id"))
        }
        let upgraded = try AppDatabase(queue, path: ":memory:")
        #expect(try !hasQuarterTable(upgraded))
        try upgraded.read { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == AppDatabase.schemaVersion)
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM timeLog ORDER BY id") == before.sessions)
            #expect(try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, sessionCount FROM task ORDER BY id") == before.totals)
            #expect(try Row.fetchAll(db, sql: "SELECT id, loggedSeconds, lastWorkedAt FROM subtask ORDER BY id") == before.subtotals)
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }

        // The stats of the upgraded file are those of a new one holding the same history.
        let fresh = try AppDatabase.inMemory()
        #expect(try !hasQuarterTable(fresh))
        try fresh.writer.write { try $0.execute(sql: Self.history) }
        let stats = try report(upgraded)
        #expect(stats.report.totals.focusedSeconds > 0)
        #expect(stats.report == (try report(fresh)).report)
        #expect(stats.text == (try report(fresh)).text)

        // Writing the log goes on without the quarters' triggers.
        let id = try upgraded.recordSession(TimeLog(taskID: 3, startedAt: now - 1500, endedAt: now, plannedSeconds: 1500,
                                                    focusedSeconds: 1500, status: .completed), now: now)
        try upgraded.removeSession(id: id)
        #expect(try upgraded.read { try Row.fetchAll($0, sql: "SELECT id, loggedSeconds, sessionCount FROM task ORDER BY id") } == before.totals)
    }
}
