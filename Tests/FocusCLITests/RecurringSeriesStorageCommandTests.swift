import FocusCLI
import FocusCore
import FocusSQLite
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Recurring work through the commands, checked in the store: instances are one per period
/// and go with their series (moved here from the storage tests, which run no command).
@Suite struct RecurringSeriesStorageCommandTests {
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
