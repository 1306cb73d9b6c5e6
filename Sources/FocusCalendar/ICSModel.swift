import FocusText
/// A parsed iCalendar file: its events and the time zone definitions it carries.
package struct ICSDocument: Sendable {
    /// Every VEVENT, in file order, including RECURRENCE-ID overrides (as separate events).
    package var events: [ICSEvent]
    /// Every VTIMEZONE, in file order.
    package var timeZones: [ICSTimeZone]
    /// `X-WR-CALNAME` of the first VCALENDAR, when present (a sensible default calendar name).
    package var name: String?
    /// What a lenient read dropped or read its own way (an event that does not parse, a quirk),
    /// one each, in file order.
    package var warnings: [ICSWarning] = []

    package init(events: [ICSEvent] = [], timeZones: [ICSTimeZone] = [], name: String? = nil, warnings: [ICSWarning] = []) {
        self.events = events
        self.timeZones = timeZones
        self.name = name
        self.warnings = warnings
    }
}

/// Something a lenient read of an .ics file did not take as written: an event dropped (with
/// its UID and summary, when it had them) or a quirk read its clear way.
package struct ICSWarning: Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var uid: String?
    package var summary: String?
    package var reason: String
    /// Whether the event it names was dropped (else it was read, as the reason says).
    package var dropped: Bool

    package init(line: Int, uid: String? = nil, summary: String? = nil, reason: String, dropped: Bool) {
        self.line = line
        self.uid = uid
        self.summary = summary
        self.reason = reason
        self.dropped = dropped
    }

    /// `line 10: dropped the event 'Team sync' (UID abc): DTSTART value … is not a date`.
    package var description: String { "line \(line): \(message)" }

    /// The warning without its line: `dropped the event 'Team sync' (UID abc): …`.
    package var message: String {
        guard dropped else { return reason }
        var which = "the event"
        if let summary, !summary.isEmpty { which += " '\(summary)'" }
        if let uid { which += " (UID \(uid))" }
        return "dropped \(which): \(reason)"
    }
}

/// One VEVENT as written in the file (not expanded).
///
/// What most events have is stored inline; what few have (a rule, added or excluded dates, a
/// DURATION, a RECURRENCE-ID, a DESCRIPTION or LOCATION) lives in one shared box, allocated only
/// for an event that has any of it: a calendar of 100,000 plain meetings then takes 280 bytes
/// an event rather than 616.
/// One `ATTENDEE` of an event (RFC 5545 section 3.8.4.1): its calendar user address as
/// written (`mailto:alice@example.org`) and its participation status (`PARTSTAT`, upper-cased;
/// `NEEDS-ACTION` when not given, section 3.2.12).
package struct ICSAttendee: Sendable, Equatable {
    package var address: String
    package var partstat: String

    package init(address: String, partstat: String) {
        self.address = address
        self.partstat = partstat
    }
}

