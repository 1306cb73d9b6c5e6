/// The UTC offsets of one time zone as a calendar file names it: from the zone database
/// (`ZoneRules`, for IANA and Windows names), from a VTIMEZONE in the file, or fixed. Wall-clock
/// readings become instants by the package's one rule (`UTCOffsets.utc(fromWall:)`). Not
/// thread-safe (a VTIMEZONE caches its years); one is made per expansion call.
final class ZoneOffsets: UTCOffsets {
    private enum Source {
        case database(ZoneRules)
        case fixed(Int)
        case defined(DefinedZone)
    }

    private let source: Source

    init(zone: ZoneRules) { source = .database(zone) }
    init(fixedOffset: Int) { source = .fixed(fixedOffset) }
    init(definition: ICSTimeZone) { source = .defined(DefinedZone(definition)) }

    /// Seconds east of UTC in force at instant `t` (seconds since 1970, UTC).
    func offset(atUTC t: Int64) -> Int {
        switch source {
        case .fixed(let offset): return offset
        case .database(let zone): return zone.offset(atUTC: t)
        case .defined(let zone): return zone.offset(atUTC: Int(TimeRange.clamped(t)))
        }
    }

    /// The wall-clock reading (wall seconds) at instant `t`.
    func wall(fromUTC t: Int) -> Int { Int(wall(fromUTC: Int64(t))) }

    /// The instant a wall-clock reading names (RFC 5545 §3.3.5, by `UTCOffsets.utc(fromWall:)`).
    func utc(fromWall w: Int) -> Int {
        if case .fixed(let offset) = source { return w - offset }
        return Int(utc(fromWall: Int64(w)))
    }
}

/// Offsets computed from a VTIMEZONE's STANDARD/DAYLIGHT observances, year by year on demand.
private final class DefinedZone {
    private struct Onset {
        var at: Int       // UTC seconds
        var offset: Int   // offset in force from then on
    }

    private struct Year {
        var initialOffset: Int
        var onsets: [Onset]
    }

    private let observances: [ICSTimeZoneObservance]
    private let firstYear: Int
    private let offsetBeforeAll: Int
    private var years: [Int: Year] = [:]
    private var cachedYearNumber = Int.min
    private var cachedYear = Year(initialOffset: 0, onsets: [])

    init(_ definition: ICSTimeZone) {
        observances = definition.observances
        var earliest: (at: Int, from: Int)?
        for o in observances {
            let at = o.start.wallSeconds - o.offsetFrom
            if let e = earliest, e.at <= at { continue }
            earliest = (at, o.offsetFrom)
        }
        firstYear = (observances.map(\.start.year).min() ?? 0) - 1
        offsetBeforeAll = earliest?.from ?? 0
    }

    func offset(atUTC t: Int) -> Int {
        guard !observances.isEmpty else { return 0 }
        let yearNumber = CivilCalendar.date(fromDayNumber: CivilCalendar.day(ofWall: t)).year
        let year = self.year(yearNumber)
        var offset = year.initialOffset
        for onset in year.onsets {
            if onset.at > t { break }
            offset = onset.offset
        }
        return offset
    }

    private func year(_ number: Int) -> Year {
        if number == cachedYearNumber { return cachedYear }
        if number < firstYear { return Year(initialOffset: offsetBeforeAll, onsets: []) }
        if let known = years[number] {
            cachedYearNumber = number
            cachedYear = known
            return known
        }
        let result = Year(initialOffset: offsetAtStart(of: number), onsets: onsets(in: number))
        if years.count < 1024 { years[number] = result }
        cachedYearNumber = number
        cachedYear = result
        return result
    }

    /// The offset in force when `year` begins: the last onset of the few years before, else the
    /// observance that most recently began (a one-time change), else the offset before them all.
    private func offsetAtStart(of year: Int) -> Int {
        var y = year - 1
        while y >= max(firstYear, year - 4) {
            if let last = (years[y]?.onsets ?? onsets(in: y)).last { return last.offset }
            y -= 1
        }
        let yearStart = CivilCalendar.wall(year: year, month: 1, day: 1)
        var latest: (at: Int, offset: Int)?
        for o in observances {
            let at = o.start.wallSeconds - o.offsetFrom
            guard at < yearStart else { continue }
            if let l = latest, l.at >= at { continue }
            latest = (at, o.offsetTo)
        }
        return latest?.offset ?? offsetBeforeAll
    }

    /// Onsets whose UTC instant falls in `year`, ascending.
    private func onsets(in year: Int) -> [Onset] {
        let lo = CivilCalendar.wall(year: year, month: 1, day: 1)
        let hi = CivilCalendar.wall(year: year + 1, month: 1, day: 1)
        var result: [Onset] = []
        var walls: [Int] = []
        for o in observances {
            walls.removeAll(keepingCapacity: true)
            let startWall = o.start.wallSeconds
            if let rule = o.rrule {
                let until: Int? = rule.until.map { u in
                    switch u.form {
                    case .utc: return u.wallSeconds + o.offsetFrom
                    case .date: return u.wallSeconds + CivilCalendar.secondsPerDay - 1
                    default: return u.wallSeconds
                    }
                }
                let expander = RecurrenceExpander(rule: rule, start: startWall, dateOnly: false, until: until)
                var budget = 10_000
                expander.expand(
                    lower: lo - 2 * CivilCalendar.secondsPerDay, upper: hi + 2 * CivilCalendar.secondsPerDay,
                    budget: &budget, into: &walls)
            } else {
                walls.append(startWall)
            }
            for r in o.rdates {
                walls.append(r.form == .utc ? r.wallSeconds + o.offsetFrom : r.wallSeconds)
            }
            for w in walls {
                let at = w - o.offsetFrom
                if at >= lo && at < hi { result.append(Onset(at: at, offset: o.offsetTo)) }
            }
        }
        result.sort { $0.at < $1.at }
        return result
    }
}
