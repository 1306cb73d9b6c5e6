import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// Sessions focus times itself must be recorded whatever is already in the log. Found by
/// scripts/torture/torture: a session killed and started again within the same second could not be
/// recovered, and every later command failed on the unique index.
@Suite struct SessionRecordingTests {
    let start = TestDates.instant("2026-11-22T09:00:00Z")

    func running(_ db: AppDatabase, task: Int64, pid: Int32, at start: Date, focused: Int) throws {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500 - focused), isPaused: false,
            phaseStartedAt: start, endsAt: start.addingTimeInterval(1500), focusedSeconds: focused, workStartedAt: start,
            workPlannedSeconds: 1500)
        _ = try db.claimSession(ActiveSession(pid: pid, taskID: task, subtaskID: nil, blockID: nil, snapshot: snapshot,
                                          checkpointAt: start.addingTimeInterval(Double(focused))),
                            now: start, lock: {})
    }

    func logs(_ db: AppDatabase) throws -> [(start: Int64, status: String)] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT startedAt, status FROM timeLog ORDER BY startedAt").map { ($0[0], $0[1]) }
        }
    }

    @Test func aKilledSessionStartedInTheSecondAnotherBeganIsStillRecovered() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        // The first run was killed at once and recovered…
        try running(db, task: task, pid: 101, at: start, focused: 0)
        #expect(try db.recoverStaleSession(owner: { .nobody }, now: start)?.log != nil)
        // …and the second, started in the same second, was killed too.
        try running(db, task: task, pid: 102, at: start.addingTimeInterval(0.5), focused: 5)
        let recovered = try db.recoverStaleSession(owner: { .nobody }, now: start.addingTimeInterval(10))
        #expect(recovered?.log?.log.focusedSeconds == 4)
        #expect(try db.activeSession() == nil)
        let t = start.timeIntervalSince1970
        #expect(try logs(db).map(\.start) == [Int64(t), Int64(t) + 1])
        #expect(try logs(db).map(\.status) == ["interrupted", "interrupted"])
    }

    @Test func aFinishedSessionStartedInTheSecondAnotherBeganIsRecorded() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.recordSession(TimeLog(taskID: task, subtaskID: nil, startedAt: start, endedAt: start, plannedSeconds: 1500,
                                         focusedSeconds: 0, status: .interrupted), now: start)
        try running(db, task: task, pid: 103, at: start, focused: 0)
        let id = try db.recordWork(TimeLog(taskID: task, subtaskID: nil, startedAt: start, endedAt: start.addingTimeInterval(1500),
                                           plannedSeconds: 1500, focusedSeconds: 1500, status: .completed), pid: 103, now: start)
        let entry = try #require(try db.session(id: id))
        #expect(entry.log.status == .completed)
        #expect(entry.log.startedAt == start.addingTimeInterval(1))
        #expect(entry.log.focusedSeconds == 1499)
    }
}