package struct ICSEvent: Sendable {
    package var uid: String
    package var summary: String
    /// DTSTART.
    package var start: ICSDateValue
    /// DTEND, when given.
    package var end: ICSDateValue?
    /// STATUS, upper-cased (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), when given.
    package var status: String?
    /// `TRANSP:TRANSPARENT` (the event does not block time).
    package var transparent: Bool
    package var sequence: Int
    /// DTSTAMP, when given: between two versions of equal SEQUENCE, the later one counts.
    package var stamp: ICSDateValue?
    /// Physical line of the event's `BEGIN:VEVENT`.
    package var line: Int
    /// focus published this event itself (a planned block or a worked session written to a
    /// calendar): it has an `X-FOCUS-BLOCK` or `X-FOCUS-SESSION` property, or a UID of the form
    /// `focus-block-…@focus` or `session-…@focus`. Reading it back, it is never busy time.
    package var publishedByFocus: Bool
    /// The event's `ATTENDEE`s (empty for most: only meetings have them).
    package var attendees: [ICSAttendee]
    /// The rarer properties; nil when the event has none of them.
    private var rare: ICSEventRare?

    /// Replaces the box with one changed by `change` (given the current values).
    private mutating func change(_ change: (inout String?, inout String?, inout ICSDuration?, inout ICSRecurrenceRule?,
                                            inout [ICSDateValue], inout [ICSPeriod], inout [ICSDateValue], inout ICSDateValue?) -> Void) {
        var location = rare?.location, description = rare?.description, duration = rare?.duration, rrule = rare?.rrule
        var rdates = rare?.rdates ?? [], rdatePeriods = rare?.rdatePeriods ?? [], exdates = rare?.exdates ?? []
        var recurrenceID = rare?.recurrenceID
        change(&location, &description, &duration, &rrule, &rdates, &rdatePeriods, &exdates, &recurrenceID)
        rare = ICSEventRare.make(location: location, description: description, duration: duration, rrule: rrule, rdates: rdates,
                         rdatePeriods: rdatePeriods, exdates: exdates, recurrenceID: recurrenceID)
    }

    package var location: String? {
        get { rare?.location }
        set { change { location, _, _, _, _, _, _, _ in location = newValue } }
    }
    package var description: String? {
        get { rare?.description }
        set { change { _, description, _, _, _, _, _, _ in description = newValue } }
    }
    /// DURATION, when given (and no DTEND).
    package var duration: ICSDuration? {
        get { rare?.duration }
        set { change { _, _, duration, _, _, _, _, _ in duration = newValue } }
    }
    package var rrule: ICSRecurrenceRule? {
        get { rare?.rrule }
        set { change { _, _, _, rrule, _, _, _, _ in rrule = newValue } }
    }
    /// RDATE values of type DATE-TIME or DATE.
    package var rdates: [ICSDateValue] {
        get { rare?.rdates ?? [] }
        set { change { _, _, _, _, rdates, _, _, _ in rdates = newValue } }
    }
    /// RDATE values of type PERIOD.
    package var rdatePeriods: [ICSPeriod] {
        get { rare?.rdatePeriods ?? [] }
        set { change { _, _, _, _, _, rdatePeriods, _, _ in rdatePeriods = newValue } }
    }
    package var exdates: [ICSDateValue] {
        get { rare?.exdates ?? [] }
        set { change { _, _, _, _, _, _, exdates, _ in exdates = newValue } }
    }
    /// RECURRENCE-ID: this event overrides the instance of its UID's series starting then.
    package var recurrenceID: ICSDateValue? {
        get { rare?.recurrenceID }
        set { change { _, _, _, _, _, _, _, recurrenceID in recurrenceID = newValue } }
    }

    package init(
        uid: String, summary: String, location: String? = nil, description: String? = nil,
        start: ICSDateValue, end: ICSDateValue? = nil, duration: ICSDuration? = nil,
        rrule: ICSRecurrenceRule? = nil, rdates: [ICSDateValue] = [], rdatePeriods: [ICSPeriod] = [],
        exdates: [ICSDateValue] = [], recurrenceID: ICSDateValue? = nil, status: String? = nil,
        transparent: Bool = false, sequence: Int = 0, stamp: ICSDateValue? = nil, line: Int = 0,
        publishedByFocus: Bool = false, attendees: [ICSAttendee] = []
    ) {
        self.attendees = attendees
        self.rare = ICSEventRare.make(location: location, description: description, duration: duration, rrule: rrule, rdates: rdates,
                                      rdatePeriods: rdatePeriods, exdates: exdates, recurrenceID: recurrenceID)
        self.uid = uid
        self.summary = summary
        self.start = start
        self.end = end
        self.status = status
        self.transparent = transparent
        self.sequence = sequence
        self.stamp = stamp
        self.line = line
        self.publishedByFocus = publishedByFocus
    }

    /// Whether a UID is one focus gives the events it writes, letters in any case: a planned
    /// block's `<subtask id>-<YYYYMMDD>-<n>@focus` (`calendar export`, `calendar publish`), a
    /// session's `session-…@focus` (`export --format ics`), or `focus-block-…@focus`.
    package static func isFocusUID(_ uid: String) -> Bool {
        let lower = uid.lowercased()
        guard lower.hasSuffix("@focus") else { return false }
        if lower.hasPrefix("focus-block-") || lower.hasPrefix("session-") { return true }
        let parts = lower.dropLast(6).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            && parts[1].count == 8
    }

    /// A `VALUE=DATE` event: busy for whole local days.
    package var allDay: Bool { start.isDate }
    /// `STATUS:CANCELLED`.
    package var cancelled: Bool { status == "CANCELLED" }
}

/// The rarer properties of an `ICSEvent`. An immutable box: a change makes a new one, so copies of an event never share a change.
private final class ICSEventRare: Sendable {
    let location: String?
    let description: String?
    let duration: ICSDuration?
    let rrule: ICSRecurrenceRule?
    let rdates: [ICSDateValue]
    let rdatePeriods: [ICSPeriod]
    let exdates: [ICSDateValue]
    let recurrenceID: ICSDateValue?

    init(location: String?, description: String?, duration: ICSDuration?, rrule: ICSRecurrenceRule?,
         rdates: [ICSDateValue], rdatePeriods: [ICSPeriod], exdates: [ICSDateValue], recurrenceID: ICSDateValue?) {
        self.location = location
        self.description = description
        self.duration = duration
        self.rrule = rrule
        self.rdates = rdates
        self.rdatePeriods = rdatePeriods
        self.exdates = exdates
        self.recurrenceID = recurrenceID
    }

