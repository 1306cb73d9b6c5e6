import FocusTime
import FoundationEssentials

/// Recurring work (`--every day|weekdays|week|month [--on DAY]`, README "Planning"): each period
/// has its own instance, due at the end of the period, or at the end of the `--on` day in it.
/// Pure: periods and due instants from local days, so month ends and DST days come out right.
package struct Recurrence: Sendable, Equatable, Hashable {
    package enum Every: String, Sendable, CaseIterable {
        case day, weekdays, week, month
    }

    package var every: Every
    /// For `week`: a weekday, 0 = Sunday … 6 = Saturday. For `month`: a day of the month,
    /// 1…31 (in a shorter month, its last day). Nil: the period's last day.
    package var on: Int?

    package init(every: Every, on: Int? = nil) {
        self.every = every
        self.on = on
    }

    /// One period's instance: its first local day (work on it starts then) and its due day
    /// (due at that day's end).
    package struct Period: Sendable, Equatable, Hashable {
        package var start: LocalDate
        package var dueDay: LocalDate

        package init(start: LocalDate, dueDay: LocalDate) {
            self.start = start
            self.dueDay = dueDay
        }

        /// The due instant: the start of the day after `dueDay` (as a due date given as a day).
        package func due(in calendar: LocalCalendar) -> Date {
            calendar.startOfDay(dueDay.adding(days: 1))
        }
    }

    /// A rule as stored: an `on` out of its kind's range (a hand edit) reads as none.
    package init(every: Every, stored on: Int?) {
        let valid: ClosedRange<Int>? = every == .week ? 0...6 : every == .month ? 1...31 : nil
        self.init(every: every, on: on.flatMap { valid?.contains($0) == true ? $0 : nil })
    }

    /// `fri`, `15`: the `--on` value as a person writes it (nil without one).
    package var onText: String? {
        guard let on else { return nil }
        return every == .week ? Recurrence.weekdayNames[on] : String(on)
    }

    /// Reads `--every` and `--on`; a usage error names the forms that work.
    package static func parse(every: String, on: String?) throws(FocusError) -> Recurrence {
        guard let kind = Every(rawValue: every.lowercased()) else {
            throw .invalidValue(what: "--every", value: every, expected: "day, weekdays, week or month")
        }
        guard let on else { return Recurrence(every: kind) }
        switch kind {
        case .week:
            guard let weekday = weekdayNumber(on) else {
                throw .invalidValue(what: "--on", value: on, expected: "a weekday for --every week (mon … sun)")
            }
            return Recurrence(every: kind, on: weekday)
        case .month:
            guard let day = Int(on), (1...31).contains(day) else {
                throw .invalidValue(what: "--on", value: on, expected: "a day of the month, 1 to 31, for --every month")
            }
            return Recurrence(every: kind, on: day)
        case .day, .weekdays:
            throw .usage("--on goes with --every week (a weekday) or --every month (a day of the month).")
        }
    }

    static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// `fri`, `Friday`, `FRI` → 5.
    static func weekdayNumber(_ text: String) -> Int? {
        let word = text.lowercased()
        guard word.count >= 3 else { return nil }
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        return full.firstIndex { $0.hasPrefix(word) }
    }

    /// `every week on fri`, `every month on the 15th`, `every weekday`.
    package var description: String {
        switch every {
        case .day: return "every day"
        case .weekdays: return "every weekday"
        case .week:
            return on.map { "every week on " + Recurrence.weekdayNames[$0].capitalized } ?? "every week"
        case .month:
            return on.map { "every month on day \($0)" } ?? "every month"
        }
    }

    /// The period holding `day`, or for `weekdays` on a weekend, the next weekday's. Weeks run
    /// Monday to Sunday (ISO 8601).
    package func period(containing day: LocalDate) -> Period {
        switch every {
        case .day:
            return Period(start: day, dueDay: day)
        case .weekdays:
            let weekday = day.weekday
            let next = weekday == 6 ? day.adding(days: 2) : weekday == 0 ? day.adding(days: 1) : day
            return Period(start: next, dueDay: next)
        case .week:
            let monday = day.adding(days: -((day.weekday + 6) % 7))
            let dueDay = on.map { monday.adding(days: ($0 + 6) % 7) } ?? monday.adding(days: 6)
            return Period(start: monday, dueDay: dueDay)
        case .month:
            let first = LocalDate(year: day.year, month: day.month, day: 1)
            let length = CivilCalendar.daysInMonth(year: day.year, month: day.month)
            return Period(start: first, dueDay: LocalDate(year: day.year, month: day.month, day: min(on ?? length, length)))
        }
    }

    /// The period after `period`.
    package func period(after period: Period) -> Period {
        switch every {
        case .day, .weekdays: return self.period(containing: period.dueDay.adding(days: 1))
        case .week: return self.period(containing: period.start.adding(days: 7))
        case .month:
            let length = CivilCalendar.daysInMonth(year: period.start.year, month: period.start.month)
            return self.period(containing: period.start.adding(days: length))
        }
    }

    /// The instances to keep in place on `today`: the current period's, unless its due day is
    /// already over or it was due before the series began (`since`), and the next period's. A
    /// series that begins later counts its periods from its first day. A period that leaves
    /// the years 0001–9999 (`days`) has no instance: a series from elsewhere starting on
    /// 9999-12-31 makes none, rather than one no plan can store.
    package func instances(today: LocalDate, since: LocalDate) -> [Period] {
        let anchor = max(today, since)
        let current = period(containing: anchor)
        let next = period(after: current)
        return ((current.dueDay >= anchor ? [current] : []) + [next]).filter(Self.isSupported)
    }

    /// The days a period may cover: the years 0001–9999, its due instant (the start of the day
    /// after its due day) included.
    package static let days = LocalDate(year: 1, month: 1, day: 1)...LocalDate(year: 9999, month: 12, day: 30)

    static func isSupported(_ period: Period) -> Bool {
        days.contains(period.start) && days.contains(period.dueDay)
    }

    /// Refuses (64) a first day whose period, or the one after it, leaves the years 0001–9999.
    package func checkStart(_ day: LocalDate) throws(FocusError) {
        let first = period(containing: day)
        guard Self.isSupported(first), Self.isSupported(period(after: first)) else {
            throw .invalidValue(what: "start date", value: day.description,
                                expected: "a day whose period and the next end by 9999-12-30 (recurring work \(description))")
        }
    }
}
