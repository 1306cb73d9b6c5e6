import Foundation

/// How far a subtask has got against its estimate: what the estimate figures are made of.
package struct SubtaskProgress: Sendable, Equatable {
    package var task: String
    package var subtask: String
    /// Estimated total work in seconds; nil when the person gave none.
    package var estimateSeconds: Int?
    /// Focused seconds logged against the subtask, all time.
    package var loggedSeconds: Int
    package var done: Bool
    /// When its latest session ended; nil when it has none.
    package var lastWorkedAt: Date?

    package init(task: String, subtask: String, estimateSeconds: Int?, loggedSeconds: Int, done: Bool, lastWorkedAt: Date?) {
        self.task = task
        self.subtask = subtask
        self.estimateSeconds = estimateSeconds
        self.loggedSeconds = loggedSeconds
        self.done = done
        self.lastWorkedAt = lastWorkedAt
    }
}

/// Everything a stats report is computed from. The calculator reads nothing else: no clock,
/// no database, no environment.
///
/// The caller loads `sessions` as every session overlapping
/// `[calendar.startOfDay(historyFrom), calendar.startOfDay(window.to + 1 day))`.
/// `historyFrom` defaults to `window.previous.from`, which is enough for the JSON, CSV and
/// terminal figures; the streak can then see back to that day only, and the HTML heatmap
/// shows days before it as "no data". Loading from `window.historyFrom` instead (12 weeks
/// back, or the previous period when that is longer) makes the streak and the heatmap
/// complete. `stats --json` and `report --html` agree exactly when both load the same range.
package struct StatsInput: Sendable {
    package var window: StatsWindow
    /// The zone days are cut in.
    package var calendar: LocalCalendar
    /// The moment the command runs: decides "today" for the streak.
    package var now: Date
    /// Sessions overlapping the loaded range (see the type's documentation), in any order.
    package var sessions: [SessionEntry]
    /// Subtasks of the tasks shown, for the estimate figures.
    package var progress: [SubtaskProgress]
    /// The `--task` path (`Thesis` or `Thesis/Chapter 2`) when one was given. The caller has
    /// already kept only matching sessions; this is for headings.
    package var taskFilter: String?
    /// The first local day `sessions` covers completely. Never later than
    /// `window.previous.from` in effect: a later value is taken as `window.previous.from`.
    package var historyFrom: LocalDate
    /// How many consecutive days just before `historyFrom` have focus (as far back as the
    /// caller looked): a streak that reaches `historyFrom` goes on through them. A caller with
    /// no heatmap to draw can load from `window.previous.from` and find these days with one
    /// index probe each instead of reading their sessions; the summary is the same as loading
    /// them all. 0 by default.
    package var focusDaysBeforeHistory: Int

    package init(
        window: StatsWindow, calendar: LocalCalendar, now: Date, sessions: [SessionEntry],
        progress: [SubtaskProgress] = [], taskFilter: String? = nil, historyFrom: LocalDate? = nil,
        focusDaysBeforeHistory: Int = 0
    ) {
        self.window = window
        self.calendar = calendar
        self.now = now
        self.sessions = sessions
        self.progress = progress
        self.taskFilter = taskFilter
        self.historyFrom = historyFrom ?? window.previous.from
        self.focusDaysBeforeHistory = focusDaysBeforeHistory
    }
}
