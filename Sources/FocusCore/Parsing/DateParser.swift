import FocusText
import FoundationEssentials

/// A date-time as typed: either an exact instant (ISO 8601 with `Z` or an offset), or a local
/// wall-clock reading to be placed in the person's time zone.
package enum DateTimeInput: Equatable, Sendable {
    case instant(Date)
    case local(LocalDate, TimeOfDay, second: Int)
    /// A date with no time (`2026-11-22`).
    case day(LocalDate)
}

/// Parsers for times of day (`09:00`, `9am`), dates (`2026-11-22`, and as people say them: `tomorrow`,
/// `fri`, `in 3 days`, see `DayPhrase`) and date-times (`2026-11-22 17:00`, `2026-11-22T17:00:00`,
/// ISO 8601 with an offset or `Z`, `fri 17:00`).
/// Digits are read by hand: no formatter objects, no locale surprises.
package enum DateParser {
    /// A time of day as people say it (`09:00`, `9am`, `9:30pm`, `12pm`, `21`): see `DayPhrase.timeOfDay`.
    package static func timeOfDay(_ text: String, what: String = "time of day") throws(FocusError) -> TimeOfDay {
        guard let t = DayPhrase.timeOfDay(text) else {
            throw .invalidValue(what: what, value: text, expected: DayPhrase.timeForms)
        }
        return t
    }

    package static func date(_ text: String, today: LocalDate, what: String = "date") throws(FocusError) -> LocalDate {
        guard let d = DayPhrase.day(text.trimmingSpaces(), today: today) else {
            throw .invalidValue(what: what, value: text, expected: DayPhrase.dayForms)
        }
        return d
    }

    /// A date-time: ISO 8601 (with an offset or `Z` it names an instant; without, a local
    /// reading), a time alone (today), or a day as people say it with an optional time
    /// (`fri 17:00`, `tomorrow 9am`, `in 3 days`): see `DayPhrase`.
    package static func dateTime(_ text: String, today: LocalDate, what: String = "date-time") throws(FocusError) -> DateTimeInput {
        let s = text.trimmingSpaces()
        if let input = isoDateTime(s, today: today) { return input }
        guard let (day, time) = DayPhrase.dayAndTime(s, today: today) else {
            throw .invalidValue(what: what, value: text, expected: dateTimeForms(today: today))
        }
        guard let (t, sec) = time else { return .day(day) }
        return .local(day, t, second: sec)
    }

    /// When something began (`log add --start`): a date-time with its time of day. A day alone
    /// (`3 days ago`, `2026-12-04`) is refused rather than read as its midnight (#41).
    package static func moment(_ text: String, today: LocalDate, what: String) throws(FocusError) -> DateTimeInput {
        let input = try dateTime(text, today: today, what: what)
        if case .day(let day) = input {
            throw .invalidValue(what: what, value: text, expected: "a time of day too, like '\(day) 09:00' or '\(text.trimmingSpaces()) 9am'")
        }
        return input
    }

    /// The forms a refused date-time lists.
    /// The example dates are tomorrow's, never a day already past (#41).
    package static func dateTimeForms(today: LocalDate) -> String {
        let day = today.adding(days: 1)
        return "'\(day) 17:00', \(day)T17:00:00+01:00, 17:00, or a day (today, tomorrow, fri, next fri, in 3 days, end of month) "
            + "with an optional time (fri 17:00, monday 9am)"
    }

    /// `2026-11-22`, `2026-11-22 17:00`, `2026-11-22T17:00:00+01:00` or a bare `17:00`; nil otherwise.
    private static func isoDateTime(_ s: String, today: LocalDate) -> DateTimeInput? {
        // A bare time of day means today.
        if let (t, sec) = parseClock(Substring(s)) { return .local(today, t, second: sec) }
        guard s.count >= 10, let day = parseDate(s.prefix(10)) else { return nil }
        var rest = s.dropFirst(10)
        if rest.isEmpty { return .day(day) }
        guard let sep = rest.first, sep == "T" || sep == " " || sep == "t" else { return nil }
        rest = rest.dropFirst()
        // Split the clock from an offset suffix (`Z`, `+01:00`, `-0500`).
        var clockPart = rest
        var offsetSeconds: Int?
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            clockPart = rest.dropLast()
            offsetSeconds = 0
        } else if let signIndex = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            clockPart = rest[rest.startIndex..<signIndex]
            guard let off = parseOffset(rest[signIndex...]) else { return nil }
            offsetSeconds = off
        }
        // Fractions of a second are accepted and dropped.
        if let dot = clockPart.firstIndex(of: ".") {
            guard clockPart[clockPart.index(after: dot)...].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            clockPart = clockPart[..<dot]
        }
        guard let (t, sec) = parseClock(clockPart.trimmingSpaces()[...]) else { return nil }
        if let offsetSeconds {
            let local = day.dayNumber * 86_400 + t.minutes * 60 + sec
            return .instant(Date(timeIntervalSince1970: Double(local - offsetSeconds)))
        }
        return .local(day, t, second: sec)
    }

    /// Resolves a date-time in a zone. A day alone means its start (or, with `endOfDay`, the next
    /// day's start: "due 2026-11-30" means by the end of that day).
    package static func resolve(_ input: DateTimeInput, in calendar: LocalCalendar, endOfDay: Bool = false) -> Date {
        switch input {
        case let .instant(d): return d
        case let .local(day, t, second): return calendar.instant(day, t, second: second)
        case let .day(day): return calendar.startOfDay(endOfDay ? day.adding(days: 1) : day)
        }
    }

    /// `resolve`, saying how when a local reading names no instant or two: a time in a
    /// spring-forward gap is moved forward by the gap, a time in a fall-back overlap takes the
    /// first of the two, and `warn` receives one sentence naming the instant used.
    package static func resolve(_ input: DateTimeInput, in calendar: LocalCalendar, endOfDay: Bool = false, warn: (String) -> Void) -> Date {
        if let message = ambiguityWarning(input, in: calendar) { warn(message) }
        return resolve(input, in: calendar, endOfDay: endOfDay)
    }

    /// The sentence `resolve(_:in:endOfDay:warn:)` gives for a reading in a gap or an overlap.
    package static func ambiguityWarning(_ input: DateTimeInput, in calendar: LocalCalendar) -> String? {
        guard case let .local(day, time, second) = input else { return nil }
        let zone = calendar.zone
        let reading = "\(day) \(time)" + (second == 0 ? "" : ":\(second < 10 ? "0" : "")\(second)")
        switch calendar.ambiguity(day, time) {
        case .skipped:
            let used = calendar.instant(day, time, second: second)
            return "\(reading) does not exist in \(zone.identifier) (clocks jump forward); using \(Timestamp.local(used, in: zone))."
        case let .repeated(first):
            let used = first.addingTimeInterval(Double(second))
            return "\(reading) happens twice in \(zone.identifier) (clocks go back); using the first, \(Timestamp.local(used, in: zone))."
        case .none:
            return nil
        }
    }

    // MARK: - Pieces

    /// `YYYY-MM-DD`, validated against the month's length.
    package static func parseDate(_ s: Substring) -> LocalDate? {
        let b = Array(s.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let y = number(b[0..<4]), let m = number(b[5..<7]), let d = number(b[8..<10]),
              (1...9999).contains(y), (1...12).contains(m), d >= 1, d <= CivilCalendar.daysInMonth(year: y, month: m)
        else { return nil }
        return LocalDate(year: y, month: m, day: d)
    }

    /// `HH:MM` or `HH:MM:SS` (one-digit hour allowed); 24:00 is not a time of day.
    static func parseClock(_ s: Substring) -> (TimeOfDay, Int)? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        guard (1...2).contains(parts[0].utf8.count), parts[1].utf8.count == 2,
              let h = number(parts[0].utf8[...]), let m = number(parts[1].utf8[...]),
              h < 24, m < 60 else { return nil }
        var sec = 0
        if parts.count == 3 {
            guard parts[2].utf8.count == 2, let v = number(parts[2].utf8[...]), v < 60 else { return nil }
            sec = v
        }
        return (TimeOfDay(hour: h, minute: m), sec)
    }

    /// `+01:00`, `-0500`, `+01` → seconds east of UTC.
    static func parseOffset(_ s: Substring) -> Int? {
        guard let sign = s.first, sign == "+" || sign == "-" else { return nil }
        let digits = s.dropFirst().filter { $0 != ":" }
        guard digits.count == 2 || digits.count == 4, let v = number(Array(digits.utf8)[...]) else { return nil }
        let h = digits.count == 2 ? v : v / 100
        let m = digits.count == 2 ? 0 : v % 100
        guard h <= 18, m < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    private static func number<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        guard !bytes.isEmpty else { return nil }
        var v = 0
        for b in bytes {
            guard b >= 48, b <= 57 else { return nil }
            v = v * 10 + Int(b - 48)
        }
        return v
    }
}
