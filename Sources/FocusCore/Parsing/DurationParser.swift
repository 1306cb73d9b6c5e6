import FocusText
import FoundationEssentials

/// Durations as people type them: `25m`, `1h30m`, `1h 30m`, `90s`, `1.5h`, or a bare number of
/// minutes (`25`). Result in whole seconds, rounded to nearest.
package enum DurationParser {
    /// The longest duration accepted anywhere (a year): larger values are typos.
    package static let maximumSeconds = 366 * 86_400

    package static func seconds(_ text: String, what: String = "duration") throws(FocusError) -> Int {
        let fail = FocusError.invalidValue(what: what, value: text, expected: "a duration like 25m, 1h30m, 90s, 1.5h or a number of minutes")
        let s = text.trimmingSpaces().lowercased()
        guard !s.isEmpty else { throw fail }
        if s.hasPrefix("-") {
            throw .invalidValue(what: what, value: text, expected: "a duration that is not negative, like 25m")
        }
        // A bare number is minutes.
        if let minutes = decimal(Substring(s)) {
            return try checked(minutes * 60, fail)
        }
        var total = 0.0
        var number = ""
        var sawUnit = false
        var lastRank = 4
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c.isASCII, c.isNumber || c == "." {
                number.append(c)
                i = s.index(after: i)
                continue
            }
            if c == " " { i = s.index(after: i); continue }
            // A unit: h, hr, hrs, hour(s); m, min(s), minute(s); s, sec(s), second(s).
            var unit = ""
            while i < s.endIndex, s[i].isLetter { unit.append(s[i]); i = s.index(after: i) }
            guard let value = decimal(Substring(number)) else { throw fail }
            let (factor, rank): (Double, Int)
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": (factor, rank) = (3600, 3)
            case "m", "min", "mins", "minute", "minutes": (factor, rank) = (60, 2)
            case "s", "sec", "secs", "second", "seconds": (factor, rank) = (1, 1)
            default: throw fail
            }
            // Units must come largest first, each once: `30m1h` is a typo.
            guard rank < lastRank else { throw fail }
            lastRank = rank
            total += value * factor
            number = ""
            sawUnit = true
        }
        guard sawUnit, number.isEmpty else { throw fail }
        return try checked(total, fail)
    }

    private static func checked(_ seconds: Double, _ fail: FocusError) throws(FocusError) -> Int {
        guard seconds.isFinite, seconds >= 0, seconds <= Double(maximumSeconds) else { throw fail }
        return Int(seconds.rounded())
    }

    /// A plain non-negative decimal (`25`, `1.5`, `.5`); nil for anything else.
    private static func decimal(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.count <= 12 else { return nil }
        var dots = 0
        var digits = 0
        for c in s {
            if c == "." { dots += 1 } else if c.isASCII, c.isNumber { digits += 1 } else { return nil }
        }
        guard dots <= 1, digits > 0 else { return nil }
        return Double(s)
    }

    /// `1h 30m`, `25m`, `42s`, `0m`: how durations are shown to people.
    package static func format(_ seconds: Int) -> String {
        if seconds < 0 { return "-" + format(-seconds) }
        if seconds < 60 { return seconds == 0 ? "0m" : Digits.text(seconds) + "s" }
        let minutes = (seconds + 30) / 60
        let h = minutes / 60
        let m = minutes % 60
        if h == 0 { return Digits.text(m) + "m" }
        return m == 0 ? Digits.text(h) + "h" : Digits.text(h) + "h " + Digits.text(m) + "m"
    }

    /// `12:34` or `1:02:03`: the countdown's clock face, by hand (cheap on the tick path).
    package static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let h = s / 3600, m = (s / 60) % 60, sec = s % 60
        return h > 0 ? Digits.text(h) + ":" + String(zeroPadded: m, width: 2) + ":" + String(zeroPadded: sec, width: 2) : Digits.text(m) + ":" + String(zeroPadded: sec, width: 2)
    }
}
