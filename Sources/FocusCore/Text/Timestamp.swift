import FoundationEssentials

/// ISO 8601 instants as the contract writes them: UTC with a `Z`, whole seconds.
/// Formatted by hand: cheap enough for a million rows, and no formatter objects.
package enum Timestamp {
    /// `2026-11-23T08:00:00Z`.
    package static func utc(_ date: Date) -> String {
        format(seconds: Int(TimeRange.seconds(date.timeIntervalSince1970)), offsetSeconds: 0)
    }

    /// `2026-11-20T09:00:00+01:00` in the given zone (for files meant for people, like exports).
    package static func local(_ date: Date, in zone: ZoneRules) -> String {
        local(date, offset: zone.offset(at: date))
    }

    /// `2026-11-20T09:00:00+01:00` in the calendar's zone.
    package static func local(_ date: Date, in calendar: LocalCalendar) -> String {
        local(date, offset: calendar.utcOffset(at: date))
    }

    private static func local(_ date: Date, offset: Int) -> String {
        format(seconds: Int(TimeRange.seconds(date.timeIntervalSince1970)) + offset, offsetSeconds: offset)
    }

    private static func format(seconds local: Int, offsetSeconds: Int) -> String {
        let secs = CivilCalendar.secondOfDay(ofWall: local)
        let date = LocalDate(dayNumber: CivilCalendar.day(ofWall: local))
        var s = date.description
        s += "T"
        s += two(secs / 3600) + ":" + two((secs / 60) % 60) + ":" + two(secs % 60)
        if offsetSeconds == 0 { return s + "Z" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let a = abs(offsetSeconds)
        return s + sign + two(a / 3600) + ":" + two((a / 60) % 60)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
}
