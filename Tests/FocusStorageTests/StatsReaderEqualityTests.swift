import FocusCore
import FocusRendering
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

/// The fast stats reader (`statsInput`: day totals, quarter-hour sums, streak probes) against
/// the plain one (`statsInputOneByOne`: every session one by one): one report, to the byte of
/// its JSON, over a random history with sessions across midnight, paused, of zero length and
/// longer than a day, in zones with DST changes and one whose midnight is off the quarter hour.

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
        let oneByOne = try db.statsInputOneByOne(window: window, calendar: calendar, now: now, taskPath: path)
        #expect(oneByOne.sessions.count == all.count && oneByOne.dayTotals.isEmpty)
        #expect(oneByOne.progress == fast.progress)
        #expect(fast.sessions.count < all.count && !fast.dayTotals.isEmpty)
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
        let oneByOne = try db.statsInputOneByOne(window: window, calendar: calendar, now: now, taskPath: nil)
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
        let reference = StatsCalculator.report(try db.statsInputOneByOne(window: window, calendar: berlin, now: now, taskPath: nil))
        #expect(a.summary.streakDays == 30)
        #expect(a.summary == b.summary && b.summary == reference.summary)
        #expect(a.json().rendered() == b.json().rendered() && b.json().rendered() == reference.json().rendered())
    }
}
