import Foundation

/// A calendar day with no time zone: `2026-11-22`.
package struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    package static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `2026-11-22`, formatted by hand (cheap on hot paths).
    package var description: String {
        var s = year >= 1000 && year < 10_000 ? Digits.two(year / 100) + Digits.two(year % 100) : String(year)
        s += "-"
        s += Digits.two(month)
        s += "-"
        s += Digits.two(day)
        return s
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (no time zone involved).
    package var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package init(dayNumber z0: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    package func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// 0 = Sunday … 6 = Saturday.
    package var weekday: Int { ((dayNumber % 7) + 11) % 7 }
}

/// A local time of day, in minutes after midnight: `09:00` is 540.
package struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var minutes: Int

    package init(minutes: Int) { self.minutes = minutes }
    package init(hour: Int, minute: Int) { self.minutes = hour * 60 + minute }

    package var hour: Int { minutes / 60 }
    package var minute: Int { minutes % 60 }

    package static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    package var description: String {
        Digits.two(hour) + ":" + Digits.two(minute)
    }
}
