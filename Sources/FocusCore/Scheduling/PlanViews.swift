import FoundationEssentials

// The plan, the agenda and a task's history as the person sees them: values that storage's
// queries return and FocusRendering's views show (`PlanRenderer`, `AgendaRenderer`,
// `TaskRenderer`).

/// A block as `plan` and `agenda` show it.
package struct BlockView: Sendable, Equatable {
    /// Nil for a block a dry run would create.
    package var id: Int64?
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var start: Date
    package var end: Date
    package var status: BlockStatus
    /// The UID of its event when the person moved it in a calendar app (`BlockPin`).
    package var pinnedUID: String?
    /// The subtask's sync name (README, "Two machines"), when it has one.
    package var subtaskSyncUID: String?

    package init(id: Int64?, subtaskID: Int64, task: String, subtask: String, start: Date, end: Date, status: BlockStatus,
                 pinnedUID: String? = nil, subtaskSyncUID: String? = nil) {
        self.id = id
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.start = start
        self.end = end
        self.status = status
        self.pinnedUID = pinnedUID
        self.subtaskSyncUID = subtaskSyncUID
    }

    package var path: String { "\(task)/\(subtask)" }

    package static func ordered(_ a: BlockView, _ b: BlockView) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return (a.id ?? .max) < (b.id ?? .max)
    }
}

/// A subtask the plan cannot fit before its due date.
package struct RiskView: Sendable, Equatable {
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var due: Date
    package var neededSeconds: Int
    package var freeSeconds: Int
    package var competitors: [String]
    /// The daily cap, when it is what keeps the work from fitting (not kept for the agenda).
    package var capSeconds: Int?

    package init(subtaskID: Int64, task: String, subtask: String, due: Date, neededSeconds: Int, freeSeconds: Int, competitors: [String],
                 capSeconds: Int? = nil) {
        self.capSeconds = capSeconds
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.due = due
        self.neededSeconds = neededSeconds
        self.freeSeconds = freeSeconds
        self.competitors = competitors
    }
}

/// A subtask whose due date has passed with work left, as `plan`, `agenda` and `task list` show it.
package struct OverdueView: Sendable, Equatable {
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var due: Date
    package var remainingSeconds: Int

    package init(subtaskID: Int64, task: String, subtask: String, due: Date, remainingSeconds: Int) {
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.due = due
        self.remainingSeconds = remainingSeconds
    }
}

/// A subtask with work left but no due date: not planned.
package struct UndatedView: Sendable, Equatable {
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var remainingSeconds: Int

    package init(subtaskID: Int64, task: String, subtask: String, remainingSeconds: Int) {
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.remainingSeconds = remainingSeconds
    }
}

/// A re-plan's answer: the blocks ending after `showFrom`, the at-risk, overdue and unplanned
/// lists, and the decision.
package struct PlanOutcome: Sendable {
    package var blocks: [BlockView]
    package var atRisk: [RiskView]
    package var overdue: [OverdueView]
    package var undated: [UndatedView]
    package var result: ReplanResult

    package init(blocks: [BlockView], atRisk: [RiskView], overdue: [OverdueView], undated: [UndatedView], result: ReplanResult) {
        self.blocks = blocks
        self.atRisk = atRisk
        self.overdue = overdue
        self.undated = undated
        self.result = result
    }
}

/// A subtask due on a given day, for the agenda.
package struct DueView: Sendable, Equatable {
    package var subtaskID: Int64
    package var task: String
    package var subtask: String
    package var due: Date
    package var estimateSeconds: Int?
    package var loggedSeconds: Int
    package var done: Bool

    package init(subtaskID: Int64, task: String, subtask: String, due: Date, estimateSeconds: Int?, loggedSeconds: Int, done: Bool) {
        self.subtaskID = subtaskID
        self.task = task
        self.subtask = subtask
        self.due = due
        self.estimateSeconds = estimateSeconds
        self.loggedSeconds = loggedSeconds
        self.done = done
    }
}

/// The sessions of one task or subtask: some of them, and how many there are in all.
package struct SessionPage: Sendable, Equatable {
    /// Newest first.
    package var entries: [SessionEntry]
    /// Every session of the task or subtask, shown or not.
    package var count: Int
    /// Their focus, in seconds.
    package var focusedSeconds: Int

    package init(entries: [SessionEntry], count: Int, focusedSeconds: Int) {
        self.entries = entries
        self.count = count
        self.focusedSeconds = focusedSeconds
    }
}
