import FoundationEssentials

/// The running session as other processes see it (`focus status`, `focus stop`, crash recovery).
package struct ActiveSession: Sendable, Equatable {
    package enum Request: String, Sendable { case stop, pause, resume, skip }

    package var pid: Int32
    package var taskID: Int64
    package var subtaskID: Int64?
    package var blockID: Int64?
    package var snapshot: SessionSnapshot
    /// When the row was last written.
    package var checkpointAt: Date
    package var request: Request?
    package var reason: String?
    /// The tags its work is recorded with (`start --tag`; README, "Tags").
    package var tags: [String]

    package init(pid: Int32, taskID: Int64, subtaskID: Int64?, blockID: Int64?, snapshot: SessionSnapshot, checkpointAt: Date,
                 request: Request? = nil, reason: String? = nil, tags: [String] = []) {
        self.pid = pid
        self.taskID = taskID
        self.subtaskID = subtaskID
        self.blockID = blockID
        self.snapshot = snapshot
        self.checkpointAt = checkpointAt
        self.request = request
        self.reason = reason
        self.tags = tags
    }

    /// Focus so far at `now` in the current work session, from the row: the focus at the last
    /// checkpoint, plus the time since unless paused (what an open session shows).
    package func elapsedSeconds(at now: Date) -> Int {
        guard snapshot.phase == .work else { return 0 }
        let since = snapshot.isPaused ? 0 : max(0, Int(now.timeIntervalSince(checkpointAt).rounded(.down)))
        return snapshot.focusedSeconds + since
    }

    /// Remaining time at `now`, from the row (a paused session keeps its remaining time).
    package func remainingSeconds(at now: Date) -> Int {
        guard let ends = snapshot.endsAt, !snapshot.isPaused else { return snapshot.remainingSeconds }
        return max(0, Int(ends.timeIntervalSince(now).rounded(.up)))
    }
}

extension ActiveSession {
    /// The note a session recovered from a row whose process is gone carries.
    package static let recoveredNote = "recovered: focus ended unexpectedly"

    /// What a running-session row whose process is gone becomes (README, "What focus promises"):
    /// its work in progress up to the last checkpoint, as an open session for a stopwatch and an
    /// interrupted one otherwise, its focus no more than the time it covers, at most the longest
    /// session the log holds (a timer left running for weeks, or a hand-edited checkpoint, must
    /// not make every later command fail to recover it). Nil in a break: no work in progress.
    /// `blockID`: the block it ran for, if that block is still there.
    package func recoveredLog(blockID: Int64?) -> TimeLog? {
        guard let started = snapshot.workStartedAt else { return nil }
        let end = min(max(started, checkpointAt), started.addingTimeInterval(Double(SessionRecord.maximumLengthSeconds)))
        return TimeLog(taskID: taskID, subtaskID: subtaskID, startedAt: started, endedAt: end,
                       plannedSeconds: snapshot.workPlannedSeconds,
                       focusedSeconds: min(snapshot.focusedSeconds, Int(end.timeIntervalSince(started))),
                       status: snapshot.isOpen ? .open : .interrupted, blockID: blockID,
                       note: Self.recoveredNote, tags: tags)
    }
}
