import FoundationEssentials

/// A subtask with its logged focus: one row of `focus task list`.
package struct SubtaskOverview: Sendable, Equatable {
    package var subtask: Subtask
    package var loggedSeconds: Int
    package var lastWorkedAt: Date?
    /// For a series as a listing shows it (`RecurringWork.fold`): the instance it stands for.
    package var currentInstanceID: Int64?
    /// Deleted in another app and kept here with its sessions (README, "Two machines").
    package var deletedElsewhere = false

    package init(subtask: Subtask, loggedSeconds: Int, lastWorkedAt: Date? = nil) {
        self.subtask = subtask
        self.loggedSeconds = loggedSeconds
        self.lastWorkedAt = lastWorkedAt
    }

    /// Logged over estimate, in percent (nil without an estimate).
    package var progressPercent: Int? {
        guard let e = subtask.estimateSeconds, e > 0 else { return nil }
        return Int((Double(loggedSeconds) * 100 / Double(e)).rounded())
    }
}

/// A task with its subtasks and totals.
package struct TaskOverview: Sendable, Equatable {
    package var task: FocusTask
    package var loggedSeconds: Int
    package var sessionCount: Int
    package var subtasks: [SubtaskOverview]
    /// Deleted in another app and kept here, archived, with its sessions (README, "Two machines").
    package var deletedElsewhere = false

    package init(task: FocusTask, loggedSeconds: Int, sessionCount: Int, subtasks: [SubtaskOverview]) {
        self.task = task
        self.loggedSeconds = loggedSeconds
        self.sessionCount = sessionCount
        self.subtasks = subtasks
    }
}
