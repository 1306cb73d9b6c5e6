import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

/// Recurring work in the store (README, "Planning"): every re-plan looks for series, so the look
/// must read an index; instances are one per period and go with their series.
@Suite struct RecurringStorageTests {
    @Test func theSeriesProbeOfEveryReplanReadsIndexesNotTheSubtaskTable() throws {
        let db = try AppDatabase.inMemory()
        let (series, periods) = try db.read { db in
            (try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.seriesSQL).map { $0["detail"] as String },
             try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.periodsSQL, arguments: [1]).map { $0["detail"] as String })
        }
        #expect(series.contains { $0.contains("subtask USING INDEX subtask_every") }, "plan: \(series)")
        #expect(!series.contains { $0.hasPrefix("SCAN subtask") }, "plan: \(series)")
        #expect(periods.contains { $0.contains("USING COVERING INDEX subtask_series_period (seriesId=?)") }, "plan: \(periods)")
    }

    @Test func oneInstancePerPeriodAndTheyGoWithTheirSeries() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        #expect(await world.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week") == 0)
        #expect(await world.run("plan") == 0)
        #expect(await world.run("plan") == 0)
        func count() throws -> Int { try world.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM subtask WHERE seriesId IS NOT NULL") } ?? -1 }
        #expect(try count() == 2)
        let duplicate = Result { try world.database.write { db in
            try db.execute(sql: "INSERT INTO subtask (id, taskId, title, titleKey, createdAt, seriesId, periodStart) SELECT 99, taskId, 'x', 'x', 0, seriesId, periodStart FROM subtask WHERE seriesId IS NOT NULL LIMIT 1")
        } }
        #expect(throws: (any Error).self) { try duplicate.get() }
        #expect(await world.run("task", "rm", "Admin/Weekly review") == 0)
        #expect(try count() == 0)
    }
}
