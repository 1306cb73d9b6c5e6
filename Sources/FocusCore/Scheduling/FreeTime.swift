import FoundationEssentials

/// Whole minutes since 1970-01-01T00:00Z: the scheduler's unit of time.
enum Minutes {
    /// Instants further than this from 1970 (about 31,700 years) are clamped.
    private static let limitSeconds = 1e12

    static func up(_ date: Date) -> Int {
        Int((clamped(date) / 60).rounded(.up))
    }

    static func down(_ date: Date) -> Int {
        Int((clamped(date) / 60).rounded(.down))
    }

    static func date(_ minute: Int) -> Date {
        Date(timeIntervalSince1970: Double(minute) * 60)
    }

    /// A minute rounded up (or down) to a multiple of `grain` (the 5-minute marks blocks keep).
    static func up(_ minute: Int, grain: Int) -> Int {
        grain <= 1 ? minute : down(minute + grain - 1, grain: grain)
    }

    static func down(_ minute: Int, grain: Int) -> Int {
        guard grain > 1 else { return minute }
        let r = minute % grain
        return r >= 0 ? minute - r : minute - r - grain
    }

    /// Seconds rounded up to whole minutes; negative counts as 0.
    static func up(seconds: Int) -> Int {
        seconds <= 0 ? 0 : seconds / 60 + (seconds % 60 == 0 ? 0 : 1)
    }

    private static func clamped(_ date: Date) -> Double {
        let t = date.timeIntervalSince1970
        guard t.isFinite else { return t.isNaN ? 0 : (t > 0 ? limitSeconds : -limitSeconds) }
        return min(max(t, -limitSeconds), limitSeconds)
    }
}

/// [start, end) in whole minutes.
struct MinuteSpan: Equatable {
    var start: Int
    var end: Int
    /// On a free span: the blocks in a row (each a short break from the next) whose last ends
    /// a short break before `start` (0 when it begins after anything else).
    var run = 0
    var length: Int { end - start }
}

/// One local day's working window and the free spans left in it.
struct WorkingDay {
    /// Working window [start, end) in minutes (empty when start ≥ end: a day off).
    let start: Int
    let end: Int
    /// The window's local times, minutes after midnight (equal on a day off).
    let startMinute: Int
    let endMinute: Int
    /// The zone offset is the same all through the working window and its start is the wall
    /// time asked for, so a later time of day is the start plus the difference in minutes.
    let uniform: Bool
    /// Free spans in the working window, sorted and disjoint, none shorter than the threshold.
    var free: [MinuteSpan]
}

/// The free time of the planning horizon, day by day: working windows minus busy time minus
/// placed blocks with their breaks. Days are built when first reached.
struct FreeTime {
    let calendar: LocalCalendar
    /// Working hours per local day (weekday windows, days off).
    let hours: WorkingHours
    /// Break kept free on each side of a placed block, in minutes.
    let pause: Int
    /// Free spans shorter than this are dropped: no item can use them.
    let threshold: Int
    /// Nothing is free before this minute (now, rounded up).
    let origin: Int
    let firstDayNumber: Int
    /// The last local day that can hold a block.
    let lastIndex: Int
    /// Busy time, merged and sorted.
    let busy: [MinuteSpan]
    /// Blocks begin and end on multiples of it (`SchedulingRules.grainMinutes`).
    let grain: Int
    /// The daily gap kept free (`SchedulingRules.lunch`).
    let lunch: DayHours?
    /// The Pomodoro rhythm: after `cycles` blocks in a row, `longPause` minutes are kept free.
    let cycles: Int?
    let longPause: Int
    private(set) var days: [WorkingDay] = []

    init(rules: SchedulingRules, busy intervals: [DateInterval], origin: Int, horizon: Int, threshold: Int, pause: Int) {
        calendar = rules.calendar
        hours = rules.hours
        self.pause = pause
        self.threshold = max(1, threshold)
        self.origin = origin
        firstDayNumber = rules.calendar.day(of: Minutes.date(origin)).dayNumber
        let lastDay = rules.calendar.day(of: Minutes.date(max(origin, horizon))).dayNumber
        lastIndex = lastDay - firstDayNumber
        grain = max(1, rules.grainMinutes)
        lunch = rules.lunch
        cycles = rules.cycles.flatMap { $0 > 0 ? $0 : nil }
        longPause = max(pause, Minutes.up(Minutes.up(seconds: rules.longBreakSeconds), grain: grain))
        busy = FreeTime.merge(intervals, from: origin - 1440, to: horizon + 1440, grain: grain)
    }

