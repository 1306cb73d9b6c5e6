import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// A database is a file people may edit with `sqlite3`, and SQLite stores whatever type a value
/// is written with. Every read converts as SQLite does instead of stopping the process.
@Suite struct HandEditedDatabaseTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")

    func edited(_ sql: String) throws -> AppDatabase {
        let db = try AppDatabase.inMemory()
        let sub = Subtask(taskID: 0, title: "Chapter 2", notes: "draft", estimateSeconds: 3600, due: TestDates.instant("2026-11-27T16:00:00Z"),
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

    // MARK: Numbers out of range (issue 15): read clamped to their column's domain

    static let max = "9223372036854775807"
    static let min = "-9223372036854775808"

    /// Every read path a command uses; returns the stats report.
    @discardableResult
    func readEverything(_ db: AppDatabase) throws -> StatsReport {
        let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
        _ = try db.overview(all: true)
        _ = try db.subtask(id: 2)
        _ = try db.recentSessions(limit: 5)
        _ = try db.sessions(overlapping: now - 86_400, now + 86_400)
        _ = try db.exportSessions(from: nil, to: nil) { _ in }
        _ = try db.focusedSeconds(from: now - 86_400, to: now + 86_400)
        _ = try db.dayTotals(from: now - 86_400, to: now + 86_400)
        _ = try db.subtasksDue(after: now - 86_400 * 365, through: now + 86_400 * 365)
        _ = try db.blocks(overlapping: now - 86_400, now + 86_400)
        let window = StatsWindow.last(30, today: berlin.day(of: now))
        return StatsCalculator.report(try db.statsInput(window: window, calendar: berlin, now: now, taskPath: nil))
    }

    @Test(arguments: [
        "UPDATE subtask SET estimateSeconds = 1e300 WHERE id = 2",
        "UPDATE timeLog SET endedAt = \(max)",
        "UPDATE timeLog SET startedAt = \(min)",
        "UPDATE subtask SET due = \(max), lastWorkedAt = \(min)",
        "UPDATE timeLog SET focusedSeconds = \(max), plannedSeconds = -1e300",
        "UPDATE task SET loggedSeconds = \(max), sessionCount = \(min)",
        "UPDATE subtask SET loggedSeconds = '99999999999999999999999', spanSeconds = -5",
        "UPDATE timeLog SET focusedSeconds = 9e999",
    ])
    func outOfRangeNumbersAreReadWithinTheirDomains(sql: String) throws {
        let db = try edited("PRAGMA ignore_check_constraints = ON; " + sql)
        let report = try readEverything(db)
        let instants = StoredNumber.instants
        let longest = Int(StoredNumber.Domain.seconds.range.upperBound)
        for t in try db.overview(all: true) {
            #expect((0...longest).contains(t.loggedSeconds))
            #expect(t.sessionCount >= 0)
            for s in t.subtasks {
                #expect((0...longest).contains(s.loggedSeconds))
                #expect(s.subtask.estimateSeconds.map { (0...longest).contains($0) } ?? true)
                #expect(s.subtask.due.map { instants.contains(Int64($0.timeIntervalSince1970)) } ?? true)
                _ = s.progressPercent
            }
        }
        for e in try db.recentSessions(limit: 5) {
            #expect(instants.contains(Int64(e.log.startedAt.timeIntervalSince1970)))
            // Within the rules of its table: 0 to 31 days long (a forgotten timer), no more focus than that.
            let length = e.log.endedAt.timeIntervalSince(e.log.startedAt)
            #expect(length >= 0 && length <= Double(StoredNumber.longestSession))
            #expect(Double(e.log.focusedSeconds) <= length && e.log.focusedSeconds >= 0)
        }
        #expect(report.totals.focusedSeconds >= 0)
    }

    @Test func anInstantPastTheYear9999IsReadAsItsLastSecond() throws {
        let db = try edited("UPDATE subtask SET due = \(Self.max)")
        #expect(try db.subtask(id: 2)?.due == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test func aHugeDurationIsReadAsAHundredYears() throws {
        let db = try edited("UPDATE subtask SET estimateSeconds = 1e300")
        #expect(try db.subtask(id: 2)?.estimateSeconds == 36_525 * 86_400)
    }

    @Test func aSessionEndingBeforeItStartsIsReadAsEmpty() throws {
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET endedAt = startedAt - 600")
        let log = try #require(try db.recentSessions(limit: 1).first?.log)
        #expect(log.endedAt == log.startedAt)
        #expect(log.focusedSeconds == 0)
    }

    @Test func aSessionWithAnOutOfRangeStartKeepsItsEndAndLastsAtMostTheLongestSession() throws {
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET startedAt = \(Self.min)")
        let log = try #require(try db.session(id: 1)?.log)
        #expect(log.endedAt == now)
        #expect(log.startedAt == now - Double(StoredNumber.longestSession))
        #expect(log.focusedSeconds == 1500)
    }

    @Test func aSessionWithAnOutOfRangeEndKeepsItsStart() throws {
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET endedAt = \(Self.max)")
        let log = try #require(try db.session(id: 1)?.log)
        #expect(log.startedAt == now - 1500)
        #expect(log.endedAt == now - 1500 + Double(StoredNumber.longestSession))
    }

    @Test func hugeSumsOfFocusAreTotalledNotOverflowed() throws {
        // SQLite's sum() raises "integer overflow" past the 64-bit bounds; focus must not fail.
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET focusedSeconds = \(Self.max)")
        _ = try db.recordSession(TimeLog(taskID: 1, subtaskID: 2, startedAt: now - 600, endedAt: now - 300, plannedSeconds: 300,
                                         focusedSeconds: 300, status: .completed), now: now)
        // Each session's focus is read as no more than its length, as the stats read it: 1500 + 300.
        #expect(try db.focusedSeconds(from: now - 86_400, to: now + 1) == 1800)
        #expect(try db.dayTotals(from: now - 86_400, to: now + 1).completed == 2)
    }

    // MARK: What doctor and restore list

    @Test func aCleanDatabaseHasNoOutOfRangeValues() throws {
        let db = try edited("SELECT 1")
        #expect(try db.outOfRangeValues().total == 0)
    }

    @Test func outOfRangeValuesNameTableIdColumnAndValue() throws {
        let db = try edited("""
            PRAGMA ignore_check_constraints = ON;
            UPDATE subtask SET estimateSeconds = 1e300, due = 'soon', earliestMinutes = 5000 WHERE id = 2;
            UPDATE task SET sessionCount = -1
            """)
        let found = try db.outOfRangeValues()
        let named = found.values.map { "\($0.table) #\($0.id) \($0.column) = \($0.value)" }
        #expect(named.contains("task #1 sessionCount = -1"))
        #expect(named.contains("subtask #2 estimateSeconds = 1.0e+300"))
        #expect(named.contains("subtask #2 due = 'soon'"))
        #expect(named.contains("subtask #2 earliestMinutes = 5000"))
        #expect(found.total == found.values.count)
        #expect(found.values.first { $0.column == "due" }?.description == "subtask #2 due = 'soon' (expected an instant in the years 0001-9999)")
    }

    @Test func aSessionBreakingItsRowRulesIsListed() throws {
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET endedAt = startedAt + 3000000")
        let found = try db.outOfRangeValues()
        #expect(found.values.map { "\($0.table) #\($0.id) \($0.column)" } == ["timeLog #1 endedAt"])
    }

    @Test func theListIsCutAtTheLimitButCountsEveryValue() throws {
        let db = try edited("UPDATE timeLog SET createdAt = 1e300; UPDATE task SET createdAt = 1e300; UPDATE subtask SET createdAt = 1e300")
        let found = try db.outOfRangeValues(limit: 2)
        #expect(found.values.count == 2)
        #expect(found.total == 3)
    }

    @Test func backupAndRestoreInspectionAcceptOutOfRangeValuesAndListThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-values-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("backup.sqlite").path
        let db = try edited("PRAGMA ignore_check_constraints = ON; UPDATE timeLog SET endedAt = \(Self.max)")
        // A row breaking a CHECK constraint is not damage: the backup is made (it was refused as
        // "damaged", so no daily backup was made again after such an edit).
        let made = try db.backup(to: path)
        #expect(made.sessions == 1)
        let facts = try AppDatabase.inspect(backup: path)
        #expect(facts.sessions == 1)
        #expect(facts.outOfRange.contains { $0.table == "timeLog" && $0.id == 1 && $0.column == "endedAt" })
        #expect(facts.outOfRangeTotal >= 1)
    }
}
