import FocusText
import FoundationEssentials

/// One day's working window: `09:00-17:00` (end after start; `24:00` is midnight at the day's end).
package struct DayHours: Sendable, Hashable, CustomStringConvertible {
    package var start: TimeOfDay
    package var end: TimeOfDay

    package init(start: TimeOfDay, end: TimeOfDay) {
        self.start = start
        self.end = end
    }

    /// `09:00-17:00`.
    package var description: String { "\(start)-\(end)" }

    /// Reads `09:00-17:00`, `9am-5pm`, `9-17` (the value of `hours.mon` …; each end a time of day
    /// as `DayPhrase.timeOfDay` reads it, around `-` or `–`); an end at midnight (`24:00`,
    /// `00:00`, `12am`, `midnight`) is the day's end. Nil when it is not that form.
    package static func parse(_ text: String) -> DayHours? {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "–" })
        guard parts.count == 2, let start = DayPhrase.timeOfDay(String(parts[0])), let end = end(String(parts[1])), start < end
        else { return nil }
        return DayHours(start: start, end: end)
    }

    /// The end of a window: a time of day, midnight being the day's end (24:00).
    private static func end(_ text: String) -> TimeOfDay? {
        let trimmed = text.trimmingSpaces()
        if trimmed == "24:00" || trimmed == "24" { return TimeOfDay(minutes: 1440) }
        guard let t = DayPhrase.timeOfDay(trimmed) else { return nil }
        return t.minutes == 0 ? TimeOfDay(minutes: 1440) : t
    }
}

/// When the person works, for planning and the agenda's free time: the default window
/// (`day_start`–`day_end`), a window or a day off per weekday (`hours.mon` … `hours.sun`), and
/// dated days off (`focus config set off 2026-12-24`).
package struct WorkingHours: Sendable, Equatable {
    /// The window of a weekday without its own.
    package var standard: DayHours
    /// Per weekday, 0 = Sunday … 6 = Saturday: nil uses `standard`; `.some(nil)` is a day off.
    package var weekdays: [DayHours??]
    package var daysOff: Set<LocalDate>

    package init(standard: DayHours, weekdays: [DayHours??] = Array(repeating: nil, count: 7), daysOff: Set<LocalDate> = []) {
        self.standard = standard
        self.weekdays = weekdays.count == 7 ? weekdays : Array(repeating: nil, count: 7)
        self.daysOff = daysOff
    }

    /// The working window of a local day; nil on a day off.
    package func hours(on day: LocalDate) -> DayHours? {
        if daysOff.contains(day) { return nil }
        switch weekdays[day.weekday] {
        case .none: return standard
        case .some(let window): return window
        }
    }

    /// The windows of the weekdays that are worked (at least one window unless every weekday is off).
    package var weeklyWindows: [DayHours] {
        (0..<7).compactMap { weekday in
            switch weekdays[weekday] {
            case .none: return standard
            case .some(let window): return window
            }
        }
    }
}
