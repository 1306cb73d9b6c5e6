/// Hand-written parsers for iCalendar value types, over UTF-8 bytes.
enum ICSValueParser {
    @inline(__always)
    private static func digit(_ b: UInt8) -> Int? {
        b >= 48 && b <= 57 ? Int(b - 48) : nil
    }

    private static func number(_ bytes: ArraySlice<UInt8>, _ from: Int, _ count: Int) -> Int? {
        var n = 0
        var i = from
        let end = from + count
        guard end <= bytes.endIndex else { return nil }
        while i < end {
            guard let d = digit(bytes[i]) else { return nil }
            n = n * 10 + d
            i += 1
        }
        return n
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = bytes.startIndex
        var hi = bytes.endIndex
        while lo < hi, bytes[lo] == 32 || bytes[lo] == 9 { lo += 1 }
        while hi > lo, bytes[hi - 1] == 32 || bytes[hi - 1] == 9 { hi -= 1 }
        return bytes[lo..<hi]
    }

    /// `20261123` (DATE), `20261123T080000Z` (UTC), `20261123T080000` (floating, or zoned when a
    /// TZID is given). A `Z` wins over a TZID. `forceDate` (VALUE=DATE) only matters for
    /// describing intent: an 8-digit value is always a DATE.
    static func parseDateValue(_ raw: ArraySlice<UInt8>, tzid: String?, forceDate: Bool) -> ICSDateValue? {
        let bytes = trimmed(raw)
        let s = bytes.startIndex
        let len = bytes.count
        guard len == 8 || len == 15 || len == 16 else { return nil }
        guard let year = number(bytes, s, 4), let month = number(bytes, s + 4, 2), let day = number(bytes, s + 6, 2) else { return nil }
        guard month >= 1 && month <= 12, day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        if len == 8 {
            return ICSDateValue(form: .date, year: year, month: month, day: day)
        }
        guard bytes[s + 8] == UInt8(ascii: "T") || bytes[s + 8] == UInt8(ascii: "t") else { return nil }
        guard let hour = number(bytes, s + 9, 2), let minute = number(bytes, s + 11, 2), let second = number(bytes, s + 13, 2) else { return nil }
        guard hour <= 23, minute <= 59, second <= 60 else { return nil }
        let form: ICSDateValue.Form
        if len == 16 {
            guard bytes[s + 15] == UInt8(ascii: "Z") || bytes[s + 15] == UInt8(ascii: "z") else { return nil }
            form = .utc
        } else if let tzid, !tzid.isEmpty {
            form = .zoned(tzid)
        } else {
            form = .floating
        }
        return ICSDateValue(form: form, year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
    }

    /// `P1D`, `PT1H30M`, `-PT15M`, `P1W`, `+P1DT2H`.
    static func parseDuration(_ raw: ArraySlice<UInt8>) -> ICSDuration? {
        let bytes = trimmed(raw)
        var i = bytes.startIndex
        let end = bytes.endIndex
        var d = ICSDuration()
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            d.negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < end, bytes[i] == UInt8(ascii: "P") || bytes[i] == UInt8(ascii: "p") else { return nil }
        i += 1
        var inTime = false
        var sawComponent = false
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "T") || b == UInt8(ascii: "t") {
                guard !inTime else { return nil }
                inTime = true
                i += 1
                continue
            }
            var n = 0
            var digits = 0
            while i < end, let v = digit(bytes[i]) {
                if n < 100_000_000 { n = n * 10 + v }
                digits += 1
                i += 1
            }
            guard digits > 0, i < end else { return nil }
            let unit = bytes[i] | 0x20  // lower-case ASCII letter
            i += 1
            switch (unit, inTime) {
            case (UInt8(ascii: "w"), false): d.weeks = n
            case (UInt8(ascii: "d"), false): d.days = n
            case (UInt8(ascii: "h"), true): d.hours = n
            case (UInt8(ascii: "m"), true): d.minutes = n
            case (UInt8(ascii: "s"), true): d.seconds = n
            default: return nil
            }
            sawComponent = true
        }
        return sawComponent ? d : nil
    }

    /// `+0100`, `-0500`, `+053000` → seconds east of UTC.
    static func parseUTCOffset(_ raw: ArraySlice<UInt8>) -> Int? {
        let bytes = trimmed(raw)
        let s = bytes.startIndex
        guard bytes.count == 5 || bytes.count == 7 else { return nil }
        let sign: Int
        switch bytes[s] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let h = number(bytes, s + 1, 2), let m = number(bytes, s + 3, 2), h <= 23, m <= 59 else { return nil }
        var sec = 0
        if bytes.count == 7 {
            guard let v = number(bytes, s + 5, 2), v <= 59 else { return nil }
            sec = v
        }
        return sign * (h * 3600 + m * 60 + sec)
    }

    /// RFC 5545 TEXT: `\n` `\N` → newline, `\,` `\;` `\\` → the character; an unknown escape
    /// keeps the escaped character.
    static func unescapeText(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\\"), i + 1 < bytes.endIndex {
                let next = bytes[i + 1]
                out.append(next == UInt8(ascii: "n") || next == UInt8(ascii: "N") ? 10 : next)
                i += 2
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
