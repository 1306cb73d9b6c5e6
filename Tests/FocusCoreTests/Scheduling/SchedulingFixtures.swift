import Foundation
import FocusCore

/// Time zones, dates and a seeded generator for the scheduler tests (namespaced so they cannot
/// clash with other helpers in the test target).
enum SchedulerFixtures {
    static let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    static let newYork = LocalCalendar(zone: ZoneRules.named("America/New_York")!)
    static let rules = SchedulingRules(calendar: berlin)

    /// `2026-11-23 08:00` (or `2026-11-23 08:00:30`) read as a local time in `calendar`.
    static func local(_ text: String, _ calendar: LocalCalendar = berlin) -> Date {
        let parts = text.split(separator: " ")
        let date = parts[0].split(separator: "-").map { Int($0)! }
        let time = parts[1].split(separator: ":").map { Int($0)! }
        return calendar.instant(
            LocalDate(year: date[0], month: date[1], day: date[2]),
            TimeOfDay(hour: time[0], minute: time[1]),
            second: time.count > 2 ? time[2] : 0
        )
    }

    /// `2026-10-25T07:00:00Z`.
    static func utc(_ text: String) -> Date {
        let digits = text.filter(\.isNumber).map { Int(String($0))! }
        func number(_ from: Int, _ count: Int) -> Int { digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
        let day = LocalDate(year: number(0, 4), month: number(4, 2), day: number(6, 2))
        let seconds = day.dayNumber * 86_400 + number(8, 2) * 3600 + number(10, 2) * 60 + number(12, 2)
        return Date(timeIntervalSince1970: Double(seconds))
    }
}

/// Shorthands for scheduler test suites (Berlin unless told).
protocol SchedulerTestHelpers {}

extension SchedulerTestHelpers {
    var berlin: LocalCalendar { SchedulerFixtures.berlin }
    var newYork: LocalCalendar { SchedulerFixtures.newYork }
    var defaultRules: SchedulingRules { SchedulerFixtures.rules }

    func local(_ text: String, _ calendar: LocalCalendar = SchedulerFixtures.berlin) -> Date {
        SchedulerFixtures.local(text, calendar)
    }

    func utc(_ text: String) -> Date { SchedulerFixtures.utc(text) }

    /// A block between two local times.
    func block(_ id: Int64, _ from: String, _ to: String, _ calendar: LocalCalendar = SchedulerFixtures.berlin) -> PlannedBlock {
        PlannedBlock(itemID: id, start: local(from, calendar), end: local(to, calendar))
    }

    /// A busy interval between two local times.
    func busy(_ from: String, _ to: String, _ calendar: LocalCalendar = SchedulerFixtures.berlin) -> DateInterval {
        DateInterval(start: local(from, calendar), end: local(to, calendar))
    }

    func minutes(_ count: Int) -> Int { count * 60 }
}
