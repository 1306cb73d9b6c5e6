#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif
import Synchronization

/// The UTC offsets of one time zone, read from the system's zone database (TZif files, RFC 8536,
/// under `/usr/share/zoneinfo` or `$TZDIR`) including the POSIX TZ rule that continues them
/// past the last listed transition. Answers "offset at this instant" with a binary search.
///
/// focus reads the files itself rather than through Foundation's `TimeZone`: that goes
/// through ICU, whose code and data cost every command about 5 MB of memory and a millisecond
/// or two of start-up, for offsets a 2 KB file gives exactly.
package final class ZoneRules: UTCOffsets, Sendable, Equatable, CustomStringConvertible {
    /// The IANA name (`Europe/Berlin`), or the POSIX string a `TZ` value gave (`CET-1CEST,...`).
    package let identifier: String
    /// Transition instants (UTC seconds), ascending, and the offset in force from each one.
    private let transitions: [Int64]
    private let offsets: [Int32]
    /// The offset before the first transition.
    private let initialOffset: Int
    /// The rule after the last transition (nil: the last offset holds for ever).
    private let rule: PosixZoneRule?

    package var description: String { identifier }

    /// Zones are told apart by name (one name, one set of rules in a process).
    package static func == (a: ZoneRules, b: ZoneRules) -> Bool {
        a === b || (a.identifier == b.identifier && a.initialOffset == b.initialOffset && a.transitions == b.transitions)
    }

    fileprivate init(identifier: String, transitions: [Int64], offsets: [Int32], initialOffset: Int, rule: PosixZoneRule?) {
        self.identifier = identifier
        self.initialOffset = initialOffset
        self.rule = rule
        // The rule's transitions written out to 2100 (a few hundred at most), so every lookup
        // a person's history can need is one binary search.
        var times = transitions
        var values = offsets
        if let rule, let daylight = rule.daylightOffset {
            let startYear = max(1970, transitions.last.map { CivilCalendar.date(fromDayNumber: CivilCalendar.day(ofWall: Int(TimeRange.clamped($0)))).year } ?? 1970)
            for (at, isDaylight) in rule.transitions(years: startYear...2100) where at > (times.last ?? .min) {
                times.append(at)
                values.append(Int32(isDaylight ? daylight : rule.standardOffset))
            }
        }
        self.transitions = times
        self.offsets = values
    }

    /// UTC, offset 0 always.
    package static let utc = ZoneRules(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    /// A zone a fixed number of seconds east of UTC.
    package static func fixed(secondsEast: Int, identifier: String) -> ZoneRules {
        ZoneRules(identifier: identifier, transitions: [], offsets: [], initialOffset: secondsEast, rule: nil)
    }

    /// Seconds east of UTC in force at `t` (seconds since 1970, UTC).
    package func offset(atUTC t: Int64) -> Int {
        let t = TimeRange.clamped(t)
        if let last = transitions.last, t >= last, let rule { return rule.offset(atUTC: t) }
        if transitions.isEmpty { return rule?.offset(atUTC: t) ?? initialOffset }
        // The last transition at or before t.
        var low = 0
        var high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? initialOffset : Int(offsets[low - 1])
    }

    package func offset(at date: Date) -> Int {
        offset(atUTC: TimeRange.seconds(date.timeIntervalSince1970))
    }

    // MARK: - Finding zones (see `ZoneDatabase`)

    /// The zone an IANA name (`Europe/Berlin`, `UTC`) names in the zone database `environment`
    /// picks (`$TZDIR`), or nil.
    package static func named(_ name: String, environment: [String: String] = [:]) -> ZoneRules? {
        ZoneDatabase(environment: environment).zone(named: name)
    }

    /// The zone a `TZ` value names (`ZoneDatabase.zone(tz:)`), or nil.
    package static func fromTZ(_ value: String, environment: [String: String] = [:]) -> ZoneRules? {
        ZoneDatabase(environment: environment).zone(tz: value)
    }

    /// The system's zone (`ZoneDatabase.system`).
    package static func system(environment: [String: String] = [:]) -> ZoneRules {
        ZoneDatabase(environment: environment).system
    }

    /// A zone that follows a POSIX TZ rule alone (`CET-1CEST,M3.5.0,M10.5.0/3`).
    package static func posix(_ rule: PosixZoneRule, identifier: String) -> ZoneRules {
        ZoneRules(identifier: identifier, transitions: [], offsets: [], initialOffset: rule.standardOffset, rule: rule)
    }

    // MARK: - TZif

    /// Reads a TZif file (RFC 8536): the 64-bit data of version 2 and later (the 32-bit data of
    /// a version 1 file) and the footer's POSIX rule. nil when the bytes are not such a file.
    package static func parse(_ data: Data, identifier: String) -> ZoneRules? {
        let bytes = [UInt8](data)
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        if first.version >= 2 {
            // Skip the version 1 block, read the 64-bit one that follows.
            guard reader.skip(first.v1BlockSize), let second = reader.header() else { return nil }
            return reader.block(second, timeSize: 8, identifier: identifier)
        }
        return reader.block(first, timeSize: 4, identifier: identifier)
    }
}

private struct TZifHeader {
    var version: Int
    var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

    var v1BlockSize: Int { timecnt * 5 + typecnt * 6 + charcnt + leapcnt * 8 + isstdcnt + isutcnt }
}

private struct TZifReader {
    let bytes: [UInt8]
    var at = 0

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, at + n <= bytes.count else { return false }
        at += n
        return true
    }

    mutating func u32() -> UInt32? {
        guard at + 4 <= bytes.count else { return nil }
        defer { at += 4 }
        return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    mutating func i64() -> Int64? {
        guard let hi = u32(), let lo = u32() else { return nil }
        return Int64(bitPattern: UInt64(hi) << 32 | UInt64(lo))
    }

    mutating func header() -> TZifHeader? {
        guard at + 44 <= bytes.count, bytes[at] == 0x54, bytes[at + 1] == 0x5A, bytes[at + 2] == 0x69, bytes[at + 3] == 0x66 else {
            return nil
        }
        let versionByte = bytes[at + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
        guard version >= 1, version <= 9 else { return nil }
        at += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let n = u32(), n < 1_000_000 else { return nil }
            counts.append(Int(n))
        }
        let h = TZifHeader(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
                           timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
        guard h.typecnt >= 1 else { return nil }
        return h
    }

    mutating func block(_ h: TZifHeader, timeSize: Int, identifier: String) -> ZoneRules? {
        var times: [Int64] = []
        times.reserveCapacity(h.timecnt)
        for _ in 0..<h.timecnt {
            if timeSize == 8 {
                guard let t = i64() else { return nil }
                times.append(t)
            } else {
                guard let t = u32() else { return nil }
                times.append(Int64(Int32(bitPattern: t)))
            }
        }
        guard at + h.timecnt <= bytes.count else { return nil }
        let indices = Array(bytes[at..<(at + h.timecnt)])
        at += h.timecnt
        var typeOffsets: [Int32] = []
        for _ in 0..<h.typecnt {
            guard let off = u32(), at + 2 <= bytes.count else { return nil }
            at += 2  // isdst, desigidx
            typeOffsets.append(Int32(bitPattern: off))
        }
        guard indices.allSatisfy({ Int($0) < h.typecnt }) else { return nil }
        // Designations, leap seconds, standard/wall and UT/local indicators: not needed.
        guard skip(h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt) else { return nil }
        var rule: PosixZoneRule?
        if h.version >= 2, at < bytes.count, bytes[at] == 0x0A,
           let end = bytes[(at + 1)...].firstIndex(of: 0x0A), end > at + 1 {
            rule = PosixZoneRule(String(decoding: bytes[(at + 1)..<end], as: UTF8.self))
        }
        // Before the first transition: the first type that is not daylight time would be
        // RFC 8536's choice; type 0 is what every zic-built file puts there.
        let initial = Int(typeOffsets[0])
        let offsets = indices.map { typeOffsets[Int($0)] }
        return ZoneRules(identifier: identifier, transitions: times, offsets: offsets, initialOffset: initial, rule: rule)
    }
}

/// A POSIX TZ rule (`EST5EDT,M3.2.0,M11.1.0`, `<+0330>-3:30`, `IST-2IDT,M3.4.4/26,M10.5.0`),
/// with RFC 8536's extensions (hours up to ±167 in transition times).
package struct PosixZoneRule: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west, with the opposite sign).
    package let standardOffset: Int
    package let daylightOffset: Int?
    private let start: DateRule?
    private let end: DateRule?
    /// Transition times, seconds after local midnight (standard time for the start, daylight
    /// time for the end).
    private let startTime: Int
    private let endTime: Int

    private enum DateRule: Equatable {
        /// Jn: day 1...365, February 29 never counted.
        case julianNoLeap(Int)
        /// n: day 0...365, February 29 counted.
        case zeroBased(Int)
        /// Mm.w.d: day d (0 = Sunday) of week w (5 = the last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    package init?(_ text: String) {
        var s = Scanner(Array(text.utf8))
        guard s.name(), let std = s.offset() else { return nil }
        standardOffset = -std
        if s.atEnd {
            daylightOffset = nil
            start = nil; end = nil; startTime = 0; endTime = 0
            return
        }
        guard s.name() else { return nil }
        var dst = -(std - 3600)
        if !s.atEnd, s.peek != UInt8(ascii: ",") {
            guard let o = s.offset() else { return nil }
            dst = -o
        }
        daylightOffset = dst
        // A daylight name with no rule: POSIX leaves it to the implementation; the US rule is
        // the traditional default.
        guard s.eat(UInt8(ascii: ",")) else {
            guard s.atEnd else { return nil }
            start = .monthWeekDay(month: 3, week: 2, weekday: 0)
            end = .monthWeekDay(month: 11, week: 1, weekday: 0)
            startTime = 7200; endTime = 7200
            return
        }
        guard let a = PosixZoneRule.dateRule(&s) else { return nil }
        var aTime = 7200
        if s.eat(UInt8(ascii: "/")) { guard let t = s.time(maxHours: 167) else { return nil }; aTime = t }
        guard s.eat(UInt8(ascii: ",")), let b = PosixZoneRule.dateRule(&s) else { return nil }
        var bTime = 7200
        if s.eat(UInt8(ascii: "/")) { guard let t = s.time(maxHours: 167) else { return nil }; bTime = t }
        guard s.atEnd else { return nil }
        start = a; end = b; startTime = aTime; endTime = bTime
    }

    private static func dateRule(_ s: inout Scanner) -> DateRule? {
        if s.eat(UInt8(ascii: "M")) {
            guard let m = s.number(), (1...12).contains(m), s.eat(UInt8(ascii: ".")),
                  let w = s.number(), (1...5).contains(w), s.eat(UInt8(ascii: ".")),
                  let d = s.number(), (0...6).contains(d) else { return nil }
            return .monthWeekDay(month: m, week: w, weekday: d)
        }
        if s.eat(UInt8(ascii: "J")) {
            guard let n = s.number(), (1...365).contains(n) else { return nil }
            return .julianNoLeap(n)
        }
        guard let n = s.number(), (0...365).contains(n) else { return nil }
        return .zeroBased(n)
    }

    /// The rule's changes in the given years, in order: (instant, whether daylight time begins).
    func transitions(years: ClosedRange<Int>) -> [(Int64, Bool)] {
        guard let daylightOffset, let start, let end else { return [] }
        var result: [(Int64, Bool)] = []
        for y in years {
            let on = Int64(PosixZoneRule.day(start, year: y) * 86_400 + startTime - standardOffset)
            let off = Int64(PosixZoneRule.day(end, year: y) * 86_400 + endTime - daylightOffset)
            result += on < off ? [(on, true), (off, false)] : [(off, false), (on, true)]
        }
        return result
    }

    /// Seconds east of UTC at `t`: the offset of the last change at or before it, among the
    /// changes of its year and the years either side (near New Year they cross over).
    package func offset(atUTC t: Int64) -> Int {
        guard let daylightOffset else { return standardOffset }
        let t = TimeRange.clamped(t)
        let year = CivilCalendar.date(fromDayNumber: CivilCalendar.day(ofWall: Int(t) + standardOffset)).year
        var offset = standardOffset
        for (at, daylight) in transitions(years: (year - 1)...(year + 1)) where at <= t {
            offset = daylight ? daylightOffset : standardOffset
        }
        return offset
    }

    /// The day number (days since 1970-01-01) a date rule picks in `year`.
    private static func day(_ rule: DateRule, year: Int) -> Int {
        let jan1 = LocalDate(year: year, month: 1, day: 1).dayNumber
        switch rule {
        case .julianNoLeap(let n):
            return jan1 + n - 1 + (CivilCalendar.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            return jan1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = LocalDate(year: year, month: month, day: 1).dayNumber
            let firstWeekday = CivilCalendar.weekday(ofDay: first)
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let nextMonth = month == 12 ? LocalDate(year: year + 1, month: 1, day: 1).dayNumber
                : LocalDate(year: year, month: month + 1, day: 1).dayNumber
            while day >= nextMonth { day -= 7 }
            return day
        }
    }
}

/// Reads POSIX TZ strings byte by byte.
private struct Scanner {
    let bytes: [UInt8]
    var at = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[at] }

    mutating func eat(_ c: UInt8) -> Bool {
        guard peek == c else { return false }
        at += 1
        return true
    }

    /// `EST` (three or more letters) or `<+0330>` (quoted).
    mutating func name() -> Bool {
        if eat(UInt8(ascii: "<")) {
            let begin = at
            while let c = peek, c != UInt8(ascii: ">") { at += 1; _ = c }
            guard at - begin >= 3, eat(UInt8(ascii: ">")) else { return false }
            return true
        }
        let begin = at
        while let c = peek, (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) { at += 1 }
        return at - begin >= 3
    }

    mutating func number() -> Int? {
        let begin = at
        var n = 0
        while let c = peek, c >= 0x30, c <= 0x39, at - begin < 4 { n = n * 10 + Int(c - 0x30); at += 1 }
        return at > begin ? n : nil
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    mutating func time(maxHours: Int) -> Int? {
        var sign = 1
        if eat(UInt8(ascii: "-")) { sign = -1 } else { _ = eat(UInt8(ascii: "+")) }
        guard let h = number(), h <= maxHours else { return nil }
        var total = h * 3600
        if eat(UInt8(ascii: ":")) {
            guard let m = number(), m < 60 else { return nil }
            total += m * 60
            if eat(UInt8(ascii: ":")) {
                guard let sec = number(), sec < 60 else { return nil }
                total += sec
            }
        }
        return sign * total
    }

    /// A UTC offset as POSIX writes it (hours west), in seconds.
    mutating func offset() -> Int? { time(maxHours: 24) }
}
