import FoundationEssentials

/// ISO 8601 instants as interchange files write them: `2026-11-20T09:00:00+01:00`,
/// `2026-11-20T08:00:00Z`, `2026-11-20T08:00:00.250Z` (fractions dropped), `+0100` and `+01`
/// offsets, a space instead of the `T`, seconds optional. A reading without an offset names no
/// instant and is reported as such. Bytes are read by hand: no formatter objects.
package enum InstantParser {
    package enum Result: Equatable, Sendable {
        /// Whole seconds since 1970-01-01T00:00:00Z (rounded down).
        case instant(Int64)
        /// A well-formed local date-time with no `Z` or offset.
        case missingOffset
        case malformed
    }

    package static func parse(_ text: String) -> Result {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    package static func parse(bytes raw: UnsafeBufferPointer<UInt8>) -> Result {
        // Trim surrounding spaces.
        var lo = 0
        var hi = raw.count
        while lo < hi, raw[lo] == 0x20 { lo += 1 }
        while hi > lo, raw[hi - 1] == 0x20 { hi -= 1 }
        let n = hi - lo
        guard n >= 16 else { return .malformed }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let b = raw[lo + i]
            return b >= 0x30 && b <= 0x39 ? Int(b - 0x30) : nil
        }
        @inline(__always) func number(_ i: Int, _ count: Int) -> Int? {
            var v = 0
            for k in 0..<count {
                guard let d = digit(i + k) else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard let year = number(0, 4), raw[lo + 4] == 0x2D, let month = number(5, 2), raw[lo + 7] == 0x2D,
              let day = number(8, 2), (1...12).contains(month), year >= 1,
              day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month)
        else { return .malformed }
        let sep = raw[lo + 10]
        guard sep == 0x54 || sep == 0x74 || sep == 0x20 else { return .malformed }  // T, t, space
        guard let hour = number(11, 2), raw[lo + 13] == 0x3A, let minute = number(14, 2), hour < 24, minute < 60 else { return .malformed }
        var i = 16
        var second = 0
        if i < n, raw[lo + i] == 0x3A {
            guard i + 3 <= n, let s = number(i + 1, 2), s < 60 else { return .malformed }
            second = s
            i += 3
            if i < n, raw[lo + i] == 0x2E || raw[lo + i] == 0x2C {  // fraction: . or ,
                i += 1
                let digitsStart = i
                while i < n, digit(i) != nil { i += 1 }
                guard i > digitsStart else { return .malformed }
            }
        }
        if i == n { return .missingOffset }
        var offset = 0
        let c = raw[lo + i]
        if c == 0x5A || c == 0x7A {  // Z, z
            guard i + 1 == n else { return .malformed }
        } else if c == 0x2B || c == 0x2D {  // +, -
            let sign = c == 0x2D ? -1 : 1
            i += 1
            guard i + 2 <= n, let oh = number(i, 2) else { return .malformed }
            i += 2
            var om = 0
            if i < n {
                if raw[lo + i] == 0x3A { i += 1 }
                guard i + 2 == n, let m = number(i, 2) else { return .malformed }
                om = m
            }
            guard oh <= 18, om < 60 else { return .malformed }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return .malformed
        }
        let days = LocalDate(year: year, month: month, day: day).dayNumber
        return .instant(Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset))
    }
}
