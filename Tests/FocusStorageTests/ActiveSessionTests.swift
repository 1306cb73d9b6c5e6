import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// The running-session row: who may claim it, recover it, ask it to stop, or delete under it.
@Suite struct ActiveSessionTests {
    let start = TestDates.instant("2026-11-22T09:00:00Z")

    func session(pid: Int32, task: Int64, subtask: Int64? = nil, focused: Int = 0) -> ActiveSession {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500 - focused), isPaused: false,
            phaseStartedAt: start, endsAt: start.addingTimeInterval(1500), focusedSeconds: focused, workStartedAt: start,
            workPlannedSeconds: 1500)
        return ActiveSession(pid: pid, taskID: task, subtaskID: subtask, blockID: nil, snapshot: snapshot,
                             checkpointAt: start.addingTimeInterval(Double(focused)))
    }

    func logCount(_ db: AppDatabase) throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM timeLog") ?? 0 }
    }

    @Test func aClaimRecordsTheWorkOfARowWhoseProcessIsGoneInTheSameTransaction() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task, focused: 0), now: start, lock: {})
        try db.checkpointSession(session(pid: 101, task: task, focused: 40))
        // A new start holds the lock, so the old row's process is gone: its 40 s are kept.
        let recovered = try db.claimSession(session(pid: 102, task: task), now: start.addingTimeInterval(60), lock: {})
        #expect(recovered?.session.pid == 101)
        #expect(recovered?.log?.log.status == .interrupted)
        #expect(recovered?.log?.log.focusedSeconds == 40)
        #expect(try db.activeSession()?.pid == 102)
    }

    @Test func aClaimWhoseLockIsRefusedWritesNothing() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task, focused: 30), now: start, lock: {})
        #expect(throws: FocusError.unavailable("a session is already running (pid 101).")) {
            try db.claimSession(session(pid: 102, task: task), now: start) { () throws(FocusError) in
                throw .unavailable("a session is already running (pid 101).")
            }
        }
        #expect(try db.activeSession()?.pid == 101)
        #expect(try logCount(db) == 0)
    }

    @Test func aRowIsRecoveredOnlyWhenNobodyHoldsTheLockWhateverPidItHolds() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        // The stored pid is this very (live) process: it proves nothing.
        _ = try db.claimSession(session(pid: getpid(), task: task, focused: 10), now: start, lock: {})
        #expect(try db.recoverStaleSession(owner: { .process(999) }, now: start) == nil)
        #expect(try db.recoverStaleSession(owner: { .unknown("unreadable") }, now: start) == nil)
        #expect(try db.activeSession() != nil)
        let recovered = try db.recoverStaleSession(owner: { .nobody }, now: start)
        #expect(recovered?.log?.log.focusedSeconds == 10)
        #expect(try db.activeSession() == nil)
    }

    @Test func ofTwoStopsTheFirstWinsAndKeepsItsReason() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task), now: start, lock: {})
        let first = try db.requestControl(.stop, reason: "meeting", owner: { .process(101) }, now: start)
        let second = try db.requestControl(.stop, reason: "phone", owner: { .process(101) }, now: start)
        let pause = try db.requestControl(.pause, reason: nil, owner: { .process(101) }, now: start)
        #expect(first.decision == .send(pid: 101))
        #expect(second.decision == .alreadyStopping(pid: 101))
        #expect(pause.decision == .alreadyStopping(pid: 101))
        // The session takes it; it stays visible until the run ends.
        #expect(try db.takeRequest().map { "\($0.0.rawValue) \($0.1 ?? "-")" } == "stop meeting")
        #expect(try db.requestControl(.stop, reason: "late", owner: { .process(101) }, now: start).decision == .alreadyStopping(pid: 101))
        #expect(try db.activeSession()?.reason == "meeting")
    }

    @Test func aStopForASessionWhoseProcessIsGoneRecoversItAndSignalsNobody() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 1, task: task, focused: 20), now: start, lock: {})
        let outcome = try db.requestControl(.stop, reason: "x", owner: { .nobody }, now: start)
        #expect(outcome.decision == .recover)
        #expect(outcome.recovered?.log.focusedSeconds == 20)
        #expect(try db.activeSession() == nil)
        #expect(try db.requestControl(.stop, reason: nil, owner: { .process(5) }, now: start).decision == .noSession)
    }

    @Test func aPauseOrResumeIsTakenAndCleared() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task), now: start, lock: {})
        _ = try db.requestControl(.pause, reason: nil, owner: { .process(101) }, now: start)
        #expect(try db.takeRequest()?.0 == .pause)
        #expect(try db.takeRequest() == nil)
    }

    @Test func theRunningSessionsTaskAndSubtaskCannotBeDeletedFromUnderIt() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        let (_, sub, _, _) = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: task, title: "Chapter 2", createdAt: start), now: start)
        let other = try db.addTask(title: "Other", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task, subtask: sub), now: start, lock: {})
        #expect(try db.remove(.task(id: task), isRunning: { .process(101) })?.owner == .process(101))
        #expect(try db.remove(.subtask(taskID: task, id: sub), isRunning: { .unknown("?") }) != nil)
        #expect(try db.activeSession() != nil)
        #expect(try db.catalog().resolve("Thesis/Chapter 2") == .subtask(taskID: task, id: sub))
        // Other work may go; and once the session's process is gone, so may this.
        #expect(try db.remove(.task(id: other), isRunning: { .process(101) }) == nil)
        #expect(try db.remove(.task(id: task), isRunning: { .nobody }) == nil)
        #expect(try db.activeSession() == nil)
    }

    @Test func theLockHoldersCheckpointPutsItsRowRight() throws {
        let db = try AppDatabase.inMemory()
        let task = try db.addTask(title: "Thesis", notes: nil, now: start)
        _ = try db.claimSession(session(pid: 101, task: task), now: start, lock: {})
        // A hand edit puts a stranger's pid in the row, then deletes it.
        try db.write { db in try db.execute(sql: "UPDATE activeSession SET pid = 1") }
        try db.checkpointSession(session(pid: 101, task: task, focused: 5))
        #expect(try db.activeSession()?.pid == 101)
        try db.write { db in try db.execute(sql: "DELETE FROM activeSession") }
        try db.checkpointSession(session(pid: 101, task: task, focused: 10))
        #expect(try db.activeSession()?.snapshot.focusedSeconds == 10)
    }
}
