import FocusCore
import FocusStorage
import Foundation
import FocusSQLite
import Testing

/// Open sessions (README, "Open sessions"): the migration widens timeLog's status CHECK by
/// rebuilding the table, keeping every row, id, index and trigger.
@Suite struct OpenSessionMigrationTests {
    static func dependents(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'timeLog' AND type IN ('index', 'trigger') ORDER BY name")
    }

    @Test func theMigrationKeepsEverySessionAndNowTakesTheOpenStatus() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v16-declined-meetings")
        let before = try queue.write { db -> [String] in
            try db.execute(sql: """
                INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0);
                INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, note, createdAt) VALUES
                  (1, 1795300200, 1795301700, 1500, 1500, 'completed', 'first', 0),
                  (1, 1795302000, 1795303000, 1500, 700, 'interrupted', NULL, 0),
                  (1, 1795304000, 1795305000, 1500, 900, 'interrupted', NULL, 0);
                DELETE FROM timeLog WHERE id = 3;
                """)
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 1, 2, 0, 1, 'open', 0)")
            }
            return try Self.dependents(db)
        }
        try AppDatabase.migrator.migrate(queue, upTo: "v17-open-sessions")
        try queue.write { db in
            #expect(try Self.dependents(db) == before, "every index and trigger is back")
            let rows = try Row.fetchAll(db, sql: "SELECT id, status, note FROM timeLog ORDER BY id")
            #expect(rows.map { $0["id"] as Int64? } == [1, 2])
            #expect(rows.map { $0["status"] as String? } == ["completed", "interrupted"])
            try db.execute(sql: "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 1795306000, 1795306600, 0, 600, 'open', 0)")
            #expect(try Int64.fetchOne(db, sql: "SELECT max(id) FROM timeLog") == 4, "no id handed out twice")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 1, 2, 0, 1, 'paused', 0)")
            }
        }
    }
}
