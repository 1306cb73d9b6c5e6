import FoundationEssentials

/// The figures of `focus stats` and `focus report --html` for one window, ready to render.
/// Every integer is whole seconds, rounded to nearest once, from exact sums.
package struct StatsReport: Sendable, Equatable {
    package var window: StatsWindow
    /// The zone days were cut in.
    package var timeZone: ZoneRules
    /// The `--task` path the report is restricted to, if any.
    package var taskFilter: String?
    /// Every day of the window, ascending.
    package var days: [StatsDay]
    /// Tasks with time or sessions in the window, by focused seconds descending, then title.
    package var tasks: [TaskStats]
    package var totals: StatsTotals
    package var summary: StatsSummary
    package var estimates: EstimateReport
    package var insights: StatsInsights
    /// The 84 days (12 weeks) ending `window.to`, ascending, for the HTML heatmap.
    package var heatmap: [HeatmapDay]
    /// Tags with time or sessions in the window, sorted as tasks (README, "Tags").
    package var tags: [TagStats] = []
    /// The `--tag` name the report is restricted to, if any.
    package var tagFilter: String?

    package init(
        window: StatsWindow, timeZone: ZoneRules, taskFilter: String?, days: [StatsDay], tasks: [TaskStats],
        totals: StatsTotals, summary: StatsSummary, estimates: EstimateReport, insights: StatsInsights,
        heatmap: [HeatmapDay]
    ) {
        self.window = window
        self.timeZone = timeZone
        self.taskFilter = taskFilter
        self.days = days
        self.tasks = tasks
        self.totals = totals
        self.summary = summary
        self.estimates = estimates
        self.insights = insights
        self.heatmap = heatmap
    }

    /// Whether the window holds no session at all (no time and nothing started).
    package var isEmpty: Bool {
        totals.focusedSeconds == 0 && totals.completed == 0 && totals.interrupted == 0 && tasks.isEmpty
    }
}

/// One local day of the window.
package struct StatsDay: Sendable, Equatable {
    package var date: LocalDate
    package var focusedSeconds: Int
    /// Completed sessions that started on this day.
    package var completed: Int
    /// Interrupted sessions that started on this day.
    package var interrupted: Int
    /// The day's focused seconds per task, in the order of `StatsReport.tasks` (tasks with
    /// nothing on this day left out). Not in the JSON; the HTML stacks its bars from it.
    package var taskSeconds: [TaskSlice]

    package init(date: LocalDate, focusedSeconds: Int, completed: Int, interrupted: Int, taskSeconds: [TaskSlice] = []) {
        self.date = date
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.interrupted = interrupted
        self.taskSeconds = taskSeconds
    }
}

/// A task's share of one day.
package struct TaskSlice: Sendable, Equatable {
    package var task: String
    package var focusedSeconds: Int

    package init(task: String, focusedSeconds: Int) {
        self.task = task
        self.focusedSeconds = focusedSeconds
    }
}

package struct TaskStats: Sendable, Equatable {
    package var task: String
    package var focusedSeconds: Int
    package var completed: Int
    package var interrupted: Int
    /// Subtasks with time or sessions in the window, sorted like tasks. Sessions logged
    /// against the task itself count in the task's figures only.
    package var subtasks: [SubtaskStats]

    package init(task: String, focusedSeconds: Int, completed: Int, interrupted: Int, subtasks: [SubtaskStats]) {
        self.task = task
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.interrupted = interrupted
        self.subtasks = subtasks
    }
}

package struct SubtaskStats: Sendable, Equatable {
    package var subtask: String
    package var focusedSeconds: Int
    package var completed: Int
    package var interrupted: Int

    package init(subtask: String, focusedSeconds: Int, completed: Int, interrupted: Int) {
        self.subtask = subtask
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.interrupted = interrupted
    }
}

package struct StatsTotals: Sendable, Equatable {
    /// The exact sum over the window, rounded once (it may differ by a second or so from
    /// the sum of the rounded days).
    package var focusedSeconds: Int
    package var completed: Int
    package var interrupted: Int

    package init(focusedSeconds: Int, completed: Int, interrupted: Int) {
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.interrupted = interrupted
    }
}

