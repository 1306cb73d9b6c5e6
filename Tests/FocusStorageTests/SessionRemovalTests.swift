import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// Deleting a subtask's or task's whole log: one transaction, never under a running session.
@Suite struct SessionRemovalTests {
    let start = TestDates.instant("2026-11-22T09:00:00Z")

    func world() throws -> (AppDatabase, task: Int64, sub: Int64, other: Int64) {
        let db = try AppDatabase.inMemory()
        let a = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Chapter 2", createdAt: start), now: start)
        let b = try db.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Intro", createdAt: start), now: start)
        for (i, sub) in [a.subtaskID, a.subtaskID, b.subtaskID].enumerated() {
            let s = start.addingTimeInterval(Double(i) * 3600)
            _ = try db.recordSession(TimeLog(taskID: a.taskID, subtaskID: sub, startedAt: s, endedAt: s + 1500, plannedSeconds: 1500,
                                             focusedSeconds: 1200, status: .completed), now: start + 86_400)
        }
        return (db, a.taskID, a.subtaskID, b.subtaskID)
    }

    func claim(_ db: AppDatabase, task: Int64, sub: Int64?, pid: Int32) throws {
        let snapshot = SessionSnapshot(
            phase: .shortBreak, cycle: 1, cycles: 4, plannedSeconds: 300, remaining: .seconds(300), isPaused: false,
            phaseStartedAt: start, endsAt: start + 300, focusedSeconds: 0, workStartedAt: nil, workPlannedSeconds: 1500)
        _ = try db.claimSession(ActiveSession(pid: pid, taskID: task, subtaskID: sub, blockID: nil, snapshot: snapshot, checkpointAt: start),
                                now: start, lock: {})
    }

    @Test func theDeleteItselfRefusesWorkARunningSessionRecordsEvenOnABreak() throws {
        let (db, task, sub, other) = try world()
        try claim(db, task: task, sub: sub, pid: 4242)
        for target in [PathTarget.subtask(taskID: task, id: sub), .task(id: task)] {
            #expect(throws: FocusError.self) { try db.removeSessions(of: target, isRunning: { true }) }
            #expect(try db.sessions(of: target).count >= 2)
        }
        // A session whose process is gone holds nothing back.
        let removed = try db.removeSessions(of: .subtask(taskID: task, id: sub), isRunning: { false })
        #expect(removed.count == 2)
        #expect(removed.focusedSeconds == 2400)
        #expect(try db.sessions(of: .subtask(taskID: task, id: other)).count == 1)
        #expect(try db.overview(all: true).first?.loggedSeconds == 1200)
    }

    @Test func aPageListsTheNewestAndCountsThemAll() throws {
        let (db, task, _, _) = try world()
        let page = try db.sessions(of: .task(id: task), limit: 2)
        #expect(page.entries.map(\.log.startedAt) == [start + 7200, start + 3600])
        #expect(page.count == 3)
        #expect(page.focusedSeconds == 3600)
    }
}
