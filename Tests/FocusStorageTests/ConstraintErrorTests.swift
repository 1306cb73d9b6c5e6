import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import GRDB
import Testing

/// What a person reads when the database's own rules refuse a write: never SQLite's text.
@Suite struct ConstraintErrorTests {
    let now = TestWorld.instant("2026-11-22T09:00:00Z")

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
