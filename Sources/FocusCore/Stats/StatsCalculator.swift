import FoundationEssentials

/// Turns sessions into a `StatsReport`. Pure: the same input always gives the same report.
///
/// Rules (README, "Stats for scripts"):
/// - focused time is split at local midnight; with pauses the focused seconds are spread in
///   proportion to the wall time in each day; a day is a calendar day (23–25 hours);
///   only the part inside the window counts;
/// - `completed` / `interrupted` count a session on the local day it started, and only when
///   that day is in the window; a zero-length session counts, with 0 seconds;
/// - every figure is summed exactly and rounded once at the end.
package enum StatsCalculator {
    package static func report(_ input: StatsInput) -> StatsReport {
        var pass = SessionPass(input)
        for entry in input.sessions { pass.add(entry) }
        var report = pass.finish()
        report.tags = StatsTags.rows(input)
        report.tagFilter = input.tagFilter
        return report
    }
}

/// One walk over the sessions, accumulating exact figures per day, task and subtask.
///
/// The figures live in flat arrays owned by the pass (per task, per task and window day, per
/// subtask), indexed by slots found by id.
private struct SessionPass {
    let input: StatsInput
    let window: StatsWindow
    /// Day number of `bounds[0]`'s day: the first day sessions are counted from.
    let firstDay: Int
    /// Number of days from the first history day to `window.to`.
    let dayCount: Int
    /// Index of `window.from` in the day arrays.
    let windowStart: Int
    /// Days in the window.
    let windowDays: Int
    /// Start of each day, `dayCount + 1` entries (the last is the end of `window.to`), as
    /// seconds since 1970.
    let bounds: [Double]

