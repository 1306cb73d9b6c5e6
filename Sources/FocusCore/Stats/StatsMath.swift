import FoundationEssentials

/// Small number and ordering rules shared by the calculator and the renderers.
package enum StatsMath {
    /// Whole seconds, rounded to nearest (halves away from zero).
    package static func seconds(_ exact: Double) -> Int {
        guard exact.isFinite else { return 0 }
        return Int(exact.rounded(.toNearestOrAwayFromZero))
    }

    /// The part of a session's `focused` seconds that lies in `overlap` of its `wall` seconds:
    /// focus is spread in proportion to wall time, and a session wholly inside keeps it all.
    @inlinable package static func share(_ focused: Double, overlap: Double, wall: Double) -> Double {
        overlap >= wall ? focused : focused * overlap / wall
    }

    /// "Focus inside an interval", the one rule every figure uses (stats' days, tasks and tags,
    /// "today" in `status`, the agenda's sessions across midnight, the daily cap, how much of a
    /// block was worked): the `focused` seconds of a session from `start` to `end` (seconds since
    /// the epoch) that lie inside `[lo, hi)`, spread in proportion to wall time (README, "Stats":
    /// with pauses, the focused seconds are spread in proportion to wall time). Exact: round
    /// once, where the figure is shown, never per session.
    @inlinable package static func focusInside(focused: Double, start: Double, end: Double, lo: Double, hi: Double) -> Double {
        let wall = end - start
        guard wall > 0, focused > 0 else { return 0 }
        let overlap = min(end, hi) - max(start, lo)
        return overlap > 0 ? share(focused, overlap: overlap, wall: wall) : 0
    }

    /// `focusInside` over instants.
    package static func focusInside(focused: Int, start: Date, end: Date, from: Date, to: Date) -> Double {
        focusInside(focused: Double(focused), start: start.timeIntervalSince1970, end: end.timeIntervalSince1970,
                    lo: from.timeIntervalSince1970, hi: to.timeIntervalSince1970)
    }

    /// Parts of a whole as a report shows them, in whole minutes that add up to the whole as
    /// shown (`shownWhole` seconds, itself whole minutes): each part rounded down, then the spare
    /// minutes to the parts with the largest remainders (the earlier part on a tie), as careful
    /// reports round. Parts that do not make up the whole (beyond a second each of rounding), or
    /// a whole under a minute (shown in seconds), are returned as they are.
    package static func shownMinutes(_ parts: [Int], whole: Int, shownWhole: Int? = nil) -> [Int] {
        let sum = parts.reduce(0, +)
        guard whole >= 60, abs(sum - whole) <= parts.count, parts.allSatisfy({ $0 >= 0 }) else { return parts }
        let target = (shownWhole ?? (whole + 30) / 60 * 60) / 60
        var minutes = parts.map { $0 / 60 }
        var spare = target - minutes.reduce(0, +)
        guard spare >= 0, spare <= parts.count else { return parts }
        let order = parts.indices.sorted { a, b in
            parts[a] % 60 != parts[b] % 60 ? parts[a] % 60 > parts[b] % 60 : a < b
        }
        for i in order where spare > 0 {
            minutes[i] += 1
            spare -= 1
        }
        return minutes.map { $0 * 60 }
    }

    /// `part / whole` in percent, rounded to nearest; nil when `whole` is 0.
    package static func percent(_ part: Int, of whole: Int) -> Int? {
        guard whole > 0 else { return nil }
        return Int((Double(part) * 100 / Double(whole)).rounded(.toNearestOrAwayFromZero))
    }

    /// `x` rounded to `decimals` places (for JSON figures such as 1.43 or 12.5).
    package static func rounded(_ x: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(decimals, 0) { scale *= 10 }
        return (x * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// `1.4`: one decimal, written by hand (no formatter, no locale).
    package static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite else { return "0.0" }
        let tenths = Int((abs(x) * 10).rounded(.toNearestOrAwayFromZero))
        let sign = x < 0 && tenths != 0 ? "-" : ""
        return "\(sign)\(tenths / 10).\(tenths % 10)"
    }

    /// Titles in reading order: case-insensitively, then exactly (so the order is total).
    package static func titleOrder(_ a: String, _ b: String) -> Bool {
        let la = a.lowercased()
        let lb = b.lowercased()
        if la != lb { return la < lb }
        return a < b
    }
}
