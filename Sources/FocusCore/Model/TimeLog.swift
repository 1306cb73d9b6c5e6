import FoundationEssentials

/// How a work session ended.
package enum SessionStatus: String, Sendable, Codable, CaseIterable {
    /// The countdown reached 0:00 without the person leaving.
    case completed
    /// The person left (or the process died) before 0:00.
    case interrupted
    /// Counted up with no planned length (`focus start PATH --open`) until stopped: neither
    /// completed nor interrupted, so it counts in every total and in no completion rate.
    case open

    /// Whether a person stopping it, with no reason given, is asked why: only a session left
    /// before its 0:00 was cut short. An open session ends by being stopped (a stopwatch has no
    /// early), and a completed one ran out.
    package var asksWhyWhenStopped: Bool { self == .interrupted }
}

/// One work session: against a subtask, or the task itself when it has none.
package struct TimeLog: Sendable, Equatable, Hashable {
    package var id: Int64?
    package var taskID: Int64
    package var subtaskID: Int64?
    package var startedAt: Date
    package var endedAt: Date
    /// What the countdown was set to, in seconds.
    package var plannedSeconds: Int
    /// Time actually focused, pauses excluded, in seconds.
    package var focusedSeconds: Int
    package var status: SessionStatus
    package var blockID: Int64?
    package var note: String?
    /// Its tags, each once, sorted (`SessionTags`; README, "Tags").
    package var tags: [String]

    package init(
        id: Int64? = nil, taskID: Int64, subtaskID: Int64? = nil, startedAt: Date, endedAt: Date,
        plannedSeconds: Int, focusedSeconds: Int, status: SessionStatus, blockID: Int64? = nil,
        note: String? = nil, tags: [String] = []
    ) {
        self.id = id
        self.taskID = taskID
        self.subtaskID = subtaskID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.plannedSeconds = plannedSeconds
        self.focusedSeconds = focusedSeconds
        self.status = status
        self.blockID = blockID
        self.note = note
        self.tags = tags
    }
}

/// A time log joined with the names a person reads: what `focus log`, stats and export show.
package struct SessionEntry: Sendable, Equatable, Hashable {
    package var log: TimeLog
    package var task: String
    package var subtask: String?

    package init(log: TimeLog, task: String, subtask: String?) {
        self.log = log
        self.task = task
        self.subtask = subtask
    }

    /// `Thesis/Chapter 2`, or `Thesis` when the session has no subtask.
    package var path: String { subtask.map { "\(task)/\($0)" } ?? task }
}
