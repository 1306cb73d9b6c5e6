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

    /// `2026-11-22`, formatted by hand (cheap on hot paths); years 0...9999 with four digits
    /// (`0001-01-01`, as ISO 8601 writes them), others as their plain number.
    package var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10)
        if year >= 0 && year < 10_000 {
            appendTwoDigits(year / 100, to: &bytes)
            appendTwoDigits(year % 100, to: &bytes)
        } else {
            bytes.append(contentsOf: String(year).utf8)
        }
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(day, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (no time zone involved).
    package var dayNumber: Int { CivilCalendar.dayNumber(year: year, month: month, day: day) }

    package init(dayNumber: Int) {
        let (y, m, d) = CivilCalendar.date(fromDayNumber: dayNumber)
        self.init(year: y, month: m, day: d)
    }

    package func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// 0 = Sunday … 6 = Saturday.
    package var weekday: Int { CivilCalendar.weekday(ofDay: dayNumber) }

    /// Whether the date names a real day (`2026-02-29` does not).
    package var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilCalendar.daysInMonth(year: year, month: month)
    }
}

/// A local time of day, in minutes after midnight: `09:00` is 540.
package struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var minutes: Int

    package init(minutes: Int) { self.minutes = minutes }
    package init(hour: Int, minute: Int) { self.minutes = hour * 60 + minute }

    package var hour: Int { minutes / 60 }
    package var minute: Int { minutes % 60 }

    package static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    /// `09:05`.
    package var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(5)
        appendTwoDigits(hour, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(minute, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `7` → "07" (0...99; other numbers as written).
@inline(__always)
func appendTwoDigits(_ n: Int, to bytes: inout [UInt8]) {
    if n >= 0 && n < 100 {
        bytes.append(UInt8(truncatingIfNeeded: 48 + n / 10))
        bytes.append(UInt8(truncatingIfNeeded: 48 + n % 10))
    } else {
        bytes.append(contentsOf: String(n).utf8)
    }
}
