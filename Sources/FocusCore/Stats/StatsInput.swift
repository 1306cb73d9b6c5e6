import FoundationEssentials

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

/// One session as the stats read it: ids and whole seconds since 1970, no names (a month over
/// a decade of history is ~8,000 of these; names are looked up once per task in `StatsTitles`).
package struct StatsSession: Sendable, Equatable {
    package var taskID: Int64
    /// 0 when the session has no subtask.
    package var subtaskID: Int64
    package var start: Int64
    package var end: Int64
    package var plannedSeconds: Int
    package var focusedSeconds: Int
    package var completed: Bool
    /// An open session (no planned length): its time counts, its outcome in no completion count.
    package var open: Bool

    package init(taskID: Int64, subtaskID: Int64, start: Int64, end: Int64, plannedSeconds: Int, focusedSeconds: Int, completed: Bool,
                 open: Bool = false) {
        self.taskID = taskID
        self.subtaskID = subtaskID
        self.start = start
        self.end = end
        self.plannedSeconds = plannedSeconds
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.open = open
    }

    /// The session of a time log (instants to whole seconds, rounded down).
    package init(_ log: TimeLog) {
        self.init(
            taskID: log.taskID, subtaskID: log.subtaskID ?? 0,
            start: Int64(log.startedAt.timeIntervalSince1970.rounded(.down)),
            end: Int64(log.endedAt.timeIntervalSince1970.rounded(.down)),
            plannedSeconds: log.plannedSeconds, focusedSeconds: log.focusedSeconds, completed: log.status == .completed,
            open: log.status == .open)
    }
}

/// The titles of the tasks and subtasks sessions name, by id (task and subtask ids never clash).
package struct StatsTitles: Sendable {
    private var titles: [Int64: String] = [:]

    package init() {}

    package mutating func set(_ id: Int64, _ title: String) { titles[id] = title }

    /// The title of `id`, or `#id` when it is unknown.
    package func title(_ id: Int64) -> String { titles[id] ?? "#\(id)" }
}

/// Everything a stats report is computed from. The calculator reads nothing else: no clock,
/// no database, no environment.
///
/// The caller loads `sessions` as every session overlapping
/// `[calendar.startOfDay(historyFrom), calendar.startOfDay(window.to + 1 day))`.
/// `historyFrom` defaults to `window.previous.from`, which is enough for the JSON, CSV and
/// terminal figures but the streak, which can then see back to that day only, and the HTML
/// heatmap, which shows days before it as "no data". Loading from `window.historyFrom`
/// instead (12 weeks back, or the previous period when that is longer) makes both complete;
/// `focus stats` and `focus report` do.
package struct StatsInput: Sendable {
    package var window: StatsWindow
    /// The zone days are cut in.
    package var calendar: LocalCalendar
    /// The moment the command runs: decides "today" for the streak.
    package var now: Date
    /// Sessions overlapping the loaded range (see the type's documentation), in any order.
    package var sessions: [StatsSession]
    /// The titles of the tasks and subtasks of the sessions in the window.
    package var titles: StatsTitles
    /// Subtasks of the tasks shown, for the estimate figures.
    package var progress: [SubtaskProgress]
    /// The `--task` path (`Thesis` or `Thesis/Chapter 2`) when one was given. The caller has
    /// already kept only matching sessions; this is for headings.
    package var taskFilter: String?
    /// The first local day `sessions` covers completely. Never later than
    /// `window.previous.from` in effect: a later value is taken as `window.previous.from`.
    package var historyFrom: LocalDate
    /// The sessions overlapping the window that have tags, once per tag: the "by tag" figures.
    package var taggedSessions: [TaggedStatsSession] = []
    /// The `--tag` name when one was given. The caller has already kept only sessions with
    /// that tag; this is for headings.
    package var tagFilter: String?

    package init(
        window: StatsWindow, calendar: LocalCalendar, now: Date, sessions: [StatsSession],
        titles: StatsTitles, progress: [SubtaskProgress] = [], taskFilter: String? = nil, historyFrom: LocalDate? = nil
    ) {
        self.window = window
        self.calendar = calendar
        self.now = now
        self.sessions = sessions
        self.titles = titles
        self.progress = progress
        self.taskFilter = taskFilter
        self.historyFrom = historyFrom ?? window.previous.from
    }
}

extension StatsInput {
    /// An input from sessions with their names (tests, and callers holding `SessionEntry` values).
    package init(
        window: StatsWindow, calendar: LocalCalendar, now: Date, sessions entries: [SessionEntry],
        progress: [SubtaskProgress] = [], taskFilter: String? = nil, historyFrom: LocalDate? = nil
    ) {
        var titles = StatsTitles()
        for entry in entries {
            titles.set(entry.log.taskID, entry.task)
            if let sub = entry.log.subtaskID, let name = entry.subtask { titles.set(sub, name) }
        }
        self.init(
            window: window, calendar: calendar, now: now, sessions: entries.map { StatsSession($0.log) }, titles: titles,
            progress: progress, taskFilter: taskFilter, historyFrom: historyFrom)
    }
}
