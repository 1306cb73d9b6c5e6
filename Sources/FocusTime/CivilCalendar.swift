/// Proleptic Gregorian day arithmetic with no time zone, the one copy in the package: day
/// numbers count days since 1970-01-01, "wall seconds" count seconds since 1970-01-01T00:00 of
/// some wall clock. Recurrence expansion works in wall seconds and converts to instants only at
/// the end; local days and times of day (`LocalDate`, `LocalCalendar`) are built on it.
package enum CivilCalendar {
    package static let secondsPerDay = 86_400

    /// Floor division (rounds towards negative infinity).
    @inline(__always)
    package static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q
    }

    /// Remainder with the sign of the divisor.
    @inline(__always)
    package static func floorMod(_ a: Int, _ b: Int) -> Int {
        let r = a % b
        return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r
    }

    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    package static func daysInYear(_ year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    /// Days since 1970-01-01 (the civil-from-days algorithm, era based). The arithmetic wraps
    /// rather than traps: readers refuse years outside 1–9999 before they get here, and a value
    /// that slipped past one (a year near Int.max) gives a meaningless day, never a crash.
    package static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year &- 1 : year
        let era = floorDiv(y, 400)
        let yoe = y &- era &* 400
        let mp = (month &+ 9) % 12
        let doy = (153 &* mp &+ 2) / 5 &+ day &- 1
        let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
        return era &* 146_097 &+ doe &- 719_468
    }

    /// The civil date of a day number; wraps rather than traps, as `dayNumber` does.
    package static func date(fromDayNumber n: Int) -> (year: Int, month: Int, day: Int) {
        let z = n &+ 719_468
        let era = floorDiv(z, 146_097)
        let doe = z &- era &* 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe &+ era &* 400 &+ (m <= 2 ? 1 : 0), m, d)
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    @inline(__always)
    package static func weekday(ofDay n: Int) -> Int { floorMod(n + 4, 7) }

    /// The day a wall-seconds value falls on.
    @inline(__always)
    package static func day(ofWall w: Int) -> Int { floorDiv(w, secondsPerDay) }

    /// Seconds since midnight of a wall-seconds value.
    @inline(__always)
    package static func secondOfDay(ofWall w: Int) -> Int { floorMod(w, secondsPerDay) }

    /// Wall seconds of a civil date and time; wraps rather than traps, as `dayNumber` does.
    package static func wall(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Int {
        dayNumber(year: year, month: month, day: day) &* secondsPerDay &+ hour &* 3600 &+ minute &* 60 &+ second
    }

    /// The first day of the week (starting on `weekStart`, 0 = Sunday) that contains `day`.
    package static func startOfWeek(containing day: Int, weekStart: Int) -> Int {
        day - floorMod(weekday(ofDay: day) - weekStart, 7)
    }

    /// The first day of week 1 of `year` under RFC 5545 numbering: weeks start on `weekStart`,
    /// and week 1 is the first week with at least four days in the year.
    package static func firstDayOfWeekOne(year: Int, weekStart: Int) -> Int {
        let jan1 = dayNumber(year: year, month: 1, day: 1)
        let delta = floorMod(weekday(ofDay: jan1) - weekStart, 7)
        return delta <= 3 ? jan1 - delta : jan1 + (7 - delta)
    }
}
