import FoundationEssentials

/// One thing fetching a live calendar (a subscribed feed or a calendar of a connected CalDAV
/// account) has to say, as a value: `calendar subscribe`, `calendar connect`, `calendar
/// refresh`, `sync` and the daemon hand each to FocusRendering's `CalendarFetchRenderer` in the
/// order they happened. Results go to standard output, warnings (`isWarning`) to standard error.
package enum CalendarFetchReport: Sendable {
    /// A new copy of the calendar was stored.
    case stored(StoredCalendarCopy)
    /// The calendar has not changed since the copy kept (a 304, an unchanged ctag or sync token).
    case unchanged(name: String, events: Int)
    /// Listing a connected account again found calendars to start or stop reading (README, "A
    /// CalDAV account").
    case accountChanged(address: String, added: [String], removed: [String])

    /// A warning of the iCalendar reader about the text fetched, in its own words.
    case readerWarning(String)
    /// The calendar came back with no events while the copy kept has `keptEvents`: the copy is
    /// kept and used (README, "Your real calendar").
    case keptAside(name: String, keptEvents: Int)
    /// A connected account's calendars could not be listed (and none of its calendars is kept).
    case accountNotListed(address: String, reason: String)
    /// A calendar found in an account could not be read for the first time.
    case notRead(name: String, reason: String)
    /// A feed that arrived through sync could not be fetched for the first time.
    case notFetchedYet(name: String, reason: String)

    /// Whether this is a warning (standard error), not a result.
    package var isWarning: Bool {
        switch self {
        case .stored, .unchanged, .accountChanged: false
        case .readerWarning, .keptAside, .accountNotListed, .notRead, .notFetchedYet: true
        }
    }

    /// Whether busy time may have changed.
    package var storedNewCopy: Bool {
        if case .stored = self { return true }
        return false
    }
}

/// A calendar's copy just stored: how many events and busy times, over which days.
package struct StoredCalendarCopy: Sendable {
    /// What was done, as the line begins.
    package enum Verb: String, Sendable {
        case subscribed = "Subscribed to"
        case refreshed = "Refreshed"
        case stored = "Stored"
    }

    package var verb: Verb
    package var name: String
    /// Subscribing replaced a calendar of the same name.
    package var replacedSameName: Bool
    package var events: Int
    package var occurrences: Int
    /// The stored window's first and last days.
    package var from: LocalDate
    package var to: LocalDate
    /// The re-plan the new busy time caused, when it made one.
    package var plan: PlanOutcome?

    package init(verb: Verb, name: String, replacedSameName: Bool = false, events: Int, occurrences: Int, from: LocalDate, to: LocalDate,
                 plan: PlanOutcome? = nil) {
        self.verb = verb
        self.name = name
        self.replacedSameName = replacedSameName
        self.events = events
        self.occurrences = occurrences
        self.from = from
        self.to = to
        self.plan = plan
    }
}
