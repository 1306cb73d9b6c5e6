import FocusCore
import FocusStorage
import FoundationEssentials

/// The runner's store: the time log and the running-session row, written by the process that
/// holds the session lock (so the row is this process's own).
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
                          blockID: blockID, note: work.note)
        return try database.recordWork(log, pid: pid, now: now())
    }

    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) {
        try database.checkpointSession(ActiveSession(pid: pid, taskID: taskID, subtaskID: subtaskID, blockID: blockID,
                                                     snapshot: snapshot, checkpointAt: now()))
    }

    func finish() throws(FocusError) {
        try database.finishSession()
    }
}
