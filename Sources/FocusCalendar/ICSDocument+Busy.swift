import FoundationEssentials

extension ICSDocument {
    /// Every BUSY occurrence overlapping `[from, to)`: recurring events expanded, RECURRENCE-ID
    /// overrides applied (moved occurrences move, cancelled ones vanish), EXDATE removed, RDATE
    /// added; STATUS:CANCELLED and TRANSP:TRANSPARENT events excluded. All-day (VALUE=DATE)
    /// events are busy for their whole local day(s) in `local` (local midnight to local
    /// midnight; DTEND exclusive; no DTEND = one day). Floating times (no Z, no TZID) and TZIDs
    /// that name no known zone and have no VTIMEZONE are read in `local`. Zones named in the
    /// file are looked up in `local`'s zone database.
    /// A zero-length event (a DATE-TIME DTSTART with no DTEND and no DURATION) is kept as an
    /// occurrence with `start == end` when `from <= start < to`.
    /// Of two versions of one event (same UID and RECURRENCE-ID, or same UID without one) only
    /// the one with the higher SEQUENCE counts, then the later DTSTAMP, then the later in the file.
    /// Sorted by start, then end, then summary (then UID); exact duplicates removed.
    /// Bounded by `ICSExpansionLimits`: never hangs, never exhausts memory.
    /// Events focus published itself (`ICSEvent.publishedByFocus`) are never busy time.
    package func busyOccurrences(from: Date, to: Date, local: LocalCalendar) -> [CalendarOccurrence] {
        Array(busyTimes(from: from, to: to, local: local))
    }

    /// The same occurrences as `busyOccurrences`, held compactly (each is made when read): a
    /// calendar's hundreds of thousands of busy times cost 24 bytes each rather than an
    /// occurrence's 64, and the document need not outlive them.
    /// `isFree` says of an event that it is free time (a meeting the person declined) though
    /// neither cancelled nor transparent.
    package func busyTimes(from: Date, to: Date, local: LocalCalendar, isFree: ((ICSEvent) -> Bool)? = nil) -> BusyTimes {
        guard to > from else { return BusyTimes(sources: [], keys: []) }
        var expansion = BusyExpansion(document: self, from: from, to: to, local: local)
        expansion.isFree = isFree
        return expansion.run()
    }

    /// The occurrences `busyTimes` leaves out because `isFree` says so (meetings the person
    /// declined): what the agenda still shows, marked.
    package func freeTimes(from: Date, to: Date, local: LocalCalendar, isFree: @escaping (ICSEvent) -> Bool) -> BusyTimes {
        guard to > from, events.contains(where: { !$0.attendees.isEmpty }) else { return BusyTimes(sources: [], keys: []) }
        var expansion = BusyExpansion(document: self, from: from, to: to, local: local)
        expansion.isFree = isFree
        expansion.freeOnly = true
        return expansion.run()
    }
}

/// Busy occurrences sorted by start, then end, then summary, then UID, without duplicates:
/// one small key per occurrence and one (summary, UID, all-day) per event it came from.
package struct BusyTimes: RandomAccessCollection, Sendable {
    struct Source: Sendable, Equatable {
        var summary: String
        var uid: String
        var allDay: Bool
    }

    struct Key: Sendable {
        var start: Int
        var end: Int
        /// Index into `sources`.
        var source: Int32
        /// The order the occurrence was found in (ties of equal occurrences keep it).
        var order: Int32
    }

    let sources: [Source]
    let keys: [Key]

    package var startIndex: Int { 0 }
    package var endIndex: Int { keys.count }

    package subscript(position: Int) -> CalendarOccurrence {
        let key = keys[position]
        let source = sources[Int(key.source)]
        return CalendarOccurrence(
            start: Date(timeIntervalSince1970: Double(key.start)), end: Date(timeIntervalSince1970: Double(key.end)),
            summary: source.summary, allDay: source.allDay, uid: source.uid)
    }
}

private struct BusyExpansion {
    /// Slack when turning the UTC window into a wall-clock window (covers DST fall-backs).
    static let wallMargin = 3 * 3600
    let document: ICSDocument
    /// The document's events, one version of each (see `latestVersions`).
    let events: [ICSEvent]
    let from: Double
    let to: Double
    let lower: Int
    let upper: Int
    let resolver: ZoneResolver
    var stepsLeft = ICSExpansionLimits.stepsPerCall
    /// Occurrences found, as keys; `sources` holds what they show, one per event that has any.
    var result: [BusyTimes.Key] = []
    var sources: [BusyTimes.Source] = []
    /// The event whose occurrences are being added, and its index in `sources` once it has one.
    var currentSource: Int32 = -1
    /// RECURRENCE-IDs of override events, by UID.
    var overrides: [String: [ICSDateValue]] = [:]
    var isFree: ((ICSEvent) -> Bool)?
    /// Only the events `isFree` says are free (`freeTimes`), instead of only the others.
    var freeOnly = false

