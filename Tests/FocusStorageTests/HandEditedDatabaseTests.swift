import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import GRDB
import Testing

/// A database is a file people may edit with `sqlite3`, and SQLite stores whatever type a value
/// is written with. Every read converts as SQLite does instead of stopping the process.
@Suite struct HandEditedDatabaseTests {
    let now = TestWorld.instant("2026-11-22T09:00:00Z")

    func edited(_ sql: String) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        let sub = Subtask(taskID: 0, title: "Chapter 2", notes: "draft", estimateSeconds: 3600, due: TestWorld.instant("2026-11-27T16:00:00Z"),
                          createdAt: now)
        let ids = try db.addSubtask(taskTitle: "Thesis", subtask: sub, now: now)
        _ = try db.recordSession(TimeLog(taskID: ids.taskID, subtaskID: ids.subtaskID, startedAt: now - 1500, endedAt: now,
                                         plannedSeconds: 1500, focusedSeconds: 1500, status: .completed, note: "fine"), now: now)
        try db.writer.write { try $0.execute(sql: sql) }
        return db
    }

    @Test(arguments: [
        // Invalid UTF-8 and control bytes as blobs where text belongs.
        "UPDATE timeLog SET note = x'41ff1b5b33316d'",
        "UPDATE task SET notes = x'c328', title = x'54ff'",
        "UPDATE subtask SET notes = x'00ff', title = x'43ff'",
        // Text or reals where integers belong (no CHECK constraint stops these).
        "UPDATE subtask SET due = 'soon', estimateSeconds = 'lots', spanSeconds = 12.7e300, createdAt = 'yesterday'",
        "UPDATE timeLog SET plannedSeconds = 'abc', createdAt = x'00'",
        "UPDATE task SET createdAt = 1.5, loggedSeconds = 'many', sessionCount = x'01'",
    ])
    func everyReadSurvivesAValueOfTheWrongType(sql: String) throws {
        let db = try edited(sql)
        let catalog = try db.catalog()
        let target = try catalog.resolve("#2")
        _ = try db.overview(all: true)
        _ = try db.task(id: target.taskID)
        _ = try db.subtask(id: target.subtaskID ?? 0)
        let recent = try db.recentSessions(limit: 5)
        #expect(recent.count == 1)
        _ = try db.sessions(overlapping: now - 86_400, now + 86_400)
        var exported = 0
        _ = try db.exportSessions(from: nil, to: nil) { _ in exported += 1 }
        #expect(exported == 1)
    }

    @Test func aBlobNoteReadsAsItsRepairedText() throws {
        let db = try edited("UPDATE timeLog SET note = x'41ff42'")
        #expect(try db.recentSessions(limit: 1).first?.log.note == "A\u{FFFD}B")
    }

    @Test func textInAnIntegerColumnReadsAsItsLeadingNumber() throws {
        let db = try edited("UPDATE subtask SET estimateSeconds = '7200 s'")
        #expect(try db.subtask(id: 2)?.estimateSeconds == 7200)
    }
}
