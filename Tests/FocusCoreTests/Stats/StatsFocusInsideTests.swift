import FocusCoreTestSupport
import FocusTime
import Foundation
import Testing
import FocusCore

/// "Focus inside an interval" has one home, `StatsMath.focusInside`: the stats' days and the
/// other figures built on it agree across midnights, a DST change and sessions of several days.
@Suite struct StatsFocusInsideTests {
    typealias F = StatsFixtures

    /// Random sessions of the week of 16 November 2026 (Berlin), some across midnight, some
    /// over days, some paused (less focus than wall time).
    static func sessions(_ random: inout SeededRandom) -> [SessionEntry] {
        (0..<Int.random(in: 1...12, using: &random)).map { _ in
            let start = F.local(F.berlin, 2026, 11, Int.random(in: 14...22, using: &random),
                                Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
            let wall = [Int.random(in: 60...5400, using: &random), Int.random(in: 3600...200_000, using: &random)][Int.random(in: 0...1, using: &random)]
            let focused = Int.random(in: 0...wall, using: &random)
            return F.session(["A", "B"][Int.random(in: 0...1, using: &random)], from: start,
                             to: start.addingTimeInterval(Double(wall)), focused: focused)
        }
    }

    @Test func eachDayOfTheStatsIsTheFocusInsideThatDay() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            let sessions = Self.sessions(&random)
            let report = F.week(sessions)
            for day in report.days {
                let from = F.berlin.startOfDay(day.date), to = F.berlin.startOfDay(day.date.adding(days: 1))
                let exact = sessions.reduce(0.0) { total, entry in
                    total + StatsMath.focusInside(focused: entry.log.focusedSeconds, start: entry.log.startedAt,
                                                  end: entry.log.endedAt, from: from, to: to)
                }
                #expect(day.focusedSeconds == StatsMath.seconds(exact), "\(day.date): \(sessions.map(\.log))")
            }
        }
    }

    /// Split anywhere, the parts add up to the whole; a session wholly inside keeps all its focus.
    @Test func focusInsideAddsUpOverAnySplit() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<5000 {
            let start = Double(Int.random(in: 0...100_000, using: &random))
            let end = start + Double(Int.random(in: 0...300_000, using: &random))
            let focused = Double(Int.random(in: 0...400_000, using: &random))
            let lo = start - Double(Int.random(in: 0...1000, using: &random)), hi = end + Double(Int.random(in: 0...1000, using: &random))
            let cut = Double(Int.random(in: Int(lo)...Int(hi), using: &random))
            let whole = StatsMath.focusInside(focused: focused, start: start, end: end, lo: lo, hi: hi)
            let parts = StatsMath.focusInside(focused: focused, start: start, end: end, lo: lo, hi: cut)
                + StatsMath.focusInside(focused: focused, start: start, end: end, lo: cut, hi: hi)
            #expect(abs(whole - parts) < 1e-6)
            #expect(end == start || whole == focused)
        }
    }
}