    /// Exact focused seconds per day, history included.
    var dayExact: [Double]
    var dayCompleted: [Int]
    var dayInterrupted: [Int]
    /// Slots by task id, and (task and subtask ids never clash) subtask slots by subtask id.
    var taskIndex: [Int64: Int] = [:]
    var subtaskIndex: [Int64: Int] = [:]
    var tasks: [TaskAccumulator] = []
    /// Exact focused seconds per task slot and window day: `slot * windowDays + day`.
    var taskDayExact: [Double] = []
    var subtasks: [SubtaskAccumulator] = []
    var hourCompleted = [Int](repeating: 0, count: 24)
    var hourInterrupted = [Int](repeating: 0, count: 24)
    var lengthCompleted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)
    var lengthInterrupted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)
    var lengthLongestCompleted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)

    init(_ input: StatsInput) {
        self.input = input
        let window = input.window
        self.window = window
        let first = min(input.historyFrom, window.previous.from).dayNumber
        self.firstDay = first
        let count = window.to.dayNumber - first + 1
        self.dayCount = count
        self.windowStart = window.from.dayNumber - first
        self.windowDays = window.dayCount
        var bounds = [Double]()
        bounds.reserveCapacity(count + 1)
        for i in 0...count {
            bounds.append(input.calendar.startOfDay(LocalDate(dayNumber: first + i)).timeIntervalSince1970)
        }
        self.bounds = bounds
        self.dayExact = [Double](repeating: 0, count: count)
        self.dayCompleted = [Int](repeating: 0, count: window.dayCount)
        self.dayInterrupted = [Int](repeating: 0, count: window.dayCount)
    }

    /// The index of the day holding instant `t` among `bounds` (day starts, the last one the
    /// end of the last day): -1 before the first day, `dayCount` after the last. Static, as
    /// `localHour`: a method of the pass took a copy of the whole pass at every call.
    static func dayIndex(_ t: Double, _ bounds: [Double], _ dayCount: Int) -> Int {
        if t < bounds[0] { return -1 }
        if t >= bounds[dayCount] { return dayCount }
        // Days are 23 to 25 hours long: the 24-hour guess is off by at most a day or two.
        var i = min(dayCount - 1, Int((t - bounds[0]) / 86_400))
        while bounds[i] > t { i -= 1 }
        while bounds[i + 1] <= t { i += 1 }
        return i
    }

    /// The task slot and (-1 for none) the subtask slot of a session.
    mutating func taskSlot(_ session: StatsSession) -> (task: Int, subtask: Int) {
        let t = taskIndex[session.taskID] ?? newTaskSlot(session.taskID)
        guard session.subtaskID != 0 else { return (t, -1) }
        return (t, subtaskIndex[session.subtaskID] ?? newSubtaskSlot(session.subtaskID, task: t))
    }

    mutating func newTaskSlot(_ id: Int64) -> Int {
        tasks.append(TaskAccumulator(title: input.titles.title(id)))
        taskDayExact.append(contentsOf: repeatElement(0, count: windowDays))
        taskIndex[id] = tasks.count - 1
        return tasks.count - 1
    }

    mutating func newSubtaskSlot(_ id: Int64, task: Int) -> Int {
        subtasks.append(SubtaskAccumulator(title: input.titles.title(id), task: task))
        subtaskIndex[id] = subtasks.count - 1
        return subtasks.count - 1
    }

    private mutating func countOutcome(_ session: StatsSession, _ found: (task: Int, subtask: Int), day d: Int,
                                       startIndex: Int, start s: Double) {
        let completed = session.completed
        if completed { tasks[found.task].completed += 1 } else { tasks[found.task].interrupted += 1 }
        if found.subtask >= 0 {
            if completed { subtasks[found.subtask].completed += 1 } else { subtasks[found.subtask].interrupted += 1 }
        }
        if completed { dayCompleted[d] += 1 } else { dayInterrupted[d] += 1 }
        let hour = Self.localHour(s, bounds, dayIndex: startIndex, input.calendar)
        if completed { hourCompleted[hour] += 1 } else { hourInterrupted[hour] += 1 }
        if let bucket = PlannedLengthBucket(plannedSeconds: session.plannedSeconds) {
            let b = bucket.rawValue
            if completed {
                lengthCompleted[b] += 1
                lengthLongestCompleted[b] = max(lengthLongestCompleted[b], session.plannedSeconds)
            } else {
                lengthInterrupted[b] += 1
            }
        }
    }

    mutating func add(_ session: StatsSession) {
        let s = Double(session.start)
        let e = max(Double(session.end), s)
        let wall = e - s
        let focused = Double(max(0, session.focusedSeconds))
        let startIndex = Self.dayIndex(s, bounds, dayCount)
        let startsInWindow = startIndex >= windowStart && startIndex < dayCount
        var slot: (task: Int, subtask: Int)?

        if startsInWindow {
            let d = startIndex - windowStart
            let found = taskSlot(session)
            slot = found
            tasks[found.task].touched = true
            if found.subtask >= 0 { subtasks[found.subtask].touched = true }
            // An open session had no planned length to complete: it counts in no completion rate.
            if !session.open { countOutcome(session, found, day: d, startIndex: startIndex, start: s) }
        }

        guard wall > 0, focused > 0, e > bounds[0], s < bounds[dayCount] else { return }
        var i = max(startIndex, 0)
        while i < dayCount, bounds[i] < e {
            let portion = StatsMath.focusInside(focused: focused, start: s, end: e, lo: bounds[i], hi: bounds[i + 1])
            if portion > 0 {
                dayExact[i] += portion
                if i >= windowStart {
                    let found = slot ?? taskSlot(session)
                    slot = found
                    tasks[found.task].touched = true
                    tasks[found.task].exact += portion
                    taskDayExact[found.task * windowDays + i - windowStart] += portion
                    if found.subtask >= 0 {
                        subtasks[found.subtask].touched = true
                        subtasks[found.subtask].exact += portion
                    }
                }
            }
            i += 1
        }
    }

    /// The local wall-clock hour of an instant inside history day `dayIndex`. On a 24-hour day
    /// the offset cannot change, so the hour is read from the day's start; otherwise the zone decides.
    static func localHour(_ t: Double, _ bounds: [Double], dayIndex i: Int, _ calendar: LocalCalendar) -> Int {
        if bounds[i + 1] - bounds[i] == 86_400 {
            return min(23, max(0, Int((t - bounds[i]) / 3600)))
        }
        return calendar.timeOfDay(of: Date(timeIntervalSince1970: t)).hour
    }

    func finish() -> StatsReport {
        let order = tasks.indices.filter { tasks[$0].touched }.sorted { a, b in
            let x = StatsMath.seconds(tasks[a].exact)
            let y = StatsMath.seconds(tasks[b].exact)
            if x != y { return x > y }
            return StatsMath.titleOrder(tasks[a].title, tasks[b].title)
        }

        let days = window.days.enumerated().map { d, date in
            let slices = order.compactMap { t -> TaskSlice? in
                let secs = StatsMath.seconds(taskDayExact[t * windowDays + d])
                return secs > 0 ? TaskSlice(task: tasks[t].title, focusedSeconds: secs) : nil
            }
            return StatsDay(
                date: date, focusedSeconds: StatsMath.seconds(dayExact[windowStart + d]),
                completed: dayCompleted[d], interrupted: dayInterrupted[d], taskSeconds: slices)
        }

        let exactTotal = dayExact[windowStart...].reduce(0, +)
        let totals = StatsTotals(
            focusedSeconds: StatsMath.seconds(exactTotal),
            completed: dayCompleted.reduce(0, +), interrupted: dayInterrupted.reduce(0, +))

        var subtasksOf = [[Int]](repeating: [], count: tasks.count)
        for (k, sub) in subtasks.enumerated() where sub.touched { subtasksOf[sub.task].append(k) }
        let taskStats = order.map { t in tasks[t].stats(subtasks: subtasksOf[t].map { subtasks[$0] }) }
        let summary = makeSummary(days: days, totals: totals, exactTotal: exactTotal)
        let estimates = EstimateFigures.make(input.progress, window: window, calendar: input.calendar)

        return StatsReport(
            window: window, timeZone: input.calendar.zone, taskFilter: input.taskFilter, days: days,
            tasks: taskStats, totals: totals, summary: summary, estimates: estimates,
            insights: makeInsights(), heatmap: makeHeatmap())
    }

    func makeSummary(days: [StatsDay], totals: StatsTotals, exactTotal: Double) -> StatsSummary {
        var best: StatsDay?
        for day in days where day.focusedSeconds > 0 {
            if best.map({ day.focusedSeconds > $0.focusedSeconds }) ?? true { best = day }
        }
        let previousExact = dayExact[max(0, window.previous.from.dayNumber - firstDay)..<windowStart].reduce(0, +)
        let previousSeconds = StatsMath.seconds(previousExact)
        let change: Double? = previousSeconds > 0
            ? StatsMath.rounded(Double(totals.focusedSeconds - previousSeconds) * 100 / Double(previousSeconds), decimals: 1)
            : nil
        let streak = makeStreak()
        return StatsSummary(
            focusedSeconds: totals.focusedSeconds,
            dailyAverageSeconds: StatsMath.seconds(exactTotal / Double(window.dayCount)),
            daysWithFocus: days.filter { $0.focusedSeconds > 0 }.count,
            bestDay: best.map { StatsDay(date: $0.date, focusedSeconds: $0.focusedSeconds, completed: $0.completed, interrupted: $0.interrupted) },
            streakDays: streak.days, streakEnd: streak.end,
            completionPercent: StatsMath.percent(totals.completed, of: totals.completed + totals.interrupted),
            previous: window.previous, previousFocusedSeconds: previousSeconds, changePercent: change)
    }

    /// Consecutive days with focus ending on the reference day (today, or `window.to` when the
    /// window is in the past), or ending the day before when the reference day has none yet.
    func makeStreak() -> (days: Int, end: LocalDate?) {
        let today = input.calendar.day(of: input.now)
        let reference = min(today, window.to).dayNumber - firstDay
        guard reference >= 0 else { return (0, nil) }
        func hasFocus(_ i: Int) -> Bool { StatsMath.seconds(dayExact[i]) > 0 }
        var end = reference
        if !hasFocus(end) { end -= 1 }
        var i = end
        while i >= 0, hasFocus(i) { i -= 1 }
        let length = end - i
        return length > 0 ? (length, LocalDate(dayNumber: firstDay + end)) : (0, nil)
    }

    func makeInsights() -> StatsInsights {
        let hours = (0..<24).compactMap { h -> HourBucket? in
            hourCompleted[h] + hourInterrupted[h] > 0
                ? HourBucket(hour: h, completed: hourCompleted[h], interrupted: hourInterrupted[h]) : nil
        }
        let lengths = PlannedLengthBucket.allCases.compactMap { b -> LengthBucket? in
            let i = b.rawValue
            return lengthCompleted[i] + lengthInterrupted[i] > 0
                ? LengthBucket(bucket: b, completed: lengthCompleted[i], interrupted: lengthInterrupted[i], longestCompletedSeconds: lengthLongestCompleted[i])
                : nil
        }
        // a's completion rate compared with b's, exactly (cross-multiplied).
        func rateOrder(_ a: HourBucket, _ b: HourBucket) -> Int {
            let x = a.completed * b.sessions
            let y = b.completed * a.sessions
            return x == y ? 0 : (x < y ? -1 : 1)
        }
        var bestHour: Int?
        var worstHour: Int?
        if hours.count >= 2 {
            var best = hours[0]
            var worst = hours[0]
            for h in hours.dropFirst() {
                let toBest = rateOrder(h, best)
                if toBest > 0 || (toBest == 0 && h.sessions > best.sessions) { best = h }
                let toWorst = rateOrder(h, worst)
                if toWorst < 0 || (toWorst == 0 && h.sessions > worst.sessions) { worst = h }
            }
            bestHour = best.hour
            worstHour = rateOrder(best, worst) == 0 ? nil : worst.hour
        }
        let span = lengths.last { $0.completed * 5 >= $0.sessions * 4 }
        return StatsInsights(
            byHour: hours, byPlannedLength: lengths, bestHour: bestHour, worstHour: worstHour,
            suggestedSpanSeconds: span?.longestCompletedSeconds, suggestedSpanBucket: span?.bucket)
    }

    func makeHeatmap() -> [HeatmapDay] {
        let first = window.heatmapFrom.dayNumber
        return (0..<StatsWindow.heatmapDayCount).map { k in
            let day = first + k
            let i = day - firstDay
            return HeatmapDay(date: LocalDate(dayNumber: day), focusedSeconds: i >= 0 ? StatsMath.seconds(dayExact[i]) : nil)
        }
    }
}

private struct TaskAccumulator {
    let title: String
    var exact: Double = 0
    var completed = 0
    var interrupted = 0
    /// Whether the task has time or a session start inside the window.
    var touched = false

    init(title: String) {
        self.title = title
    }

    /// The task's figures with those of its touched `subtasks`.
    func stats(subtasks: [SubtaskAccumulator]) -> TaskStats {
        let subs = subtasks.map {
            SubtaskStats(subtask: $0.title, focusedSeconds: StatsMath.seconds($0.exact), completed: $0.completed, interrupted: $0.interrupted)
        }.sorted { a, b in
            a.focusedSeconds != b.focusedSeconds ? a.focusedSeconds > b.focusedSeconds : StatsMath.titleOrder(a.subtask, b.subtask)
        }
        return TaskStats(task: title, focusedSeconds: StatsMath.seconds(exact), completed: completed, interrupted: interrupted, subtasks: subs)
    }
}

private struct SubtaskAccumulator {
    let title: String
    /// The slot of its task.
    let task: Int
    var exact: Double = 0
    var completed = 0
    var interrupted = 0
    var touched = false
}
