import FocusText
import FoundationEssentials

/// Days and times as people say them, read against a reference day (the person's today in
/// their time zone): `today`, `tomorrow`, `yesterday`, weekday names (`fri`, `friday`,
/// `this fri`, `next fri`, `last fri`), `in 3 days`, `in 2 weeks`, `in 1 month`, `3 days ago`,
/// `end of week`, `end of month`, `end of year`; and times of day `17:00`, `9am`, `9:30pm`,
/// `noon`. The table of forms is in README.md ("Dates and times").
///
/// Weekdays follow GNU date(1) ("Day of week items" in its manual): `fri` and `this fri` are the
/// first Friday on or after today (today, on a Friday); `next fri` the first Friday after today;
/// `last fri` the last Friday before today. A week ends on Sunday (ISO 8601 weeks).
package enum DayPhrase {
    /// The forms a refusal lists.
    package static let dayForms = "a date like 2026-11-22, today, tomorrow, yesterday, fri, next fri, last fri, in 3 days, in 2 weeks, 3 days ago, end of week or end of month"

    /// The day named by `text` (lowercase words separated by spaces), or nil.
    package static func day(_ text: String, today: LocalDate) -> LocalDate? {
        day(words(text), today: today)
    }

    /// A day followed by an optional time of day (`fri 17:00`, `tomorrow at 9am`); a time alone
    /// means today. Nil when the text is neither.
    package static func dayAndTime(_ text: String, today: LocalDate) -> (LocalDate, (TimeOfDay, Int)?)? {
        let all = words(text)
        guard !all.isEmpty else { return nil }
        if let t = time(all[...]) { return (today, t) }
        // The longest leading phrase that names a day; the rest (after an optional `at`) is the time.
        for split in stride(from: all.count, through: 1, by: -1) {
            guard let d = day(Array(all[..<split]), today: today) else { continue }
            var rest = all[split...]
            if rest.isEmpty { return (d, nil) }
            if rest.first == "at" { rest = rest.dropFirst() }
            guard let t = time(rest) else { return nil }
            return (d, t)
        }
        return nil
    }

    // MARK: - Days

    private static func words(_ text: String) -> [Substring] {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    /// Days of years 1 to 9999 only, as ISO 8601 dates are read (`tomorrow` on 9999-12-31 is none).
    private static func day(_ w: [Substring], today: LocalDate) -> LocalDate? {
        phrase(w, today: today).flatMap { (1...9999).contains($0.year) ? $0 : nil }
    }

    private static func phrase(_ w: [Substring], today: LocalDate) -> LocalDate? {
        switch w.count {
        case 1:
            switch w[0] {
            case "today": return today
            case "tomorrow": return today.adding(days: 1)
            case "yesterday": return today.adding(days: -1)
            default:
                if let d = DateParser.parseDate(w[0]) { return d }
                return weekday(w[0]).map { onOrAfter(today, weekday: $0) }
            }
        case 2:
            guard let wd = weekday(w[1]) else { return nil }
            switch w[0] {
            case "this": return onOrAfter(today, weekday: wd)
            case "next": return onOrAfter(today.adding(days: 1), weekday: wd)
            case "last": return onOrAfter(today.adding(days: -7), weekday: wd)
            default: return nil
            }
        case 3 where w[0] == "in":
            return count(w[1]).flatMap { n in shifted(today, by: n, unit: w[2]) }
        case 3 where w[2] == "ago":
            return count(w[0]).flatMap { n in shifted(today, by: -n, unit: w[1]) }
        case 3, 4:
            // `end of week`, `end of the month`.
            guard w[0] == "end", w[1] == "of" else { return nil }
            if w.count == 4 && w[2] != "the" { return nil }
            return endOf(w[w.count - 1], today: today)
        default:
            return nil
        }
    }

    private static let weekdayNames: [[Substring]] = [
        ["sunday", "sun"], ["monday", "mon"], ["tuesday", "tue", "tues"], ["wednesday", "wed"],
        ["thursday", "thu", "thur", "thurs"], ["friday", "fri"], ["saturday", "sat"],
    ]

    /// 0 = Sunday … 6 = Saturday.
    private static func weekday(_ word: Substring) -> Int? {
        weekdayNames.firstIndex { $0.contains(word) }
    }

    private static func onOrAfter(_ day: LocalDate, weekday: Int) -> LocalDate {
        day.adding(days: ((weekday - day.weekday) % 7 + 7) % 7)
    }

    /// `3`, `a`, `an`; at most 1,000 (about three years in weeks is plenty, and keeps years in range).
    private static func count(_ word: Substring) -> Int? {
        if word == "a" || word == "an" { return 1 }
        guard (1...4).contains(word.utf8.count), word.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let n = Int(word), n <= 1000 else { return nil }
        return n
    }

    private static func shifted(_ today: LocalDate, by n: Int, unit: Substring) -> LocalDate? {
        switch unit {
        case "day", "days": return today.adding(days: n)
        case "week", "weeks": return today.adding(days: 7 * n)
        case "month", "months": return addingMonths(n, to: today)
        default: return nil
        }
    }

    /// The same day `n` months on, or that month's last day when it is shorter
    /// (`2026-01-31` in 1 month is `2026-02-28`).
    private static func addingMonths(_ n: Int, to d: LocalDate) -> LocalDate {
        let index = d.year * 12 + (d.month - 1) + n
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        let month = index - year * 12 + 1
        let last = (1...9999).contains(year) ? CivilCalendar.daysInMonth(year: year, month: month) : 28
        return LocalDate(year: year, month: month, day: min(d.day, last))
    }

    private static func endOf(_ unit: Substring, today: LocalDate) -> LocalDate? {
        switch unit {
        case "week": return onOrAfter(today, weekday: 0)
        case "month": return LocalDate(year: today.year, month: today.month, day: CivilCalendar.daysInMonth(year: today.year, month: today.month))
        case "year": return LocalDate(year: today.year, month: 12, day: 31)
        default: return nil
        }
    }

    // MARK: - Times

    /// The forms a refused time of day lists.
    package static let timeForms = "a time of day like 09:00, 21:00, 9am, 9:30pm, 12pm, noon, or a bare hour on the 24-hour clock (9, 21)"

    /// A time of day where only a time is taken (`--earliest`, `day_start`, `hours.mon`): the
    /// times a date-time takes (`21:00`, `9:05`, `9am`, `9 pm`, `9:30pm`, `12pm`, `12am`, `noon`),
    /// `midnight`, and a bare hour on the 24-hour clock (`9`, `21`; after a day, as in `fri 17`,
    /// a bare number is refused: it could be a day of the month). Whole minutes only. Nil otherwise:
    /// `930`, `9.30`, `13pm`, `0am`, `09:00:30`.
    package static func timeOfDay(_ text: String) -> TimeOfDay? {
        let all = words(text)
        if all.count == 1 {
            if all[0] == "midnight" { return TimeOfDay(minutes: 0) }
            let w = all[0]
            if (1...2).contains(w.utf8.count), w.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let h = Int(w), h < 24 {
                return TimeOfDay(hour: h, minute: 0)
            }
        }
        guard let (t, second) = time(all[...]), second == 0 else { return nil }
        return t
    }

    /// `17:00`, `17:00:30`, `9am`, `9 am`, `9:30pm`, `12am` (midnight), `12pm` and `noon`.
    private static func time(_ w: ArraySlice<Substring>) -> (TimeOfDay, Int)? {
        let text = w.joined()
        if w.count == 1, let t = DateParser.parseClock(w[w.startIndex]) { return t }
        if text == "noon" { return (TimeOfDay(hour: 12, minute: 0), 0) }
        guard w.count <= 2, text.hasSuffix("am") || text.hasSuffix("pm") else { return nil }
        let pm = text.hasSuffix("pm")
        let clock = text.dropLast(2)
        var hour: Int
        var minute = 0
        if clock.contains(":") {
            guard let (t, sec) = DateParser.parseClock(clock), sec == 0, clock.utf8.count <= 5 else { return nil }
            hour = t.hour
            minute = t.minute
        } else {
            guard (1...2).contains(clock.utf8.count), clock.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let h = Int(clock) else { return nil }
            hour = h
        }
        guard (1...12).contains(hour) else { return nil }
        hour = hour % 12 + (pm ? 12 : 0)
        return (TimeOfDay(hour: hour, minute: minute), 0)
    }
}
