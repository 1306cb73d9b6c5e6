import FocusCore
import FocusStorage
import Foundation

/// The runner's store: the time log and the running-session row of this process.
struct DatabaseSessionStore: SessionStore {
    let database: AppDatabase
    let pid: Int32
    let taskID: Int64
    let subtaskID: Int64?
    let blockID: Int64?
    let now: @Sendable () -> Date

    func record(_ work: WorkRecord) throws(FocusError) -> Int64 {
        let log = TimeLog(taskID: taskID, subtaskID: subtaskID, startedAt: work.startedAt, endedAt: work.endedAt,
                          plannedSeconds: work.plannedSeconds, focusedSeconds: work.focusedSeconds, status: work.status,
                          blockID: blockID)
        return try database.recordWork(log, pid: pid, now: now())
    }

    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) {
        try database.checkpointSession(pid: pid, snapshot, at: now())
    }

    func finish() throws(FocusError) {
        try database.finishSession(pid: pid)
    }
}
