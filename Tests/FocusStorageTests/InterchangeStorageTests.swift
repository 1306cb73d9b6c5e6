import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import GRDB
import Testing

@Suite struct InterchangeStorageTests {
    let now = TestWorld.instant("2026-11-22T09:00:00Z")

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
        // The quarter-hour totals behind the previous period, the history days and the
        // sessions crossing a midnight are read by key range too.
        let quarters = try db.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT quarter, focusedSeconds, lastEnd FROM focusQuarter WHERE quarter >= ? AND quarter < ? AND lastEnd > ?",
                             arguments: [0, 100, 0]).map { $0["detail"] as String }
        }
        #expect(quarters.contains { $0.contains("SEARCH focusQuarter USING INTEGER PRIMARY KEY") }, "plan: \(quarters)")
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
        // The window's session as it is; the history day's focus as one session spanning that day.
        let spans = input.sessions.map { [$0.start, $0.end, Int64($0.focusedSeconds)] }
        #expect(spans.sorted { $0[0] < $1[0] } == [
            [day(window.historyFrom), day(window.historyFrom.adding(days: 1)), 1500],
            [records[2].start, records[2].end, 1500],
        ])
        #expect(input.sessions.map { Self.path($0, input.titles) }.sorted() == ["", "Thesis/Ch 1"])
        #expect(input.historyFrom == window.historyFrom)
        #expect(input.progress.map(\.subtask).sorted() == ["Ch 1", "Ch 2"])
        let filtered = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: "thesis/ch 1")
        #expect(filtered.taskFilter == "Thesis/Ch 1")
        #expect(filtered.sessions.map { Self.path($0, filtered.titles) } == ["Thesis/Ch 1"])
        #expect(filtered.progress.map(\.subtask) == ["Ch 1"])
    }
}

