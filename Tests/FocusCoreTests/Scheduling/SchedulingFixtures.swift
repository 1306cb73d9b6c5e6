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

    /// A tiny seeded generator (SplitMix64), so every random instance can be rebuilt from its seed.
    struct SplitMix64 {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// Uniform in `range` (the tiny modulo bias does not matter here).
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            let width = UInt64(range.upperBound - range.lowerBound + 1)
            return range.lowerBound + Int(next() % width)
        }

        mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

        mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

        mutating func shuffled<T>(_ values: [T]) -> [T] {
            var result = values
            if result.count < 2 { return result }
            for index in stride(from: result.count - 1, to: 0, by: -1) {
                result.swapAt(index, int(0...index))
            }
            return result
        }
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
