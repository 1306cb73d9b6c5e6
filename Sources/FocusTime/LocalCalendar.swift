#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif

/// Conversions between instants and the person's local days and times of day, in one zone.
/// Days are calendar days: 23 or 25 hours long across DST changes.
package struct LocalCalendar: Sendable {
    /// The zone's offsets (read from the zone database, see `ZoneRules`).
    package let zone: ZoneRules
    /// The zone database the zone came from, where other zones (a calendar file's TZIDs) are
    /// looked up too.
    package let database: ZoneDatabase

    package init(zone: ZoneRules, database: ZoneDatabase = ZoneDatabase(environment: [:])) {
        self.zone = zone
        self.database = database
    }

    /// The IANA name of the zone (`Europe/Berlin`), or the `TZ` rule that named it.
    package var identifier: String { zone.identifier }

    /// Seconds east of UTC at an instant.
    package func utcOffset(at date: Date) -> Int {
        zone.offset(at: date)
    }

    /// The local day an instant falls on.
    package func day(of date: Date) -> LocalDate {
        LocalDate(dayNumber: CivilCalendar.day(ofWall: wallSeconds(date)))
    }

    /// Minutes after local midnight for an instant (wall-clock reading).
    package func timeOfDay(of date: Date) -> TimeOfDay {
        TimeOfDay(minutes: CivilCalendar.secondOfDay(ofWall: wallSeconds(date)) / 60)
    }

    /// `2026-11-22 09:00:05`: a local wall-clock reading, formatted by hand.
    package func wallClockText(_ date: Date) -> String {
        let wall = wallSeconds(date)
        let secs = CivilCalendar.secondOfDay(ofWall: wall)
        let day = LocalDate(dayNumber: CivilCalendar.day(ofWall: wall))
        var bytes: [UInt8] = [UInt8(ascii: ":")]
        appendTwoDigits(secs % 60, to: &bytes)
        return "\(day) \(TimeOfDay(minutes: secs / 60))" + String(decoding: bytes, as: UTF8.self)
    }

    /// The wall-clock reading of an instant as seconds since 1970 (as if local time were UTC).
    private func wallSeconds(_ date: Date) -> Int {
        Int(zone.wall(fromUTC: TimeRange.seconds(date.timeIntervalSince1970)))
    }

    /// The first instant of a local day (midnight, or the first existing time after a gap).
    package func startOfDay(_ day: LocalDate) -> Date {
        instant(day, TimeOfDay(minutes: 0))
    }

    /// The instant a local wall-clock reading names, by the package's one rule for gaps and
    /// overlaps (`UTCOffsets.utc(fromWall:)`): in a spring-forward gap the reading is pushed
    /// forward by the gap (02:30 → 03:30); in a fall-back overlap the earlier one wins.
    package func instant(_ day: LocalDate, _ time: TimeOfDay, second: Int = 0) -> Date {
        let wall = Int64(day.dayNumber) * 86_400 + Int64(time.minutes * 60 + second)
        return Date(timeIntervalSince1970: Double(zone.utc(fromWall: wall)))
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