package struct StatsSummary: Sendable, Equatable {
    /// Same as `totals.focusedSeconds`.
    package var focusedSeconds: Int
    /// The exact total divided by the number of days asked (empty days included), rounded.
    package var dailyAverageSeconds: Int
    /// Days of the window with at least one (rounded) focused second.
    package var daysWithFocus: Int
    /// The day with the most focused time (the earliest on a tie); nil when every day is empty.
    package var bestDay: StatsDay?
    /// Consecutive days with focus ending on `streakEnd`.
    package var streakDays: Int
    /// The last day of the streak: the reference day (today, or `window.to` for a past
    /// window), or the day before when the reference day has no focus yet; nil without a streak.
    package var streakEnd: LocalDate?
    /// Completed sessions as a share of the sessions started in the window, in percent.
    package var completionPercent: Int?
    /// The period of the same length just before the window.
    package var previous: StatsWindow
    package var previousFocusedSeconds: Int
    /// `(total − previous) / previous × 100` from the rounded figures, one decimal; nil when
    /// the previous period had no focus.
    package var changePercent: Double?

    package init(
        focusedSeconds: Int, dailyAverageSeconds: Int, daysWithFocus: Int, bestDay: StatsDay?, streakDays: Int,
        streakEnd: LocalDate?, completionPercent: Int?, previous: StatsWindow, previousFocusedSeconds: Int,
        changePercent: Double?
    ) {
        self.focusedSeconds = focusedSeconds
        self.dailyAverageSeconds = dailyAverageSeconds
        self.daysWithFocus = daysWithFocus
        self.bestDay = bestDay
        self.streakDays = streakDays
        self.streakEnd = streakEnd
        self.completionPercent = completionPercent
        self.previous = previous
        self.previousFocusedSeconds = previousFocusedSeconds
        self.changePercent = changePercent
    }
}

/// Logged time against estimates, and how far estimates tend to be off.
package struct EstimateReport: Sendable, Equatable {
    /// Subtasks with an estimate that are open, or were finished with work in the window;
    /// by task then subtask title.
    package var subtasks: [EstimateLine]
    /// The median of `actualRatio` over the subtasks finished in the window; nil without any.
    package var medianRatio: Double?
    /// How many finished subtasks the median is taken over.
    package var ratioSample: Int
    /// "your estimates run 1.4× short", "… 1.2× long" or "your estimates are on target".
    package var sentence: String?

    package init(subtasks: [EstimateLine], medianRatio: Double?, ratioSample: Int, sentence: String?) {
        self.subtasks = subtasks
        self.medianRatio = medianRatio
        self.ratioSample = ratioSample
        self.sentence = sentence
    }

    package static let empty = EstimateReport(subtasks: [], medianRatio: nil, ratioSample: 0, sentence: nil)
}

package struct EstimateLine: Sendable, Equatable {
    package var task: String
    package var subtask: String
    package var estimateSeconds: Int
    package var loggedSeconds: Int
    /// Logged / estimate in percent, rounded (may pass 100); nil for a zero estimate.
    package var progressPercent: Int?
    package var done: Bool
    /// Logged / estimate, two decimals, for a subtask finished with work in the window.
    package var actualRatio: Double?

    package init(task: String, subtask: String, estimateSeconds: Int, loggedSeconds: Int, progressPercent: Int?, done: Bool, actualRatio: Double?) {
        self.task = task
        self.subtask = subtask
        self.estimateSeconds = estimateSeconds
        self.loggedSeconds = loggedSeconds
        self.progressPercent = progressPercent
        self.done = done
        self.actualRatio = actualRatio
    }
}