    init(document: ICSDocument, from: Date, to: Date, local: LocalCalendar) {
        self.document = document
        self.from = from.timeIntervalSince1970
        self.to = to.timeIntervalSince1970
        lower = Int(self.from.rounded(.down))
        upper = Int(self.to.rounded(.up))
        resolver = ZoneResolver(local: local, definitions: document.timeZones)
        // (A busy-time read has already left focus's own events out: no copy is made then.)
        let all = document.events
        events = BusyExpansion.latestVersions(all.contains(where: \.publishedByFocus) ? all.filter { !$0.publishedByFocus } : all)
        for event in events {
            if let rid = event.recurrenceID { overrides[event.uid, default: []].append(rid) }
        }
    }

    mutating func run() -> BusyTimes {
        // Single events first, so a costly recurring rule cannot crowd them out of the limits.
        for event in events where !isRecurring(event) { add(event) }
        for event in events where isRecurring(event) { add(event) }
        let sources = self.sources
        // Sorted in place: keys are small and cheap to move; texts are compared only on ties.
        result.sort { a, b in
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            if a.source != b.source {
                let x = sources[Int(a.source)]
                let y = sources[Int(b.source)]
                if x.summary != y.summary { return x.summary < y.summary }
                if x.uid != y.uid { return x.uid < y.uid }
            }
            return a.order < b.order
        }
        // Exact duplicates (same times, summary, all-day and UID) removed, in place.
        var kept = 0
        for i in result.indices {
            let key = result[i]
            if kept > 0 {
                let last = result[kept - 1]
                if last.start == key.start, last.end == key.end,
                   last.source == key.source || sources[Int(last.source)] == sources[Int(key.source)] {
                    continue
                }
            }
            result[kept] = key
            kept += 1
        }
        result.removeLast(result.count - kept)
        return BusyTimes(sources: sources, keys: result)
    }

    /// One version of each event (RFC 5545 §3.8.7.4): the highest SEQUENCE, then the latest
    /// DTSTAMP, then the last in the file; file order kept otherwise.
    static func latestVersions(_ events: [ICSEvent]) -> [ICSEvent] {
        struct Key: Hashable { let uid: String, recurrenceID: ICSDateValue? }
        var best: [Key: Int] = [:]
        best.reserveCapacity(events.count)
        func newer(_ a: ICSEvent, than b: ICSEvent) -> Bool {
            if a.sequence != b.sequence { return a.sequence > b.sequence }
            let sa = a.stamp?.wallSeconds ?? Int.min
            let sb = b.stamp?.wallSeconds ?? Int.min
            return sa != sb ? sa > sb : a.line >= b.line
        }
        for (index, event) in events.enumerated() {
            let key = Key(uid: event.uid, recurrenceID: event.recurrenceID)
            if let known = best[key], !newer(event, than: events[known]) { continue }
            best[key] = index
        }
        if best.count == events.count { return events }
        let kept = Set(best.values)
        return events.indices.filter(kept.contains).map { events[$0] }
    }

    private func isRecurring(_ event: ICSEvent) -> Bool {
        event.recurrenceID == nil && (event.rrule != nil || !event.rdates.isEmpty || !event.rdatePeriods.isEmpty)
    }

    /// How long each occurrence lasts: whole days (following the wall clock) plus exact seconds.
    private struct Span {
        var days: Int
        var seconds: Int
    }

    private func span(of event: ICSEvent) -> Span {
        if event.allDay {
            var span = Span(days: 1, seconds: 0)
            if let end = event.end {
                span = Span(days: end.dayNumber - event.start.dayNumber, seconds: end.isDate ? 0 : end.wallSeconds - end.dayNumber * CivilCalendar.secondsPerDay)
            } else if let duration = event.duration {
                span = Span(days: duration.nominalDays, seconds: duration.exactSeconds)
            }
            if span.days * CivilCalendar.secondsPerDay + span.seconds <= 0 { span = Span(days: 1, seconds: 0) }
            return span
        }
        if let end = event.end {
            let seconds = resolver.instant(of: end) - resolver.instant(of: event.start)
            return Span(days: 0, seconds: max(0, seconds))
        }
        if let duration = event.duration {
            if duration.nominalDays * CivilCalendar.secondsPerDay + duration.exactSeconds <= 0 { return Span(days: 0, seconds: 0) }
            return Span(days: duration.nominalDays, seconds: duration.exactSeconds)
        }
        return Span(days: 0, seconds: 0)
    }

