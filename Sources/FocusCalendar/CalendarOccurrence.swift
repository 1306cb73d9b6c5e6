import FoundationEssentials

/// One busy stretch of time from a calendar: an event, or one instance of a recurring event.
package struct CalendarOccurrence: Sendable, Equatable, Hashable {
    package var start: Date
    package var end: Date
    package var summary: String
    package var allDay: Bool
    package var uid: String

    package init(start: Date, end: Date, summary: String, allDay: Bool, uid: String) {
        self.start = start
        self.end = end
        self.summary = summary
        self.allDay = allDay
        self.uid = uid
    }
}

/// The bounds that keep expansion prompt and small whatever a file asks for.
package enum ICSExpansionLimits {
    /// Steps (recurrence periods visited plus candidate instants considered) for one recurring
    /// event in one call. A daily rule costs about 2 steps a day from where expansion starts.
    package static let stepsPerEvent = 200_000
    /// Steps for all recurring events of one call together.
    package static let stepsPerCall = 20_000_000
    /// Occurrences one call returns at most (before sorting; further ones are dropped).
    package static let occurrencesPerCall = 1_000_000
}
