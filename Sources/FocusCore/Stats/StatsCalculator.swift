import Foundation

/// Turns sessions into a `StatsReport`. Pure: the same input always gives the same report.
///
/// Rules (shared/PRODUCT.md, "`focus stats --json`"):
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
        return pass.finish()
    }
}

/// One walk over the sessions, accumulating exact figures per day, task and subtask.
private struct SessionPass {
    let input: StatsInput
    let window: StatsWindow
    /// Day number of `bounds[0]`'s day: the first day sessions are counted from.
    let firstDay: Int
    /// Number of days from the first history day to `window.to`.
    let dayCount: Int
    /// Index of `window.from` in the day arrays.
    let windowStart: Int
    /// Start of each day, `dayCount + 1` entries (the last is the end of `window.to`), as
    /// seconds since 1970.
    let bounds: [Double]
    /// Whether every day is 24 hours long (no DST change in range): a day's index is then
    /// arithmetic, and an instant's hour too.
    let evenDays: Bool

    /// Exact focused seconds per day, history included.
    var dayExact: [Double]
    var dayCompleted: [Int]
    var dayInterrupted: [Int]
    /// Slots by task id, and (task and subtask ids never clash) subtask slots by subtask id.
    var taskIndex = IDTable()
    var subtaskIndex = IDTable()
    var tasks: [TaskAccumulator] = []
    var hourCompleted = [Int](repeating: 0, count: 24)
    var hourInterrupted = [Int](repeating: 0, count: 24)
    var lengthCompleted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)
    var lengthInterrupted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)
    var lengthLongestCompleted = [Int](repeating: 0, count: PlannedLengthBucket.allCases.count)

    init(_ input: StatsInput) {
        self.input = input
        let window = input.window
        self.window = window
        let first = input.previousFocusedExact == nil ? min(input.historyFrom, window.previous.from).dayNumber : window.from.dayNumber
        self.firstDay = first
        let count = window.to.dayNumber - first + 1
        self.dayCount = count
        self.windowStart = window.from.dayNumber - first
        var bounds = [Double]()
        bounds.reserveCapacity(count + 1)
        for i in 0...count {
            bounds.append(input.calendar.startOfDay(LocalDate(dayNumber: first + i)).timeIntervalSince1970)
        }
        self.bounds = bounds
        self.evenDays = (0..<count).allSatisfy { bounds[$0 + 1] - bounds[$0] == 86_400 }
        self.dayExact = [Double](repeating: 0, count: count)
        self.dayCompleted = [Int](repeating: 0, count: window.dayCount)
        self.dayInterrupted = [Int](repeating: 0, count: window.dayCount)
    }

    /// The index of the day holding instant `t`: -1 before the first day, `dayCount` after the last.
    func dayIndex(_ t: Double) -> Int {
        if t < bounds[0] { return -1 }
        if t >= bounds[dayCount] { return dayCount }
        if evenDays { return Int((t - bounds[0]) / 86_400) }
        var lo = 0
        var hi = dayCount  // invariant: bounds[lo] <= t < bounds[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if bounds[mid] <= t { lo = mid } else { hi = mid }
        }
        return lo
    }

    mutating func taskSlot(_ session: StatsSession) -> (task: Int, subtask: Int?) {
        let t = taskIndex.value(for: session.taskID) {
            tasks.append(TaskAccumulator(title: input.titles.title(session.taskID), windowDays: window.dayCount))
            return tasks.count - 1
        }
        guard session.subtaskID != 0 else { return (t, nil) }
        let sub = subtaskIndex.value(for: session.subtaskID) {
            tasks[t].subtasks.append(SubtaskAccumulator(title: input.titles.title(session.subtaskID)))
            return tasks[t].subtasks.count - 1
        }
        return (t, sub)
    }

    mutating func add(_ session: StatsSession) {
        let s = Double(session.start)
        let e = max(Double(session.end), s)
        let wall = e - s
        let focused = Double(max(0, session.focusedSeconds))
        let startIndex = dayIndex(s)
        let startsInWindow = startIndex >= windowStart && startIndex < dayCount
        var slot: (task: Int, subtask: Int?)?

        if startsInWindow {
            let d = startIndex - windowStart
            let completed = session.completed
            let found = taskSlot(session)
            slot = found
            tasks[found.task].count(completed: completed, subtask: found.subtask)
            if completed { dayCompleted[d] += 1 } else { dayInterrupted[d] += 1 }
            let hour = localHour(s, dayIndex: startIndex)
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

        guard wall > 0, focused > 0, e > bounds[0], s < bounds[dayCount] else { return }
        var i = max(startIndex, 0)
        while i < dayCount, bounds[i] < e {
            let overlap = min(e, bounds[i + 1]) - max(s, bounds[i])
            if overlap > 0 {
                let portion = overlap >= wall ? focused : focused * overlap / wall
                dayExact[i] += portion
                if i >= windowStart {
                    let found = slot ?? taskSlot(session)
                    slot = found
                    tasks[found.task].addFocus(portion, day: i - windowStart, subtask: found.subtask)
                }
            }
            i += 1
        }
    }

    /// The local wall-clock hour of an instant inside history day `dayIndex`. On a 24-hour day
    /// the offset cannot change, so the hour is read from the day's start; otherwise the zone decides.
    func localHour(_ t: Double, dayIndex i: Int) -> Int {
        if bounds[i + 1] - bounds[i] == 86_400 {
            return min(23, max(0, Int((t - bounds[i]) / 3600)))
        }
        return input.calendar.timeOfDay(of: Date(timeIntervalSince1970: t)).hour
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
                let secs = StatsMath.seconds(tasks[t].dayExact[d])
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

        let taskStats = order.map { tasks[$0].stats() }
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
        let previousExact = input.previousFocusedExact
            ?? dayExact[max(0, window.previous.from.dayNumber - firstDay)..<windowStart].reduce(0, +)
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
        var length = end - i
        // The streak ran back to the first loaded day: the caller's count of earlier days
        // with focus carries it on.
        if i < 0, length > 0, firstDay == input.historyFrom.dayNumber { length += max(0, input.focusDaysBeforeHistory) }
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
    /// Exact focused seconds per window day.
    var dayExact: [Double]
    var subtasks: [SubtaskAccumulator] = []

    init(title: String, windowDays: Int) {
        self.title = title
        self.dayExact = [Double](repeating: 0, count: windowDays)
    }

    mutating func count(completed isCompleted: Bool, subtask: Int?) {
        touched = true
        if isCompleted { completed += 1 } else { interrupted += 1 }
        if let s = subtask {
            subtasks[s].touched = true
            if isCompleted { subtasks[s].completed += 1 } else { subtasks[s].interrupted += 1 }
        }
    }

    mutating func addFocus(_ seconds: Double, day: Int, subtask: Int?) {
        touched = true
        exact += seconds
        dayExact[day] += seconds
        if let s = subtask {
            subtasks[s].touched = true
            subtasks[s].exact += seconds
        }
    }

    func stats() -> TaskStats {
        let subs = subtasks.filter(\.touched).map {
            SubtaskStats(subtask: $0.title, focusedSeconds: StatsMath.seconds($0.exact), completed: $0.completed, interrupted: $0.interrupted)
        }.sorted { a, b in
            a.focusedSeconds != b.focusedSeconds ? a.focusedSeconds > b.focusedSeconds : StatsMath.titleOrder(a.subtask, b.subtask)
        }
        return TaskStats(task: title, focusedSeconds: StatsMath.seconds(exact), completed: completed, interrupted: interrupted, subtasks: subs)
    }
}

private struct SubtaskAccumulator {
    let title: String
    var exact: Double = 0
    var completed = 0
    var interrupted = 0
    var touched = false
}
