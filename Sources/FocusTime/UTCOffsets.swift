/// A zone's offsets from UTC: a zone database entry (`ZoneRules`), a calendar file's own
/// VTIMEZONE, or a fixed offset. Instants and wall-clock readings are whole seconds since
/// 1970-01-01T00:00 (of UTC, or of the wall clock read as if it were UTC).
package protocol UTCOffsets {
    /// Seconds east of UTC in force at instant `t`.
    func offset(atUTC t: Int64) -> Int
}

extension UTCOffsets {
    /// The wall-clock reading at instant `t`.
    package func wall(fromUTC t: Int64) -> Int64 {
        let t = TimeRange.clamped(t)
        return t + Int64(offset(atUTC: t))
    }

    /// The instant a wall-clock reading names: the one rule of the whole package for readings
    /// a change of offset skips or repeats (RFC 5545 §3.3.5 reads them the same way). A reading
    /// in a spring-forward gap is read with the offset in force before the gap, so it lands
    /// after the gap by the gap's length (02:30 → 03:30 new time); a reading a fall-back repeats
    /// is the first (earlier) of the two instants.
    package func utc(fromWall wall: Int64) -> Int64 {
        let w = TimeRange.clamped(wall)
        let guess = w - Int64(offset(atUTC: w))
        let before = Int64(offset(atUTC: guess - 86_400))
        let after = Int64(offset(atUTC: guess + 86_400))
        if before == after { return w - before }
        let early = w - before
        if Int64(offset(atUTC: early)) == before { return early }
        let late = w - after
        if Int64(offset(atUTC: late)) == after { return late }
        return early
    }
}

/// The span of instants time arithmetic accepts: about ±31 million years around 1970, far
/// beyond any date a person or a calendar means, and far enough inside `Int64` that adding days,
/// offsets and durations never overflows. Values read from files and databases are clamped to it.
package enum TimeRange {
    package static let limit: Int64 = 1_000_000_000_000_000

    @inline(__always)
    package static func clamped(_ t: Int64) -> Int64 { min(max(t, -limit), limit) }

    /// Whole seconds since 1970 of a `Double` count of seconds (rounded down), clamped; NaN is 0.
    @inline(__always)
    package static func seconds(_ interval: Double) -> Int64 {
        guard interval.isFinite else { return interval.isNaN ? 0 : (interval > 0 ? limit : -limit) }
        if interval >= Double(limit) { return limit }
        if interval <= -Double(limit) { return -limit }
        return Int64(interval.rounded(.down))
    }
}
