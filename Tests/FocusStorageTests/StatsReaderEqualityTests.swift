import FocusCore
import FocusRendering
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// The stats reader (`statsInput`: index ranges on the start time from a day before the window,
/// and `timeLog_long` for the sessions longer than a day) against a scan of the whole log
/// filtered here: one report, to the byte of its JSON, over a random history with sessions
/// across midnight, paused, of zero length and longer than a day, in zones with DST changes and
/// one whose midnight is off the quarter hour.

@Suite struct StatsReaderEqualityTests {
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

    /// The reference input: every session of the whole log, kept here when it overlaps the
    /// loaded days (or starts in them) and matches `path`.
    static func scanned(_ db: AppDatabase, _ window: StatsWindow, _ calendar: LocalCalendar, now: Date, path: String?,
                        progress: [SubtaskProgress]) throws -> StatsInput {
        let target = try path.map { try db.catalog().resolve($0) }
        let lo = calendar.startOfDay(window.historyFrom), hi = calendar.startOfDay(window.to.adding(days: 1))
        let entries = try db.sessions(overlapping: .distantPast, .distantFuture).filter { e in
            e.log.startedAt < hi && (e.log.endedAt > lo || e.log.startedAt >= lo)
                && (target == nil || (target?.subtaskID.map { e.log.subtaskID == $0 } ?? (e.log.taskID == target?.taskID)))
        }
        return StatsInput(window: window, calendar: calendar, now: now, sessions: entries, progress: progress,
                          taskFilter: try target.map { try db.catalog().path(of: $0) }, historyFrom: window.historyFrom)
    }

    @Test(arguments: [
        ("Europe/Berlin", 2026, 11, 16, 2026, 11, 22, nil),
        ("Europe/Berlin", 2026, 10, 24, 2026, 11, 22, nil),
        ("Europe/Berlin", 2026, 10, 20, 2026, 11, 3, "T1"),
        ("America/New_York", 2026, 10, 25, 2026, 11, 7, nil),
        ("America/New_York", 2026, 11, 1, 2026, 11, 1, "T2/S1"),
        ("UTC", 2026, 9, 1, 2026, 11, 22, nil),
    ] as [(String, Int, Int, Int, Int, Int, Int, String?)])
    func theIndexedReadGivesExactlyTheReportOfTheWholeLogScanned(
        zone: String, y1: Int, m1: Int, d1: Int, y2: Int, m2: Int, d2: Int, path: String?
    ) throws {
        let db = try Self.database()
        let calendar = LocalCalendar(zone: ZoneRules.named(zone)!)
        let window = StatsWindow(from: LocalDate(year: y1, month: m1, day: d1), to: LocalDate(year: y2, month: m2, day: d2))
        let now = calendar.startOfDay(window.to).addingTimeInterval(20 * 3600)
        let input = try db.statsInput(window: window, calendar: calendar, now: now, taskPath: path)
        let reference = try Self.scanned(db, window, calendar, now: now, path: path, progress: input.progress)
        #expect(input.sessions.count == reference.sessions.count)
        if path == nil, window.dayCount <= 31 {
            // The history holds sessions begun more than a day before the loaded days that run into them.
            let lo = Int64(calendar.startOfDay(window.historyFrom).timeIntervalSince1970)
            #expect(input.sessions.contains { $0.end - $0.start > 86_400 && $0.start < lo - 86_400 })
        }
        let a = StatsCalculator.report(input)
        let b = StatsCalculator.report(reference)
        #expect(a == b)
        #expect(a.json().rendered() == b.json().rendered())
        #expect(a.heatmap.compactMap(\.focusedSeconds).reduce(0, +) > 0)
    }

    @Test func theCAPIReaderReadsExactlyWhatRowsRead() throws {
        let db = try Self.database()
        // Some sessions open (no planned length), some without a subtask: every outcome and NULL.
        try db.write { db in try db.execute(sql: "UPDATE timeLog SET status = 'open' WHERE id % 11 = 0") }
        var rng = SeededRandom(seed: 29)
        let end: Int64 = 1_795_392_000  // 2026-11-23T00:00:00Z
        var read = 0
        for _ in 0..<40 {
            let from = end - 160 * 86_400 + Int64(rng.next() % UInt64(170 * 86_400))
            let to = from + Int64(rng.next() % UInt64(60 * 86_400))
            let fromDate = Date(timeIntervalSince1970: Double(from)), toDate = Date(timeIntervalSince1970: Double(to))
            let raw = try db.statsSessions(overlapping: fromDate, toDate, viaRow: false)
            let rows = try db.statsSessions(overlapping: fromDate, toDate, viaRow: true)
            #expect(raw == rows)
            read += raw.count
        }
        #expect(read > 1000)
    }

    @Test func aZoneWhoseMidnightIsOffTheQuarterHourGivesTheReportOfTheWholeLog() throws {
        let db = try Self.database()
        // +00:20: local midnights fall at hh:40 UTC.
        let calendar = LocalCalendar(zone: .fixed(secondsEast: 1200, identifier: "Odd"))
        let window = StatsWindow.last(14, today: LocalDate(year: 2026, month: 11, day: 22))
        let now = calendar.startOfDay(window.to).addingTimeInterval(20 * 3600)
        let input = try db.statsInput(window: window, calendar: calendar, now: now, taskPath: nil)
        let reference = try Self.scanned(db, window, calendar, now: now, path: nil, progress: input.progress)
        #expect(StatsCalculator.report(input).json().rendered() == StatsCalculator.report(reference).json().rendered())
    }

    @Test func theStreakCountsDaysWhoseOnlyFocusIsASessionBegunTheEveningBefore() throws {
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
        let input = try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil)
        let a = StatsCalculator.report(input)
        let reference = StatsCalculator.report(try Self.scanned(db, window, berlin, now: now, path: nil, progress: input.progress))
        #expect(a.summary.streakDays == 30)
        #expect(a.json().rendered() == reference.json().rendered())
    }
}