@Suite struct StatsInputEquivalenceTests {
    /// 150 days of random sessions ending 2026-11-22: some across midnight, some of zero
    /// length, some paused, some longer than a day (forgotten timers of up to 31 days), in a
    /// zone with two DST changes in range.
    static func database() throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        var rng = SeededRandom(seed: 7)
        let end: Int64 = 1_795_392_000  // 2026-11-23T00:00:00Z
        var records: [SessionRecord] = []
        for k in 0..<3000 {
            if k % 97 == 1 {
                let length = 86_401 + Int64(rng.next() % (30 * 86_400))
                let start = end - 150 * 86_400 + Int64(rng.next() % UInt64(150 * 86_400 - length))
                records.append(SessionRecord(task: "T\(rng.next() % 4)", subtask: k % 2 == 0 ? nil : "S\(rng.next() % 3)", start: start,
                                             end: start + length, status: k % 3 == 0 ? .interrupted : .completed,
                                             focusedSeconds: k % 2 == 0 ? Int(length) : Int(length / 3), plannedSeconds: 1500))
                continue
            }
            let start = end - 150 * 86_400 + Int64(rng.next() % (150 * 86_400))
            let length = k % 17 == 0 ? 0 : Int64(rng.next() % 10_800)
            let focused = k % 5 == 0 ? Int(Double(length) * 0.7) : Int(length)
            let sub: String? = k % 3 == 0 ? nil : "S\(rng.next() % 3)"
            records.append(SessionRecord(task: "T\(rng.next() % 4)", subtask: sub, start: start, end: start + length,
                                         status: rng.next() % 5 == 0 ? .interrupted : .completed, focusedSeconds: focused,
                                         plannedSeconds: [1500, 3000, 900][k % 3]))
        }
        _ = try db.importSessions(now: Date(timeIntervalSince1970: Double(end))) { insert in for r in records { try insert(r) } }
        return db
    }

    @Test(arguments: [
        ("Europe/Berlin", 2026, 11, 16, 2026, 11, 22, nil),
        ("Europe/Berlin", 2026, 10, 24, 2026, 11, 22, nil),
        ("Europe/Berlin", 2026, 10, 20, 2026, 11, 3, "T1"),
        ("America/New_York", 2026, 10, 25, 2026, 11, 7, nil),
        ("America/New_York", 2026, 11, 1, 2026, 11, 1, "T2/S1"),
        ("UTC", 2026, 9, 1, 2026, 11, 22, nil),
    ] as [(String, Int, Int, Int, Int, Int, Int, String?)])
    func dailyTotalsBeforeTheWindowGiveExactlyTheReportOfTheSessionsOneByOne(
        zone: String, y1: Int, m1: Int, d1: Int, y2: Int, m2: Int, d2: Int, path: String?
    ) throws {
        let db = try Self.database()
        let calendar = LocalCalendar(zone: ZoneRules.named(zone)!)
        let window = StatsWindow(from: LocalDate(year: y1, month: m1, day: d1), to: LocalDate(year: y2, month: m2, day: d2))
        let now = calendar.startOfDay(window.to).addingTimeInterval(20 * 3600)
        let fast = try db.statsInput(window: window, calendar: calendar, now: now, taskPath: path)
        let target = try path.map { try db.catalog().resolve($0) }
        let all = try db.sessions(overlapping: calendar.startOfDay(window.historyFrom), calendar.startOfDay(window.to.adding(days: 1)),
                                  subtaskID: target?.subtaskID, taskID: target?.subtaskID == nil ? target?.taskID : nil)
        // The reader of sessions one by one is itself held to a scan of the whole log.
        let lo = calendar.startOfDay(window.historyFrom), hi = calendar.startOfDay(window.to.adding(days: 1))
        let scanned = try db.sessions(overlapping: .distantPast, .distantFuture).filter { e in
            e.log.startedAt < hi && (e.log.endedAt > lo || e.log.startedAt >= lo)
                && (target == nil || (target?.subtaskID.map { e.log.subtaskID == $0 } ?? (e.log.taskID == target?.taskID)))
        }
        #expect(all.map(\.log.id) == scanned.map(\.log.id))
        if path == nil, window.dayCount <= 31 {
            #expect(all.contains { $0.log.endedAt.timeIntervalSince($0.log.startedAt) > 86_400 && $0.log.startedAt < lo - 86_400 })
        }
        let oneByOne = StatsInput(window: window, calendar: calendar, now: now, sessions: all, progress: fast.progress,
                                  taskFilter: fast.taskFilter, historyFrom: window.historyFrom)
        #expect(fast.sessions.count < all.count)
        let a = StatsCalculator.report(fast)
        let b = StatsCalculator.report(oneByOne)
        #expect(a == b)
        #expect(a.json().rendered() == b.json().rendered())
        #expect(a.heatmap.compactMap(\.focusedSeconds).reduce(0, +) > 0)
        // Without the heatmap: fewer days read, the same JSON (the streak runs through all of them).
        let lean = try db.statsInput(window: window, calendar: calendar, now: now, taskPath: path, heatmap: false)
        if path == nil {
            // The whole history: the previous period summed from the quarter-hour totals, and
            // only the window's sessions read.
            #expect(lean.previousFocusedExact != nil)
            #expect(lean.historyFrom == window.from)
            let from = Int64(calendar.startOfDay(window.from).timeIntervalSince1970)
            #expect(lean.sessions.allSatisfy { $0.end > from || $0.start >= from })
        } else {
            #expect(lean.historyFrom == window.previous.from)
        }
        let c = StatsCalculator.report(lean)
        #expect(c.json().rendered() == b.json().rendered())
        if path == nil { #expect(c.summary.streakDays > (window.to.dayNumber - window.previous.from.dayNumber + 1) || window.dayCount > 40) }
    }

    @Test func aZoneWhoseMidnightIsOffTheQuarterHourReadsThePreviousPeriodDayByDay() throws {
        let db = try Self.database()
        // +00:20: local midnights fall at hh:40 UTC, between the quarter-hour totals.
        let calendar = LocalCalendar(zone: .fixed(secondsEast: 1200, identifier: "Odd"))
        let window = StatsWindow.last(14, today: LocalDate(year: 2026, month: 11, day: 22))
        let now = calendar.startOfDay(window.to).addingTimeInterval(20 * 3600)
        let lean = try db.statsInput(window: window, calendar: calendar, now: now, taskPath: nil, heatmap: false)
        #expect(lean.previousFocusedExact == nil)
        #expect(lean.historyFrom == window.previous.from)
        let all = try db.sessions(overlapping: calendar.startOfDay(window.historyFrom), calendar.startOfDay(window.to.adding(days: 1)))
        let oneByOne = StatsInput(window: window, calendar: calendar, now: now, sessions: all, progress: lean.progress, historyFrom: window.historyFrom)
        #expect(StatsCalculator.report(lean).json().rendered() == StatsCalculator.report(oneByOne).json().rendered())
    }

    @Test func theStreakBeforeTheReadDaysCountsCrossingSessionsLikeTheCalculator() throws {
        let db = try AppDatabase.inMemory()
        let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
        let today = LocalDate(year: 2026, month: 11, day: 22)
        let window = StatsWindow.last(7, today: today)
        func at(_ d: LocalDate, _ h: Int, _ m: Int) -> Int64 { Int64(berlin.instant(d, TimeOfDay(hour: h, minute: m)).timeIntervalSince1970) }
        var records: [SessionRecord] = []
        // Every day for 40 days has a session at 10:00, except two days before the previous period:
        let onlyCrossing = today.adding(days: -20)   // has 10 minutes from a session begun the evening before
        let tooLittle = today.adding(days: -30)      // has 0.4 s from a paused session begun the evening before
        for k in 0..<40 {
            let d = today.adding(days: -k)
            if d == onlyCrossing || d == tooLittle { continue }
            records.append(SessionRecord(task: "T", subtask: nil, start: at(d, 10, 0), end: at(d, 10, 25), status: .completed, focusedSeconds: 1500, plannedSeconds: 1500))
        }
        let eve1 = at(onlyCrossing.adding(days: -1), 23, 50)
        records.append(SessionRecord(task: "T", subtask: "late", start: eve1, end: eve1 + 1200, status: .completed, focusedSeconds: 1200, plannedSeconds: 1500))
        let eve2 = at(tooLittle.adding(days: -1), 23, 59)
        records.append(SessionRecord(task: "T", subtask: "late", start: eve2, end: eve2 + 100, status: .completed, focusedSeconds: 1, plannedSeconds: 1500))
        _ = try db.importSessions(now: Date(timeIntervalSince1970: Double(at(today, 12, 0)))) { insert in for r in records { try insert(r) } }
        let now = berlin.instant(today, TimeOfDay(hour: 12, minute: 0))
        let lean = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil, heatmap: false)
        let full = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil)
        let a = StatsCalculator.report(lean), b = StatsCalculator.report(full)
        #expect(a.summary.streakDays == 30)
        #expect(a.summary == b.summary)
        #expect(a.json().rendered() == b.json().rendered())
    }
}
