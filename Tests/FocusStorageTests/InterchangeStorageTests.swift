import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

@Suite struct InterchangeStorageTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")

    static func record(_ task: String, _ sub: String?, _ start: Int64, minutes: Int = 25) -> SessionRecord {
        SessionRecord(task: task, subtask: sub, start: start, end: start + Int64(minutes * 60), status: .completed,
                      focusedSeconds: minutes * 60, plannedSeconds: 1500)
    }

    /// `Task/Subtask` as the titles name a session; "" for a day's total before the window.
    static func path(_ s: StatsSession, _ titles: StatsTitles) -> String {
        s.taskID == 0 ? "" : titles.title(s.taskID) + (s.subtaskID == 0 ? "" : "/" + titles.title(s.subtaskID))
    }

    @Test func importKeepsTheLoggedTotalsExactAndSkipsWhatItHas() throws {
        let db = try AppDatabase.inMemory()
        let records = [Self.record("Thesis", "Ch 1", 1000), Self.record("thesis", "ch 1", 1000), Self.record("Thesis", nil, 1000),
                       Self.record("Thesis", "Ch 2", 5000, minutes: 50)]
        let summary = try db.importSessions(now: now) { insert in for r in records { try insert(r) } }
        #expect(summary == ImportSummary(imported: 3, alreadyPresent: 1, createdTasks: 1, createdSubtasks: 2))
        let overview = try db.overview(all: true)
        #expect(overview.map(\.task.title) == ["Thesis"])
        #expect(overview.first?.loggedSeconds == 1500 + 1500 + 3000)
        #expect(overview.first?.sessionCount == 3)
        #expect(overview.first?.subtasks.map(\.loggedSeconds).sorted() == [1500, 3000])
        #expect(overview.first?.subtasks.first { $0.subtask.title == "Ch 2" }?.lastWorkedAt == Date(timeIntervalSince1970: 8000))
    }

    @Test func largeImportsCountEverySessionOnceAcrossInsertBatches() throws {
        let db = try AppDatabase.inMemory()
        // 150 sessions (two full batches and a part), each written twice in a row, then the
        // first 100 again: repeats inside a batch, across batches and across imports.
        let sessions = (0..<150).map { Self.record("T\($0 % 3)", $0 % 2 == 0 ? nil : "S", Int64($0) * 3600, minutes: 1 + $0 % 50) }
        let first = try db.importSessions(now: now) { insert in for r in sessions { try insert(r); try insert(r) } }
        #expect(first.imported == 150)
        #expect(first.alreadyPresent == 150)
        let again = try db.importSessions(now: now) { insert in for r in sessions.prefix(100) { try insert(r) } }
        #expect(again == ImportSummary(imported: 0, alreadyPresent: 100, createdTasks: 0, createdSubtasks: 0))
        var exported: [SessionRecord] = []
        try db.exportSessions(from: nil, to: nil) { exported.append($0) }
        #expect(exported == sessions)
        let logged = try db.overview(all: true).map(\.loggedSeconds).reduce(0, +)
        #expect(logged == sessions.map(\.focusedSeconds).reduce(0, +))
    }

    @Test func anErrorDuringTheImportRollsEverythingBack() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.addTask(title: "Existing", notes: nil, now: now)
        #expect(throws: FocusError.badInput(file: "f", line: 3, reason: "stop")) {
            _ = try db.importSessions(now: now) { insert in
                try insert(Self.record("New", "Sub", 1000))
                try insert(Self.record("Existing", nil, 2000))
                throw FocusError.badInput(file: "f", line: 3, reason: "stop")
            }
        }
        let counts = try db.read { db in
            try ["task", "subtask", "timeLog", "pathId"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1 }
        }
        #expect(counts == [1, 0, 0, 1])
    }

    @Test func exportStreamsOldestFirstWithinTheBounds() throws {
        let db = try AppDatabase.inMemory()
        let records = [Self.record("B", nil, 3000), Self.record("A", "x", 1000), Self.record("A", nil, 2000), Self.record("C", nil, 9000)]
        _ = try db.importSessions(now: now) { insert in for r in records { try insert(r) } }
        var seen: [SessionRecord] = []
        let count = try db.exportSessions(from: Date(timeIntervalSince1970: 1000), to: Date(timeIntervalSince1970: 9000)) { seen.append($0) }
        #expect(count == 3)
        #expect(seen == [records[1], records[2], records[0]])
        var all = 0
        try db.exportSessions(from: nil, to: nil) { _ in all += 1 }
        #expect(all == 4)
    }

    @Test func theStatsWindowReadsAnIndexRangeNotTheWholeHistory() throws {
        let db = try AppDatabase.inMemory()
        let plan = try db.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + AppDatabase.windowSessionsSQL, arguments: [0, 100])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("SEARCH timeLog USING") && $0.contains("INDEX") && $0.contains("startedAt>? AND startedAt<?") }, "plan: \(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "plan: \(plan)")
    }

    @Test func statsInputLoadsTheHistoryTheReportNeedsAndTheProgressOfTheTasksShown() throws {
        let db = try AppDatabase.inMemory()
        let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
        let window = StatsWindow.last(7, today: LocalDate(year: 2026, month: 11, day: 22))
        let day = { (d: LocalDate) in Int64(berlin.startOfDay(d).timeIntervalSince1970) }
        let records = [
            Self.record("Old", nil, day(window.historyFrom) - 3600),                       // before the history: not loaded
            Self.record("Old", nil, day(window.historyFrom) + 3600),                       // history: loaded
            Self.record("Thesis", "Ch 1", day(window.from) + 3600),                        // window
            Self.record("Thesis", "Ch 2", day(window.to.adding(days: 1)) + 60),            // tomorrow: not loaded
        ]
        _ = try db.importSessions(now: now) { insert in for r in records { try insert(r) } }
        try db.write { db in try db.execute(sql: "UPDATE subtask SET estimateSeconds = 3600") }
        _ = try db.addSubtask(taskTitle: "Old", subtask: Subtask(taskID: 0, title: "Est", estimateSeconds: 60, createdAt: now), now: now)
        let input = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil)
        // The history's session and the window's, as they are.
        let spans = input.sessions.map { [$0.start, $0.end, Int64($0.focusedSeconds)] }.sorted { $0[0] < $1[0] }
        #expect(spans == [[records[1].start, records[1].end, 1500], [records[2].start, records[2].end, 1500]])
        #expect(input.sessions.map { Self.path($0, input.titles) }.sorted() == ["Old", "Thesis/Ch 1"])
        #expect(input.historyFrom == window.historyFrom)
        #expect(input.progress.map(\.subtask).sorted() == ["Ch 1", "Ch 2"])
        let filtered = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: "thesis/ch 1")
        #expect(filtered.taskFilter == "Thesis/Ch 1")
        #expect(filtered.sessions.map { Self.path($0, filtered.titles) } == ["Thesis/Ch 1"])
        #expect(filtered.progress.map(\.subtask) == ["Ch 1"])
    }
}
