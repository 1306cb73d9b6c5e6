import FocusCore
import Foundation
import Testing

/// Dates read from outside (a server's header, a calendar, a file, a typed phrase) are bounded
/// before any arithmetic: nothing traps, however far past year 9999 (issue #39: a `Retry-After`
/// in year 999999999999 crashed sync and the daemon).
@Suite struct DateReaderFuzzTests {
    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    let now = Date(timeIntervalSince1970: 1_795_338_000)

    @Test func aRetryAfterOutsideTheYears1To9999IsNoRetryAfter() {
        #expect(SendWindow.retryAfter("Sun, 06 Nov 999999999999 08:49:37 GMT", now: now) == nil)
        #expect(SendWindow.retryAfter("Sun, 06 Nov 10000 08:49:37 GMT", now: now) == nil)
        #expect(SendWindow.retryAfter("Sun, 06 Nov 0 08:49:37 GMT", now: now) == nil)
        #expect(SendWindow.retryAfter("Mon, 31 Feb 2026 08:49:37 GMT", now: now) == nil)
        #expect(SendWindow.retryAfter("Sun, 22 Nov 2026 09:01:40 GMT", now: now) == 100)
        #expect(SendWindow.retryAfter("120", now: now) == 120)
    }

    /// Random years and numbers of every size, through every reader of dates from outside.
    @Test func dateReadersNeverTrapOnYearsPast9999() throws {
        var random = Seeded(state: 39)
        let today = LocalDate(year: 2026, month: 11, day: 22)
        func number() -> String {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: String(Int.random(in: 0...99_999, using: &random))
            case 1: String(Int.random(in: 0...Int.max, using: &random))
            case 2: String(UInt64.random(in: 0...UInt64.max, using: &random)) + String(Int.random(in: 0...999, using: &random))
            default: "-" + String(Int.random(in: 0...Int.max, using: &random))
            }
        }
        for _ in 0..<3000 {
            let year = number(), count = number()
            _ = SendWindow.retryAfter("Sun, 06 Nov \(year) 08:49:37 GMT", now: now)
            _ = SendWindow.retryAfter(count, now: now)
            _ = InstantParser.parse("\(year)-11-06T08:49:37+01:00")
            _ = DateParser.parseDate(Substring("\(year)-11-06"))
            for phrase in ["in \(count) days", "in \(count) weeks", "\(year)-12-31 17:00", "\(count)"] {
                _ = try? DateParser.date(phrase, today: today)
                if case let .some(input) = try? DateParser.dateTime(phrase, today: today) {
                    _ = DateParser.resolve(input, in: LocalCalendar(zone: .utc))
                }
            }
            let y = Int(year) ?? Int.random(in: Int.min...Int.max, using: &random)
            _ = CivilCalendar.wall(year: y, month: 12, day: 31, hour: 23, minute: 59, second: 59)
            _ = CivilCalendar.date(fromDayNumber: Int.random(in: Int.min...Int.max, using: &random))
            let ics = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x@other\r\nSUMMARY:x\r\nDUE:\(year)1231T235959Z\r\nDTSTART;VALUE=DATE:\(year)1231\r\n"
                + "X-FOCUS-ESTIMATE:P\(count)W\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            _ = try? SyncCodec.decode(Data(ics.utf8), zone: LocalCalendar(zone: .utc))
        }
    }
}
