import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// `focus status` runs every second under a status bar: its queries must read an index range.
@Suite struct StatusQueryTests {
    @Test func theNextBlockQueryReadsTheStatusIndexNotTheWholeTable() throws {
        let db = try AppDatabase.inMemory()
        let plan = try db.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.nextBlockSQL, arguments: [0, 0, nil])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("scheduledBlock USING INDEX scheduledBlock_status_startedAt (status=? AND startedAt>?)") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
    }
}