    private mutating func add(_ event: ICSEvent) {
        if event.cancelled || event.transparent { return }
        let free = !event.attendees.isEmpty && (isFree?(event) ?? false)
        if free != freeOnly { return }
        if result.count >= ICSExpansionLimits.occurrencesPerCall { return }
        currentSource = -1
        let zone = event.allDay ? resolver.local : resolver.zone(for: event.start)
        let span = self.span(of: event)
        let exclusions = self.exclusions(for: event)

        guard isRecurring(event) else {
            emit(event, wall: event.start.wallSeconds, zone: zone, span: span, exclusions: exclusions)
            return
        }

        var walls: [Int] = []
        let startWall = event.start.wallSeconds
        if let rule = event.rrule {
            let until = rule.until.map { untilWall($0, event: event, zone: zone) }
            // The window on the event's wall clock: an occurrence that overlaps [from, to) starts
            // after from − its length, and wall clocks step back at most a few hours at a time.
            let length = abs(span.days) * CivilCalendar.secondsPerDay + abs(span.seconds) + 3600
            let wallLower = zone.wall(fromUTC: lower - length) - BusyExpansion.wallMargin
            let wallUpper = zone.wall(fromUTC: upper) + BusyExpansion.wallMargin
            let expander = RecurrenceExpander(rule: rule, start: startWall, dateOnly: event.allDay, until: until)
            var budget = min(ICSExpansionLimits.stepsPerEvent, max(0, stepsLeft))
            let before = budget
            expander.expand(lower: wallLower, upper: wallUpper, budget: &budget, into: &walls)
            stepsLeft -= before - max(0, budget)
        } else {
            walls.append(startWall)
        }
        let timeOfDay = startWall - event.start.dayNumber * CivilCalendar.secondsPerDay
        for r in event.rdates {
            if event.allDay {
                walls.append(r.dayNumber * CivilCalendar.secondsPerDay)
            } else if r.isDate {
                walls.append(r.dayNumber * CivilCalendar.secondsPerDay + timeOfDay)
            } else {
                walls.append(zone.wall(fromUTC: resolver.instant(of: r)))
            }
        }
        // Rule output is strictly increasing; only added RDATEs can repeat an instant.
        var seen = Set<Int>()
        let mayRepeat = !event.rdates.isEmpty
        for wall in walls where !mayRepeat || seen.insert(wall).inserted {
            if result.count >= ICSExpansionLimits.occurrencesPerCall { return }
            emit(event, wall: wall, zone: zone, span: span, exclusions: exclusions)
        }
        for period in event.rdatePeriods {
            let start = resolver.instant(of: period.start)
            var end = start
            if let e = period.end {
                end = resolver.instant(of: e)
            } else if let d = period.duration {
                end = start + d.nominalDays * CivilCalendar.secondsPerDay + d.exactSeconds
            }
            if exclusions.instants.contains(start) { continue }
            append(event, start: start, end: max(start, end))
        }
    }

    /// UNTIL on this rule's wall clock, inclusive.
    private func untilWall(_ until: ICSDateValue, event: ICSEvent, zone: ZoneOffsets) -> Int {
        if event.allDay || until.isDate {
            return until.dayNumber * CivilCalendar.secondsPerDay + (event.allDay ? 0 : CivilCalendar.secondsPerDay - 1)
        }
        switch until.form {
        case .floating: return until.wallSeconds
        default: return zone.wall(fromUTC: resolver.instant(of: until))
        }
    }

    private struct Exclusions {
        var instants: Set<Int> = []
        var days: Set<Int> = []
        var isEmpty: Bool { instants.isEmpty && days.isEmpty }
    }

    private func exclusions(for event: ICSEvent) -> Exclusions {
        var ex = Exclusions()
        guard event.recurrenceID == nil else { return ex }
        let zone = event.allDay ? resolver.local : resolver.zone(for: event.start)
        func add(_ value: ICSDateValue) {
            if event.allDay || value.isDate {
                // A date-only EXDATE on a timed series removes that day's instance.
                ex.days.insert(value.dayNumber)
            } else if case .floating = value.form {
                // A floating EXDATE on a zoned series is a reading of the series' own clock.
                ex.instants.insert(zone.utc(fromWall: value.wallSeconds))
            } else {
                ex.instants.insert(resolver.instant(of: value))
            }
        }
        for value in event.exdates { add(value) }
        if !overrides.isEmpty, let moved = overrides[event.uid] {
            for value in moved { add(value) }
        }
        return ex
    }

    private mutating func emit(_ event: ICSEvent, wall: Int, zone: ZoneOffsets, span: Span, exclusions: Exclusions) {
        let start = zone.utc(fromWall: wall)
        if !exclusions.isEmpty {
            if exclusions.days.contains(CivilCalendar.day(ofWall: wall)) { return }
            if exclusions.instants.contains(start) { return }
        }
        let end: Int
        if span.days != 0 {
            end = zone.utc(fromWall: wall + span.days * CivilCalendar.secondsPerDay) + span.seconds
        } else {
            end = start + span.seconds
        }
        append(event, start: start, end: max(start, end))
    }

    private mutating func append(_ event: ICSEvent, start: Int, end: Int) {
        let s = Double(start)
        let e = Double(end)
        let overlaps = e > s ? (s < to && e > from) : (s >= from && s < to)
        guard overlaps else { return }
        if currentSource < 0 {
            currentSource = Int32(sources.count)
            sources.append(BusyTimes.Source(summary: event.summary, uid: event.uid, allDay: event.allDay))
        }
        result.append(BusyTimes.Key(start: start, end: end, source: currentSource, order: Int32(result.count)))
    }
}