/// When sessions get finished: by hour of day and by planned length.
package struct StatsInsights: Sendable, Equatable {
    /// Hours (local, of the session's start) with sessions in the window, ascending.
    package var byHour: [HourBucket]
    /// Planned-length buckets with sessions in the window, shortest first.
    package var byPlannedLength: [LengthBucket]
    /// The hour with the highest completion rate (more sessions, then the earlier hour, on a
    /// tie); nil with fewer than two hours to compare.
    package var bestHour: Int?
    /// The hour with the lowest completion rate; nil with fewer than two hours, or when
    /// every hour has the same rate.
    package var worstHour: Int?
    /// The longest planned length completed in the longest bucket whose completion rate is
    /// at least 80%; nil without such a bucket.
    package var suggestedSpanSeconds: Int?
    /// The bucket `suggestedSpanSeconds` comes from.
    package var suggestedSpanBucket: PlannedLengthBucket?

    package init(byHour: [HourBucket], byPlannedLength: [LengthBucket], bestHour: Int?, worstHour: Int?, suggestedSpanSeconds: Int?, suggestedSpanBucket: PlannedLengthBucket?) {
        self.byHour = byHour
        self.byPlannedLength = byPlannedLength
        self.bestHour = bestHour
        self.worstHour = worstHour
        self.suggestedSpanSeconds = suggestedSpanSeconds
        self.suggestedSpanBucket = suggestedSpanBucket
    }

    package var isEmpty: Bool { byHour.isEmpty && byPlannedLength.isEmpty }
}

package struct HourBucket: Sendable, Equatable {
    /// 0…23, the local wall-clock hour the sessions started in.
    package var hour: Int
    package var completed: Int
    package var interrupted: Int

    package init(hour: Int, completed: Int, interrupted: Int) {
        self.hour = hour
        self.completed = completed
        self.interrupted = interrupted
    }

    package var sessions: Int { completed + interrupted }
    package var completionPercent: Int { StatsMath.percent(completed, of: sessions) ?? 0 }
}

/// Planned session lengths, grouped the way people think of them.
package enum PlannedLengthBucket: Int, Sendable, CaseIterable, Comparable {
    case upTo15m, from16To25m, from26To45m, from46To60m, over60m

    /// The bucket of a planned length in seconds; nil for a session planned with no length.
    package init?(plannedSeconds s: Int) {
        switch s {
        case ...0: return nil
        case ...900: self = .upTo15m
        case ...1500: self = .from16To25m
        case ...2700: self = .from26To45m
        case ...3600: self = .from46To60m
        default: self = .over60m
        }
    }

    /// `≤15m`, `16–25m`, `26–45m`, `46–60m`, `>60m`.
    package var label: String {
        switch self {
        case .upTo15m: return "≤15m"
        case .from16To25m: return "16–25m"
        case .from26To45m: return "26–45m"
        case .from46To60m: return "46–60m"
        case .over60m: return ">60m"
        }
    }

    /// The JSON name: `le_15m`, `16_25m`, `26_45m`, `46_60m`, `gt_60m`.
    package var key: String {
        switch self {
        case .upTo15m: return "le_15m"
        case .from16To25m: return "16_25m"
        case .from26To45m: return "26_45m"
        case .from46To60m: return "46_60m"
        case .over60m: return "gt_60m"
        }
    }

    /// Smallest planned seconds in the bucket.
    package var minSeconds: Int {
        switch self {
        case .upTo15m: return 1
        case .from16To25m: return 901
        case .from26To45m: return 1501
        case .from46To60m: return 2701
        case .over60m: return 3601
        }
    }

    /// Largest planned seconds in the bucket; nil for the open-ended last one.
    package var maxSeconds: Int? {
        switch self {
        case .upTo15m: return 900
        case .from16To25m: return 1500
        case .from26To45m: return 2700
        case .from46To60m: return 3600
        case .over60m: return nil
        }
    }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

package struct LengthBucket: Sendable, Equatable {
    package var bucket: PlannedLengthBucket
    package var completed: Int
    package var interrupted: Int
    /// The longest planned length among the bucket's completed sessions (0 when none).
    package var longestCompletedSeconds: Int

    package init(bucket: PlannedLengthBucket, completed: Int, interrupted: Int, longestCompletedSeconds: Int) {
        self.bucket = bucket
        self.completed = completed
        self.interrupted = interrupted
        self.longestCompletedSeconds = longestCompletedSeconds
    }

    package var sessions: Int { completed + interrupted }
    package var completionPercent: Int { StatsMath.percent(completed, of: sessions) ?? 0 }
}

/// One day of the HTML heatmap.
package struct HeatmapDay: Sendable, Equatable {
    package var date: LocalDate
    /// Rounded focused seconds; nil for a day before the sessions the caller loaded.
    package var focusedSeconds: Int?

    package init(date: LocalDate, focusedSeconds: Int?) {
        self.date = date
        self.focusedSeconds = focusedSeconds
    }
}

