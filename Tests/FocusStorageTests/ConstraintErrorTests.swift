import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// What a person reads when the database's own rules refuse a write: never SQLite's text.
@Suite struct ConstraintErrorTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")

    @Test func aSecondSessionWithTheSameTaskAndStartIsADuplicate() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: now)
        let log = TimeLog(taskID: task, startedAt: now - 3600, endedAt: now - 1800, plannedSeconds: 1800, focusedSeconds: 1800, status: .completed)
        _ = try db.recordSession(log, now: now)
        #expect(throws: FocusError.duplicateSession(path: nil, start: nil)) { try db.recordSession(log, now: now) }
        #expect(FocusError.duplicateSession(path: nil, start: nil).exitCode == 64)
    }

    @Test func aCheckFailureIsARuleInWordsNotAUsageError() throws {
        let db = try AppDatabase.inMemory()
        do {
            try db.write { try $0.execute(sql: "INSERT INTO task (id, title, titleKey, createdAt) VALUES (99, 'a/b', 'a/b', 0)") }
            Issue.record("the CHECK did not fire")
        } catch {
            #expect(error == .storeRule("a task name cannot contain '/'"))
            #expect(error.exitCode == 65)
            #expect(!error.description.contains("CHECK") && !error.description.contains("constraint"))
        }
        let task = try db.addTask(title: "Thesis", notes: nil, now: now)
        do {
            try db.write { try $0.execute(sql: "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status) VALUES (?, 10, 5, 0, 0, 'completed')", arguments: [task]) }
            Issue.record("the CHECK did not fire")
        } catch {
            guard case .storeRule = error else { Issue.record("\(error)"); return }
            #expect(!error.description.contains("CHECK"))
        }
    }
}

/// Titles written before NFC storage are brought over by the v6 migration.
@Suite struct NFCMigrationTests {
    @Test func decomposedTitlesOfAnOlderDatabaseAreStoredInNFC() throws {
        let dir = NSTemporaryDirectory() + "focus-nfc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/focus.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(queue, upTo: "v5-focus-quarters")
            try queue.write { db in
                try db.execute(sql: "PRAGMA user_version = 5")
                for (id, title) in [(1, "Cafe\u{301}"), (2, "Caf\u{E9}"), (3, "Re\u{301}sume\u{301}")] {
                    try db.execute(sql: "INSERT INTO pathId (id) VALUES (?)", arguments: [id])
                    try db.execute(sql: "INSERT INTO task (id, title, titleKey, createdAt) VALUES (?, ?, CAST(? AS TEXT), 0)",
                                   arguments: [id, title, title.lowercased()])
                }
                try db.execute(sql: "INSERT INTO calendar (name, nameKey, source, content, timeZone, horizonStart, horizonEnd, importedAt) VALUES (?, ?, '/tmp/x.ics', '', 'UTC', 0, 0, 0)",
                               arguments: ["E\u{301}cole", "e\u{301}cole"])
            }
        }
        let db = try AppDatabase.open(path: path)
        let rows = try db.read { try Row.fetchAll($0, sql: "SELECT id, hex(title) AS t FROM task ORDER BY id") }
        let hex = rows.map { $0["t"] as String? ?? "" }
        // #3 is converted; #2 already held the NFC name, so #1 (the same name decomposed) keeps
        // its old spelling rather than clash, reachable by #1.
        #expect(hex == ["43616665CC81", "436166C3A9", "52C3A973756DC3A9"])
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(throws: FocusError.alreadyExists(path: "R\u{E9}sum\u{E9}")) { try db.addTask(title: "R\u{E9}sum\u{E9}", notes: nil, now: now) }
        // A calendar imported under a decomposed name is removed by the composed one.
        #expect(try db.removeCalendar(named: "\u{C9}cole") != nil)
    }
}
