import FocusCore
import FocusStorage
import FocusCoreTestSupport
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
}
