import Foundation
import Synchronization

/// Conversions between instants and the person's local days and times of day, in one zone.
/// Days are calendar days: 23 or 25 hours long across DST changes.
package struct LocalCalendar: Sendable {
    package let timeZone: TimeZone
    private let calendar: Calendar
    private let offsets = OffsetCache()

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var c = Calendar(identifier: .gregorian)
        c.timeZone = timeZone
        c.firstWeekday = 2
        self.calendar = c
    }

    /// The local day an instant falls on.
    package func day(of date: Date) -> LocalDate {
        let offset = offsets.offset(at: date, in: timeZone)
        let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        return LocalDate(dayNumber: Int((Double(local) / 86_400).rounded(.down)))
    }

    /// Minutes after local midnight for an instant (wall-clock reading).
    package func timeOfDay(of date: Date) -> TimeOfDay {
        let offset = offsets.offset(at: date, in: timeZone)
        let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let secondsIntoDay = ((local % 86_400) + 86_400) % 86_400
        return TimeOfDay(minutes: secondsIntoDay / 60)
    }

    /// `2026-11-22 09:00:05`: a local wall-clock reading, formatted by hand.
    package func wallClockText(_ date: Date) -> String {
        let offset = offsets.offset(at: date, in: timeZone)
        let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let secs = ((local % 86_400) + 86_400) % 86_400
        let s = secs % 60
        return "\(day(of: date)) \(timeOfDay(of: date)):\(s < 10 ? "0" : "")\(s)"
    }

    /// The first instant of a local day (midnight, or the first existing time after a gap).
    package func startOfDay(_ day: LocalDate) -> Date {
        instant(day, TimeOfDay(minutes: 0))
    }

    /// The instant a local wall-clock reading names. In a spring-forward gap the reading is
    /// pushed forward by the gap (02:30 → 03:30); in a fall-back overlap the earlier one wins.
    package func instant(_ day: LocalDate, _ time: TimeOfDay, second: Int = 0) -> Date {
        var comps = DateComponents()
        comps.year = day.year
        comps.month = day.month
        comps.day = day.day
        comps.hour = time.hour
        comps.minute = time.minute
        comps.second = second
        if let date = calendar.date(from: comps) { return date }
        // Fallback by arithmetic on the zone offset (never expected with a gregorian calendar).
        let naive = Double(day.dayNumber * 86_400 + time.minutes * 60 + second)
        let guess = Date(timeIntervalSince1970: naive)
        return Date(timeIntervalSince1970: naive - Double(timeZone.secondsFromGMT(for: guess)))
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

/// UTC offsets by quarter hour: zone transitions fall on quarter hours in modern tz data, and
/// asking Foundation (ICU) costs microseconds per call, which adds up over thousands of rows.
private final class OffsetCache: Sendable {
    private let table = Mutex<[Int: Int]>([:])

    func offset(at date: Date, in zone: TimeZone) -> Int {
        let bucket = Int((date.timeIntervalSince1970 / 900).rounded(.down))
        if let hit = table.withLock({ $0[bucket] }) { return hit }
        let value = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(bucket) * 900))
        table.withLock { t in
            if t.count > 50_000 { t.removeAll(keepingCapacity: true) }
            t[bucket] = value
        }
        return value
    }
}

package enum WallClockAmbiguity: Equatable, Sendable {
    case none
    /// The time falls in a spring-forward gap; it is taken as the instant given.
    case skipped(resolvedTo: Date)
    /// The time occurs twice; the first occurrence is used.
    case repeated(firstOf: Date)
}