    /// A box for these values, nil when there is nothing in it.
    static func make(location: String?, description: String?, duration: ICSDuration?, rrule: ICSRecurrenceRule?,
                     rdates: [ICSDateValue], rdatePeriods: [ICSPeriod], exdates: [ICSDateValue], recurrenceID: ICSDateValue?) -> ICSEventRare? {
        if location == nil, description == nil, duration == nil, rrule == nil, rdates.isEmpty, rdatePeriods.isEmpty,
           exdates.isEmpty, recurrenceID == nil {
            return nil
        }
        return ICSEventRare(location: location, description: description, duration: duration, rrule: rrule, rdates: rdates,
                    rdatePeriods: rdatePeriods, exdates: exdates, recurrenceID: recurrenceID)
    }
}

/// A DATE or DATE-TIME value exactly as written: civil fields plus how to read them.
package struct ICSDateValue: Sendable, Hashable, CustomStringConvertible {
    package enum Form: Sendable, Hashable {
        /// `VALUE=DATE`: a whole day, no time.
        case date
        /// No `Z` and no `TZID`: the reader's local wall clock.
        case floating
        /// Trailing `Z`.
        case utc
        /// `TZID=…`: a wall-clock time in the named zone (name kept as written).
        case zoned(String)
    }

    package var form: Form
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(form: Form, year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.form = form
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    package var isDate: Bool { form == .date }

    /// The TZID, for `.zoned` values.
    package var tzid: String? {
        if case .zoned(let name) = form { return name }
        return nil
    }

    /// Days since 1970-01-01 of the civil date.
    var dayNumber: Int { CivilCalendar.dayNumber(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00 of the value's own wall clock.
    var wallSeconds: Int { dayNumber * CivilCalendar.secondsPerDay + hour * 3600 + minute * 60 + second }

    /// `20261123`, `20261123T080000Z`, `20261123T080000`, or `TZID=Europe/Berlin:20261123T090000`.
    package var description: String {
        var s = String(zeroPadded: year, width: 4) + String(zeroPadded: month, width: 2) + String(zeroPadded: day, width: 2)
        if form == .date { return s }
        s += "T" + String(zeroPadded: hour, width: 2) + String(zeroPadded: minute, width: 2) + String(zeroPadded: second, width: 2)
        switch form {
        case .utc: return s + "Z"
        case .zoned(let name): return "TZID=\(name):" + s
        default: return s
        }
    }
}

/// An RFC 5545 DURATION: `P1D`, `PT1H30M`, `-PT15M`, `P1W`.
package struct ICSDuration: Sendable, Hashable {
    package var negative: Bool
    package var weeks: Int
    package var days: Int
    package var hours: Int
    package var minutes: Int
    package var seconds: Int

    package init(negative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0, seconds: Int = 0) {
        self.negative = negative
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// A DURATION value as written (`PT1H30M`, `P1D`; RFC 5545 section 3.3.6), or nil.
    package init?(parsing text: String) {
        guard let d = ICSValueParser.parseDuration(Array(text.utf8)[...]) else { return nil }
        self = d
    }

    /// Whole days (weeks × 7 + days), signed: they follow the wall clock across DST changes.
    package var nominalDays: Int { (negative ? -1 : 1) * (weeks * 7 + days) }
    /// Hours, minutes and seconds as exact seconds, signed.
    package var exactSeconds: Int { (negative ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds) }
}

/// An RDATE PERIOD: a start and either an end or a duration.
package struct ICSPeriod: Sendable, Hashable {
    package var start: ICSDateValue
    package var end: ICSDateValue?
    package var duration: ICSDuration?

    package init(start: ICSDateValue, end: ICSDateValue? = nil, duration: ICSDuration? = nil) {
        self.start = start
        self.end = end
        self.duration = duration
    }
}

/// A VTIMEZONE: the offsets a named zone uses, as STANDARD and DAYLIGHT observances.
package struct ICSTimeZone: Sendable {
    package var tzid: String
    package var observances: [ICSTimeZoneObservance]
    package var line: Int

    package init(tzid: String, observances: [ICSTimeZoneObservance], line: Int = 0) {
        self.tzid = tzid
        self.observances = observances
        self.line = line
    }
}

/// One STANDARD or DAYLIGHT sub-component: from each onset on, wall clocks read UTC + `offsetTo`.
package struct ICSTimeZoneObservance: Sendable {
    package var daylight: Bool
    /// First onset, a local time in the offset in force before it (`offsetFrom`).
    package var start: ICSDateValue
    /// Seconds east of UTC before the onset.
    package var offsetFrom: Int
    /// Seconds east of UTC after the onset.
    package var offsetTo: Int
    package var rrule: ICSRecurrenceRule?
    package var rdates: [ICSDateValue]

    package init(daylight: Bool, start: ICSDateValue, offsetFrom: Int, offsetTo: Int, rrule: ICSRecurrenceRule? = nil, rdates: [ICSDateValue] = []) {
        self.daylight = daylight
        self.start = start
        self.offsetFrom = offsetFrom
        self.offsetTo = offsetTo
        self.rrule = rrule
        self.rdates = rdates
    }
}
