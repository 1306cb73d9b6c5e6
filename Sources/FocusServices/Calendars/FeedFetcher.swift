import FocusText
import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// Fetching, judging and storing a feed, shared by subscribe and refresh.
package struct FeedFetcher {
    let env: ServiceContext
    package let client: any HTTPClient

    package init(env: ServiceContext, client: any HTTPClient) {
        self.env = env
        self.client = client
    }

    /// Reads `data` as `calendar import` reads a file and stores it with `state` (fetched now).
    /// The reader's warnings go to `warn` as they come; returns what was done: a copy stored, or
    /// kept aside (an empty calendar while the copy kept has events).
    package func store(_ data: Data, address: String, state: FeedState, name: String?, nameFallback: String, label: String,
                       db: AppDatabase, verb: StoredCalendarCopy.Verb, keptEvents: Int? = nil, acceptEmpty: Bool = false, calendarID: Int64? = nil,
                       warn: (CalendarFetchReport) -> Void) throws -> CalendarFetchReport {
        let now = env.now()
        let horizon = DateInterval(start: now.addingTimeInterval(-Double(CalendarFile.daysBack * 86_400)),
                                   end: now.addingTimeInterval(Double(CalendarFile.daysAhead * 86_400)))
        var declined: [(start: Date, end: Date, summary: String)] = []
        let (calendarName, events, occurrences) = try CalendarFile.expand(
            data, file: label, name: name, fallbackName: nameFallback, horizon: horizon, local: env.calendar,
            strict: false, attendance: .current(env, db), declined: { declined = $0.map { ($0.start, $0.end, $0.summary) } },
            warn: { warn(.readerWarning($0)) })
        var state = state
        if let keptEvents, let calendarID, CalendarFeed.keepsAside(newEvents: events, keptEvents: keptEvents, acceptEmpty: acceptEmpty) {
            state.emptyKeptAsideAt = now
            try db.updateFeedState(calendarID: calendarID, state: state.encoded)
            return .keptAside(name: calendarName, keptEvents: keptEvents)
        }
        state.fetchedAt = now
        state.lastError = nil
        state.lastErrorAt = nil
        state.emptyKeptAsideAt = nil
        var calendar = CalendarImport(name: calendarName, source: address, content: data, timeZone: env.calendar.identifier,
                                      horizon: horizon, eventCount: events, importedAt: now)
        calendar.feedState = state.encoded
        let replaced = try db.importCalendar(calendar, occurrences: occurrences, occurrence: { ($0.start, $0.end, $0.summary, $0.allDay, $0.uid) })
        try db.replaceDeclined(calendarNamed: calendarName, declined)
        let plan = Planning.replanIfStale(env, db)
        return .stored(StoredCalendarCopy(verb: verb, name: calendarName, replacedSameName: replaced, events: events, occurrences: occurrences.count,
                                          from: env.calendar.day(of: horizon.start), to: env.calendar.day(of: horizon.end), plan: plan))
    }
}
