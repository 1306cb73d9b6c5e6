import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// `focus start --tag`: the running row keeps the tags, and every work session the run records
/// (or a recovery of it) has them (README, "Tags").
@Suite struct SessionTagsStorageTests {
    let start = TestDates.instant("2026-11-22T09:00:00Z")

    func running(_ db: AppDatabase, task: Int64, pid: Int32, tags: [String]) throws {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1200), isPaused: false,
            phaseStartedAt: start, endsAt: start.addingTimeInterval(1500), focusedSeconds: 300, workStartedAt: start,
            workPlannedSeconds: 1500)
        _ = try db.claimSession(ActiveSession(pid: pid, taskID: task, subtaskID: nil, blockID: nil, snapshot: snapshot,
                                              checkpointAt: start.addingTimeInterval(300), tags: tags),
                                now: start, lock: {})
    }

    @Test func workRecordedByATaggedRunHasItsTags() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        try running(db, task: task, pid: 201, tags: ["deep", "Morning"])
        #expect(try db.activeSession()?.tags == ["deep", "Morning"])
        let id = try db.recordWork(TimeLog(taskID: task, subtaskID: nil, startedAt: start, endedAt: start.addingTimeInterval(1500),
                                           plannedSeconds: 1500, focusedSeconds: 1500, status: .completed), pid: 201, now: start)
        #expect(try db.session(id: id)?.log.tags == ["deep", "Morning"])
    }

    @Test func aRecoveredTaggedRunKeepsItsTags() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        try running(db, task: task, pid: 202, tags: ["deep"])
        let recovered = try db.recoverStaleSession(owner: { .nobody }, now: start.addingTimeInterval(600))
        #expect(recovered?.log?.log.tags == ["deep"])
    }

    @Test func aTagNameIsUniqueIgnoringCaseInTheStoreToo() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        for (k, tag) in ["Deep", "DEEP", "deep"].enumerated() {
            _ = try db.recordSession(TimeLog(taskID: task, startedAt: start.addingTimeInterval(Double(k) * 3600),
                                             endedAt: start.addingTimeInterval(Double(k) * 3600 + 60), plannedSeconds: 60, focusedSeconds: 60,
                                             status: .completed, tags: [tag]), now: start)
        }
        let names = try db.read { db in try String.fetchAll(db, sql: "SELECT name FROM tag") }
        #expect(names == ["Deep"])
        // A session that goes takes its tag links with it.
        let ids = try db.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM timeLog") }
        try db.removeSession(id: ids[0])
        #expect(try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM timeLogTag") } == 2)
    }
}
