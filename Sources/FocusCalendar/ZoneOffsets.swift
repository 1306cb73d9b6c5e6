import Foundation

/// The UTC offsets of one time zone: from the system's zone database, from a VTIMEZONE in
/// the file, or fixed. Answers "offset at this instant" and "instant of this wall-clock
/// reading". Not thread-safe (it caches); one is made per expansion call.
final class ZoneOffsets {
    private enum Source {
        case system(SystemZone)
        case fixed(Int)
        case defined(DefinedZone)
    }

    private let source: Source

    init(timeZone: TimeZone) { source = .system(SystemZone(timeZone)) }
    init(fixedOffset: Int) { source = .fixed(fixedOffset) }
    init(definition: ICSTimeZone) { source = .defined(DefinedZone(definition)) }

    /// Seconds east of UTC in force at instant `t` (seconds since 1970, UTC).
    func offset(atUTC t: Int) -> Int {
        switch source {
        case .fixed(let offset): return offset
        case .system(let zone): return zone.offset(atUTC: t)
        case .defined(let zone): return zone.offset(atUTC: t)
        }
    }

    /// The wall-clock reading (wall seconds) at instant `t`.
    func wall(fromUTC t: Int) -> Int { t + offset(atUTC: t) }

    /// The instant a wall-clock reading names (RFC 5545 §3.3.5): a reading that a spring-forward
    /// gap skips is read with the offset before the gap (02:30 → 03:30 new time); a reading that
    /// a fall-back repeats is the first of the two.
    func utc(fromWall w: Int) -> Int {
        if case .fixed(let offset) = source { return w - offset }
        let guess = w - offset(atUTC: w)
        let before = offset(atUTC: guess - CivilCalendar.secondsPerDay)
        let after = offset(atUTC: guess + CivilCalendar.secondsPerDay)
        if before == after { return w - before }
        let early = w - before
        if offset(atUTC: early) == before { return early }
        let late = w - after
        if offset(atUTC: late) == after { return late }
        return early
    }
}

/// A system zone's offsets, with each UTC year's transitions fetched once (a lookup is then a
/// short scan instead of a call into the zone database).
private final class SystemZone {
    private struct Year {
        var start: Int
        var end: Int
        var initialOffset: Int
        var transitions: [(at: Int, offset: Int)]
        /// False when the transitions did not account for the offset at the year's end; such a
        /// year asks the zone database directly.
        var exact: Bool
    }

    private let zone: TimeZone
    private var years: [Int: Year] = [:]
    private var cached = Year(start: 0, end: 0, initialOffset: 0, transitions: [], exact: true)

    init(_ zone: TimeZone) { self.zone = zone }

    func offset(atUTC t: Int) -> Int {
        if t < cached.start || t >= cached.end {
            let number = CivilCalendar.date(fromDayNumber: CivilCalendar.day(ofWall: t)).year
            if let known = years[number] {
                cached = known
            } else {
                cached = year(number)
                if years.count < 1024 { years[number] = cached }
            }
        }
        guard cached.exact else { return zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t))) }
        var offset = cached.initialOffset
        for transition in cached.transitions {
            if transition.at > t { break }
            offset = transition.offset
        }
        return offset
    }

    private func year(_ number: Int) -> Year {
        let start = CivilCalendar.wall(year: number, month: 1, day: 1)
        let end = CivilCalendar.wall(year: number + 1, month: 1, day: 1)
        let initial = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start)))
        var transitions: [(at: Int, offset: Int)] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(start))
        let limit = Date(timeIntervalSince1970: TimeInterval(end))
        while transitions.count < 8, let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < limit, next > cursor {
            transitions.append((Int(next.timeIntervalSince1970.rounded(.down)), zone.secondsFromGMT(for: next)))
            cursor = next
        }
        let last = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(end - 1)))
        let exact = (transitions.last?.offset ?? initial) == last && transitions.count < 8
        return Year(start: start, end: end, initialOffset: initial, transitions: transitions, exact: exact)
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