    /// Busy intervals widened to whole minutes (to the grain's marks), clipped to [from, to),
    /// sorted and merged.
    static func merge(_ intervals: [DateInterval], from: Int, to: Int, grain: Int = 1) -> [MinuteSpan] {
        var spans: [MinuteSpan] = []
        spans.reserveCapacity(intervals.count)
        for interval in intervals where interval.duration > 0 {
            let start = max(Minutes.down(Minutes.down(interval.start), grain: grain), from)
            let end = min(Minutes.up(Minutes.up(interval.end), grain: grain), to)
            if start < end { spans.append(MinuteSpan(start: start, end: end)) }
        }
        spans.sort { $0.start < $1.start }
        var merged: [MinuteSpan] = []
        merged.reserveCapacity(spans.count)
        for span in spans {
            if let last = merged.last, span.start <= last.end {
                if span.end > last.end { merged[merged.count - 1].end = span.end }
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// The index of the local day a minute falls on.
    func dayIndex(of minute: Int) -> Int {
        calendar.day(of: Minutes.date(minute)).dayNumber - firstDayNumber
    }

    func localDate(_ index: Int) -> LocalDate { LocalDate(dayNumber: firstDayNumber + index) }

    /// Builds days up to `index`; false when it lies outside the horizon.
    mutating func ensure(_ index: Int) -> Bool {
        guard index >= 0, index <= lastIndex else { return false }
        while days.count <= index { days.append(buildDay(days.count)) }
        return true
    }

    /// The first minute of a built day's window at or after a local time of day.
    func start(of index: Int, notBefore minuteOfDay: Int) -> Int {
        let day = days[index]
        if minuteOfDay <= day.startMinute { return day.start }
        if minuteOfDay >= day.endMinute { return day.end }
        if day.uniform { return min(day.end, Minutes.up(day.start + (minuteOfDay - day.startMinute), grain: grain)) }
        return min(day.end, Minutes.up(Minutes.up(calendar.instant(localDate(index), TimeOfDay(minutes: minuteOfDay))), grain: grain))
    }

    /// Whether any worked weekday leaves room after `earliest` (minutes after midnight).
    func hasHours(notBefore earliest: Int?) -> Bool {
        hours.weeklyWindows.contains { max($0.start.minutes, earliest ?? 0) < min($0.end.minutes, 1440) }
    }

    /// A day's window in minutes after midnight (start = end on a day off).
    private func window(_ date: LocalDate) -> (start: Int, end: Int) {
        guard let h = hours.hours(on: date) else { return (0, 0) }
        let start = min(max(h.start.minutes, 0), 1440)
        return (start, max(start, min(max(h.end.minutes, 0), 1440)))
    }

    /// The break after a block that is the `run`-th in a row: long after every `cycles` blocks.
    func pause(after run: Int) -> Int {
        guard let cycles, run > 0, run % cycles == 0 else { return pause }
        return longPause
    }

    /// Takes a placed block and the break on both sides of it out of the free span holding it
    /// (after it the long break when it is the `run`-th block in a row and `run` is a multiple
    /// of `cycles`; before it, with `cycles`, always the long break). Spans on the far side of a busy event keep their time: an event separates
    /// two blocks as well as a break does.
    mutating func occupy(_ block: MinuteSpan, day index: Int, run: Int = 1) {
        guard index >= 0, index < days.count else { return }
        let spans = days[index].free
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].end <= block.start { low = mid + 1 } else { high = mid }
        }
        guard low < spans.count, spans[low].start <= block.start else { return }
        let span = spans[low]
        var pieces: [MinuteSpan] = []
        // With the Pomodoro rhythm, work placed later before this block keeps a long break from
        // it: it never joins the block's row, whose count is already fixed.
        let left = MinuteSpan(start: span.start, end: min(span.end, block.start - (cycles == nil ? pause : longPause)), run: span.run)
        let resets = cycles.map { run % $0 == 0 } ?? false
        let right = MinuteSpan(start: max(span.start, block.end + pause(after: run)), end: span.end, run: resets ? 0 : run)
        if left.length >= threshold { pieces.append(left) }
        if right.length >= threshold { pieces.append(right) }
        days[index].free.replaceSubrange(low...low, with: pieces)
    }

    private func buildDay(_ index: Int) -> WorkingDay {
        let date = localDate(index)
        let (workdayStart, workdayEnd) = window(date)
        let startTime = TimeOfDay(minutes: workdayStart)
        let startDate = calendar.instant(date, startTime)
        let endDate = workdayEnd >= 1440
            ? calendar.startOfDay(date.adding(days: 1))
            : calendar.instant(date, TimeOfDay(minutes: workdayEnd))
        let start = Minutes.up(Minutes.up(startDate), grain: grain)
        var end = max(start, Minutes.down(Minutes.down(endDate), grain: grain))
        if workdayEnd <= workdayStart {
            return WorkingDay(start: start, end: start, startMinute: workdayStart, endMinute: workdayStart, uniform: true, free: [])
        }
        // A night shorter than a break (near round-the-clock hours): keep the end of the day
        // a break away from the next day's start, so blocks either side of it are a break apart.
        let next = window(date.adding(days: 1))
        if pause > 0, next.end > next.start, 1440 - workdayEnd + next.start < pause + 180 {
            let nextStart = Minutes.up(Minutes.up(calendar.instant(date.adding(days: 1), TimeOfDay(minutes: next.start))), grain: grain)
            end = max(start, min(end, nextStart - pause))
        }
        let uniform = calendar.utcOffset(at: startDate) == calendar.utcOffset(at: endDate)
            && calendar.timeOfDay(of: startDate) == startTime
        return WorkingDay(start: start, end: end, startMinute: workdayStart, endMinute: workdayEnd, uniform: uniform,
                          free: freeSpans(from: max(start, origin), to: end, lunch: lunchSpan(date, within: start..<end)))
    }

    /// The day's lunch gap in minutes (widened to the grain's marks), when it lies in its window.
    private func lunchSpan(_ date: LocalDate, within window: Range<Int>) -> MinuteSpan? {
        guard let lunch else { return nil }
        let from = Minutes.down(Minutes.down(calendar.instant(date, lunch.start)), grain: grain)
        let to = lunch.end.minutes >= 1440
            ? Minutes.up(calendar.startOfDay(date.adding(days: 1)))
            : Minutes.up(Minutes.up(calendar.instant(date, lunch.end)), grain: grain)
        let span = MinuteSpan(start: max(from, window.lowerBound), end: min(to, window.upperBound))
        return span.start < span.end ? span : nil
    }

    /// [from, to) minus busy time and the lunch gap, keeping spans of at least the threshold.
    private func freeSpans(from: Int, to: Int, lunch: MinuteSpan?) -> [MinuteSpan] {
        guard let lunch else { return freeSpans(from: from, to: to) }
        return freeSpans(from: from, to: min(to, lunch.start)) + freeSpans(from: max(from, lunch.end), to: to)
    }

    /// [from, to) minus busy time, keeping spans of at least the threshold.
    private func freeSpans(from: Int, to: Int) -> [MinuteSpan] {
        guard from < to else { return [] }
        var low = 0
        var high = busy.count
        while low < high {
            let mid = (low + high) / 2
            if busy[mid].end <= from { low = mid + 1 } else { high = mid }
        }
        var result: [MinuteSpan] = []
        var cursor = from
        var index = low
        while index < busy.count, busy[index].start < to {
            let b = busy[index]
            if b.start - cursor >= threshold { result.append(MinuteSpan(start: cursor, end: b.start)) }
            cursor = max(cursor, b.end)
            index += 1
        }
        if to - cursor >= threshold { result.append(MinuteSpan(start: cursor, end: to)) }
        return result
    }
}
