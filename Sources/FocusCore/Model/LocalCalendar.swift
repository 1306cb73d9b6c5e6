import Foundation

/// Conversions between instants and the person's local days and times of day, in one zone.
/// Days are calendar days: 23 or 25 hours long across DST changes.
package struct LocalCalendar: Sendable {
    /// The zone's offsets (read from the zone database, see `ZoneRules`).
    package let zone: ZoneRules

    package init(zone: ZoneRules) {
        self.zone = zone
    }

    /// A calendar for a Foundation time zone: its zone database entry when it has one (every
    /// IANA name), else its offsets as Foundation gives them (fixed-offset zones).
    package init(timeZone: TimeZone) {
        if let zone = ZoneRules.named(timeZone.identifier) {
            self.init(zone: zone)
        } else {
            self.init(zone: .fixed(secondsEast: timeZone.secondsFromGMT(), identifier: timeZone.identifier))
        }
    }

    /// The IANA name of the zone (`Europe/Berlin`).
    package var identifier: String { zone.identifier }

    /// The zone as a Foundation `TimeZone`, for the .ics code that resolves other zones by
    /// name too. Made on demand: it loads ICU.
    package var timeZone: TimeZone {
        TimeZone(identifier: zone.identifier) ?? TimeZone(secondsFromGMT: zone.offset(at: Date())) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// Seconds east of UTC at an instant.
    package func utcOffset(at date: Date) -> Int {
        zone.offset(at: date)
    }

    /// The local day an instant falls on.
    package func day(of date: Date) -> LocalDate {
        LocalDate(dayNumber: Int((Double(wallSeconds(date)) / 86_400).rounded(.down)))
    }

    /// Minutes after local midnight for an instant (wall-clock reading).
    package func timeOfDay(of date: Date) -> TimeOfDay {
        TimeOfDay(minutes: secondsIntoDay(wallSeconds(date)) / 60)
    }

    /// `2026-11-22 09:00:05`: a local wall-clock reading, formatted by hand.
    package func wallClockText(_ date: Date) -> String {
        let wall = wallSeconds(date)
        let secs = secondsIntoDay(wall)
        let day = LocalDate(dayNumber: Int((Double(wall) / 86_400).rounded(.down)))
        return "\(day) \(TimeOfDay(minutes: secs / 60)):\(Digits.two(secs % 60))"
    }

    /// The wall-clock reading of an instant as seconds since 1970 (as if local time were UTC).
    private func wallSeconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 + Double(zone.offset(at: date))).rounded(.down))
    }

    private func secondsIntoDay(_ wall: Int) -> Int { ((wall % 86_400) + 86_400) % 86_400 }

    /// The first instant of a local day (midnight, or the first existing time after a gap).
    package func startOfDay(_ day: LocalDate) -> Date {
        instant(day, TimeOfDay(minutes: 0))
    }

    /// The instant a local wall-clock reading names. In a spring-forward gap the reading is
    /// pushed forward by the gap (02:30 → 03:30); in a fall-back overlap the earlier one wins.
    package func instant(_ day: LocalDate, _ time: TimeOfDay, second: Int = 0) -> Date {
        let wall = Int64(day.dayNumber) * 86_400 + Int64(time.minutes * 60 + second)
        return Date(timeIntervalSince1970: Double(utc(fromWall: wall)))
    }

    /// The instant of a wall-clock reading (seconds since 1970 as if local time were UTC):
    /// read with the offset in force just before it, unless that offset does not give back the
    /// reading (it is after a change), then with the one after. A reading in a gap gets the
    /// offset before the gap (so it lands after the gap by its length); one in an overlap, the
    /// earlier instant.
    private func utc(fromWall w: Int64) -> Int64 {
        let before = Int64(zone.offset(atUTC: w - Int64(zone.offset(atUTC: w)) - 86_400))
        let after = Int64(zone.offset(atUTC: w - Int64(zone.offset(atUTC: w)) + 86_400))
        if before == after { return w - before }
        let early = w - before
        if Int64(zone.offset(atUTC: early)) == before { return early }
        let late = w - after
        if Int64(zone.offset(atUTC: late)) == after { return late }
        return early
    }

    /// Whether a local wall-clock reading does not exist (DST gap) or exists twice (overlap).
    package func ambiguity(_ day: LocalDate, _ time: TimeOfDay) -> WallClockAmbiguity {
        let resolved = instant(day, time)
        let back = timeOfDay(of: resolved)
        if back != time || self.day(of: resolved) != day { return .skipped(resolvedTo: resolved) }
        let shifted = resolved.addingTimeInterval(3600)
        if self.day(of: shifted) == day, timeOfDay(of: shifted) == time { return .repeated(firstOf: resolved) }
        let earlier = resolved.addingTimeInterval(-3600)
        if self.day(of: earlier) == day, timeOfDay(of: earlier) == time { return .repeated(firstOf: earlier) }
        return .none
    }
}

package enum WallClockAmbiguity: Equatable, Sendable {
    case none
    /// The time falls in a spring-forward gap; it is taken as the instant given.
    case skipped(resolvedTo: Date)
    /// The time occurs twice; the first occurrence is used.
    case repeated(firstOf: Date)
}
