import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

@Suite struct AppDatabaseTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")

    @Test func migratesAnEmptyDatabaseToTheCurrentSchema() throws {
        let db = try AppDatabase.inMemory()
        let version = try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        #expect(version == AppDatabase.schemaVersion)
        let tables = try db.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        for t in ["activeSession", "busyEvent", "calendar", "scheduledBlock", "sentReminder", "subtask", "task", "timeLog"] {
            #expect(tables.contains(t), "missing table \(t)")
        }
    }

    /// A migration added without bumping the version would never run on a database of the
    /// previous version: opening it skips the migrator when the version looks current.
    @Test func theSchemaVersionCountsEveryMigration() {
        #expect(AppDatabase.schemaVersion == AppDatabase.migrator.count)
    }

    @Test func tasksAndSubtasksRoundTrip() throws {
        let db = try AppDatabase.inMemory()
        var sub = Subtask(taskID: 0, title: "Chapter 2", notes: "draft", estimateSeconds: 21_600,
                          startDate: LocalDate(year: 2026, month: 11, day: 23), due: TestDates.instant("2026-11-27T16:00:00Z"),
                          spanSeconds: 3000, earliest: TimeOfDay(hour: 9, minute: 0), createdAt: now)
        let ids = try db.addSubtask(taskTitle: "Thesis", subtask: sub, now: now)
        #expect(ids.createdTask)
        sub.id = ids.subtaskID
        sub.taskID = ids.taskID
        #expect(try db.subtask(id: ids.subtaskID) == sub)
        #expect(try db.task(id: ids.taskID)?.title == "Thesis")
        // Ids are shared between tasks and subtasks: #ID is never ambiguous.
        #expect(ids.subtaskID != ids.taskID)
    }

    @Test func titlesAreUniqueCaseInsensitively() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.addTask(title: "Thesis", notes: nil, now: now)
        #expect(throws: FocusError.alreadyExists(path: "THESIS")) { try db.addTask(title: "THESIS", notes: nil, now: now) }
        _ = try db.addSubtask(taskTitle: "thesis", subtask: Subtask(taskID: 0, title: "Intro", createdAt: now), now: now)
        #expect(throws: FocusError.alreadyExists(path: "Thesis/intro")) {
            try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "intro", createdAt: now), now: now)
        }
    }

    @Test func sessionsKeepTheLoggedTotalsExact() throws {
        let db = try AppDatabase.inMemory()
        let ids = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Intro", createdAt: now), now: now)
        let start = now
        let a = try db.recordSession(TimeLog(taskID: ids.taskID, subtaskID: ids.subtaskID, startedAt: start, endedAt: start + 1500,
                                             plannedSeconds: 1500, focusedSeconds: 1500, status: .completed), now: now)
        _ = try db.recordSession(TimeLog(taskID: ids.taskID, startedAt: start + 3600, endedAt: start + 4000,
                                         plannedSeconds: 1500, focusedSeconds: 400, status: .interrupted), now: now)
        var overview = try db.overview(all: false)
        #expect(overview.first?.loggedSeconds == 1900)
        #expect(overview.first?.subtasks.first?.loggedSeconds == 1500)
        try db.removeSession(id: a)
        overview = try db.overview(all: false)
        #expect(overview.first?.loggedSeconds == 400)
        #expect(overview.first?.subtasks.first?.loggedSeconds == 0)
    }

    @Test(arguments: [
        "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 100, 50, 0, 0, 'completed', 0)",
        "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 0, 100, 0, 0, 'done', 0)",
        "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 0, 100, 0, 200, 'completed', 0)",
        "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (1, 0, 100, -5, 0, 'completed', 0)",
        "INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) VALUES (999, 0, 100, 0, 0, 'completed', 0)",
        "INSERT INTO subtask (id, taskId, title, titleKey, estimateSeconds, createdAt) VALUES (50, 1, 'x', 'x', 0, 0)",
        "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status) VALUES (2, 100, 100, 'planned')",
        "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status) VALUES (2, 100, 200, 'later')",
        "INSERT INTO task (id, title, titleKey, createdAt) VALUES (70, 'a/b', 'a/b', 0)",
    ])
    func theStoreRejectsRowsThatBreakTheRules(sql: String) throws {
        let db = try AppDatabase.inMemory()
        _ = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Intro", createdAt: now), now: now)
        #expect(throws: (any Error).self) { try db.writer.write { try $0.execute(sql: sql) } }
    }

    @Test func windowQueriesReadAnIndexRangeNotTheWholeHistory() throws {
        let db = try AppDatabase.inMemory()
        let plan = try db.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT * FROM timeLog WHERE startedAt >= 0 AND startedAt < 100 AND (endedAt > 0 OR startedAt >= 0)
                """).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("INDEX timeLog_window (startedAt>? AND startedAt<?)") }, "plan: \(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN timeLog") }, "plan: \(plan)")
    }

    @Test func aFileThatIsNotSQLiteIsReportedAndLeftUntouched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("focus.sqlite").path
        let garbage = Data(repeating: 0x41, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try AppDatabase.open(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == 74)
            #expect(error.description.contains("not an SQLite database"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aDatabaseFromANewerFocusIsRefusedAndLeftUntouched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("focus.sqlite").path
        do {
            let q = try DatabaseQueue(path: path)
            try q.write { try $0.execute(sql: "CREATE TABLE future (x); PRAGMA user_version = 99") }
            try q.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: FocusError.newerSchema(path: path)) { try AppDatabase.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aNewDatabaseIsPrivate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("data/focus.sqlite").path
        _ = try AppDatabase.open(path: path)
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("data").path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(dirMode == 0o700)
        let mode = try AppDatabase.open(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func anUnwritableDirectoryIsAnIOErrorNamingThePath() throws {
        // As root, permissions do not stop us; a path under a regular file cannot be created by anyone.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("focus-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try AppDatabase.open(path: file.path + "/sub/focus.sqlite")
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == 74)
            #expect(error.description.contains(file.path + "/sub"))
        }
    }
}

@Suite struct SentReminderStorageTests {
    let now = TestDates.instant("2026-11-23T13:00:00Z")

    func plannedBlock(_ db: AppDatabase, startingIn seconds: Int64) throws -> Int64 {
        let ids = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Chapter 2", createdAt: now), now: now)
        let start = Int64(now.timeIntervalSince1970) + seconds
        return try db.write { db in
            try db.execute(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) VALUES (?, ?, ?)",
                           arguments: [ids.subtaskID, start, start + 3000])
            return db.lastInsertedRowID
        }
    }

    @Test func reminderStateReadsPlannedBlocksWithTheirPathsAndWhatWasSent() throws {
        let db = try AppDatabase.inMemory()
        let id = try plannedBlock(db, startingIn: 600)
        try db.recordSent([SentReminder(blockID: id, kind: .before)], at: now)
        let state = try db.reminderState(from: now, to: now.addingTimeInterval(86_400))
        #expect(state.blocks == [ReminderBlock(id: id, path: "Thesis/Chapter 2", start: now.addingTimeInterval(600), end: now.addingTimeInterval(3600))])
        #expect(state.sent == [SentReminder(blockID: id, kind: .before)])
        #expect(state.runningBlockID == nil)
    }

    @Test func recordingAReminderTwiceKeepsOneRowWithTheFirstTime() throws {
        let db = try AppDatabase.inMemory()
        let id = try plannedBlock(db, startingIn: 600)
        try db.recordSent([SentReminder(blockID: id, kind: .start)], at: now)
        try db.recordSent([SentReminder(blockID: id, kind: .start)], at: now.addingTimeInterval(60))
        let rows = try db.read { try Row.fetchAll($0, sql: "SELECT blockId, kind, sentAt FROM sentReminder") }
        #expect(rows.count == 1)
        #expect(rows.first?["sentAt"] == Int64(now.timeIntervalSince1970))
    }

    @Test func settledBlocksAreNotReadAndDeletedBlocksTakeTheirRemindersWithThem() throws {
        let db = try AppDatabase.inMemory()
        let id = try plannedBlock(db, startingIn: 600)
        try db.recordSent([SentReminder(blockID: id, kind: .before)], at: now)
        try db.write { try $0.execute(sql: "UPDATE scheduledBlock SET status = 'missed'") }
        #expect(try db.reminderState(from: now, to: now.addingTimeInterval(86_400)).blocks.isEmpty)
        try db.write { try $0.execute(sql: "DELETE FROM scheduledBlock") }
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentReminder") } == 0)
    }
}

@Suite struct StorageErrorWordingTests {
    @Test func aFailedReadSaysReadAndAFailedWriteSaysWrite() {
        let failure = DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error")
        #expect(AppDatabase.map(failure, path: "/data/focus.sqlite", access: .read).description.hasPrefix("cannot read /data/focus.sqlite: "))
        #expect(AppDatabase.map(failure, path: "/data/focus.sqlite").description.hasPrefix("cannot write /data/focus.sqlite: "))
        #expect(AppDatabase.map(DatabaseError(resultCode: .SQLITE_CANTOPEN), path: "/x.sqlite", access: .read).description
            .hasPrefix("cannot open /x.sqlite: "))
    }
}
