import FoundationEssentials

/// The agenda's "Free in working hours" (README, "Agenda"): the time of a day's working window
/// the planner could still use. Busy are the day's events with the `buffer` kept around each
/// timed one (all-day events get none), the lunch gap, and blocks still planned; before `now`
/// nothing is free.
package enum DayFreeTime {
    /// A calendar event as the day's free time sees it.
    package struct Event: Sendable {
        package var interval: DateInterval
        package var allDay: Bool

        package init(interval: DateInterval, allDay: Bool) {
            self.interval = interval
            self.allDay = allDay
        }
    }

    package static func seconds(day: LocalDate, now: Date, rules: SchedulingRules, events: [Event], planned: [DateInterval]) -> Int {
        guard let window = rules.hours.hours(on: day) else { return 0 }
        let calendar = rules.calendar
        func instant(_ time: TimeOfDay) -> Date {
            time.minutes >= 1440 ? calendar.startOfDay(day.adding(days: 1)) : calendar.instant(day, time)
        }
        let workStart = instant(window.start)
        let span = DateInterval(start: max(workStart, now), end: max(workStart, now, instant(window.end)))
        var busy = Buffer.widen(events.filter { !$0.allDay }.map(\.interval), by: rules.bufferSeconds)
        busy += events.filter(\.allDay).map(\.interval) + planned
        if let lunch = rules.lunch { busy.append(DateInterval(start: instant(lunch.start), end: max(instant(lunch.start), instant(lunch.end)))) }
        return uncovered(span, by: busy)
    }

    /// Seconds of `window` not covered by any of `busy`.
    package static func uncovered(_ window: DateInterval, by busy: [DateInterval]) -> Int {
        guard window.duration > 0 else { return 0 }
        let clipped = busy.compactMap { b -> (Double, Double)? in
            let s = max(b.start, window.start).timeIntervalSince1970
            let e = min(b.end, window.end).timeIntervalSince1970
            return e > s ? (s, e) : nil
        }.sorted { $0.0 < $1.0 }
        var covered = 0.0
        var reach = window.start.timeIntervalSince1970
        for (s, e) in clipped where e > reach {
            covered += e - max(s, reach)
            reach = e
        }
        return Int((window.duration - covered).rounded())
    }
}
