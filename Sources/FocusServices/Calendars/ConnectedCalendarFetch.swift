import FocusText
import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// Fetching a connected CalDAV calendar and storing its busy time (README, "Your real
/// calendar"), for `calendar connect`, `calendar refresh` and the daemon. A collection that
/// reports a sync token is kept current with sync-collection (RFC 6578): an unchanged one costs
/// one request. Otherwise its events in the planning window are read with a time-range
/// calendar-query (RFC 4791 section 7.8), skipped when its ctag has not changed.
package struct ConnectedCalendarFetch {
    let env: ServiceContext
    package let client: any CalDAVClient
    /// `calendar refresh --accept-empty`: a calendar that lists nothing is taken as empty.
    package var acceptEmpty = false

    package init(env: ServiceContext, client: (any CalDAVClient)? = nil, acceptEmpty: Bool = false) {
        self.env = env
        self.client = client ?? env.caldav
        self.acceptEmpty = acceptEmpty
    }

    package enum Outcome {
        case unchanged(events: Int)
        case stored(events: Int, occurrences: Int, horizon: DateInterval)
        /// The calendar listed nothing while the copy kept has events: the copy stays (warned).
        case keptAside(events: Int)
    }

    package var horizon: DateInterval {
        let now = env.now()
        return DateInterval(start: now.addingTimeInterval(-Double(CalendarFile.daysBack * 86_400)),
                            end: now.addingTimeInterval(Double(CalendarFile.daysAhead * 86_400)))
    }

    /// Fetches `remote` for the first time (or again, whole) and stores it as `name`; the
    /// reader's warnings go to `warn` as they come.
    package func first(_ remote: RemoteCalendar, name: String, accountID: Int64, endpoint: CalDAVEndpoint, db: AppDatabase,
                       warn: (CalendarFetchReport) -> Void) throws -> Outcome {
        var state = FeedState()
        let changes: RemoteChanges
        if remote.supportsSync || remote.syncToken != nil {
            changes = try client.changes(in: remote.url, since: nil, endpoint)
        } else {
            let window = horizon
            changes = RemoteChanges(complete: true, changed: try client.events(in: remote.url, from: window.start, to: window.end, endpoint),
                                    removed: [], token: nil)
            state.etag = remote.ctag
        }
        return try store(changes, name: name, accountID: accountID, remoteURL: remote.url, state: state, db: db, warn: warn)
    }

    /// Fetches what changed in a stored connected calendar; the reader's warnings go to `warn`.
    package func refresh(_ calendar: ConnectedCalendar, endpoint: CalDAVEndpoint, db: AppDatabase,
                         warn: (CalendarFetchReport) -> Void) throws -> Outcome {
        var state = FeedState.decode(calendar.fetchState)
        if let token = calendar.syncToken {
            var changes = try client.changes(in: calendar.remoteURL, since: token, endpoint)
            let stored = try db.connectedResources(calendarID: calendar.id)
            if ConnectedReconcile.needed(changes, stored: stored, lastFetch: state.fetchedAt, now: env.now()) {
                changes = ConnectedReconcile.reconciled(changes, listing: try client.members(of: calendar.remoteURL, endpoint), stored: stored)
            }
            if !changes.complete, changes.changed.isEmpty, changes.removed.isEmpty {
                try markFetched(calendar, token: changes.token ?? token, state: &state, db: db)
                return .unchanged(events: calendar.eventCount)
            }
            if let aside = try keptAside(changes, calendar: calendar, state: state, db: db) { return aside }
            return try store(changes, name: calendar.name, accountID: calendar.accountID, remoteURL: calendar.remoteURL, state: state, db: db, warn: warn)
        }
        let remote = try client.calendar(at: calendar.remoteURL, endpoint)
        if remote.supportsSync || remote.syncToken != nil {
            let changes = try client.changes(in: calendar.remoteURL, since: nil, endpoint)
            if let aside = try keptAside(changes, calendar: calendar, state: state, db: db) { return aside }
            state.etag = nil
            return try store(changes, name: calendar.name, accountID: calendar.accountID, remoteURL: calendar.remoteURL, state: state, db: db, warn: warn)
        }
        if let ctag = remote.ctag, ctag == state.etag {
            try markFetched(calendar, token: nil, state: &state, db: db)
            return .unchanged(events: calendar.eventCount)
        }
        let window = horizon
        let events = try client.events(in: calendar.remoteURL, from: window.start, to: window.end, endpoint)
        let listing = RemoteChanges(complete: true, changed: events, removed: [], token: nil)
        if let aside = try keptAside(listing, calendar: calendar, state: state, db: db) { return aside }
        state.etag = remote.ctag
        return try store(listing, name: calendar.name, accountID: calendar.accountID, remoteURL: calendar.remoteURL, state: state, db: db, warn: warn)
    }

    /// A whole listing with nothing in it while the copy kept has events (a proxy's or a server's
    /// maintenance answer) is kept aside as a feed's empty copy is (README, "Your real
    /// calendar"): the copy kept stays in use, one warning says so (the outcome), and the sync token stays
    /// where it was, so the next refresh asks again. `--accept-empty` takes the empty calendar.
    private func keptAside(_ changes: RemoteChanges, calendar: ConnectedCalendar, state: FeedState, db: AppDatabase) throws -> Outcome? {
        guard changes.complete,
              CalendarFeed.keepsAside(newEvents: changes.changed.count, keptEvents: calendar.eventCount, acceptEmpty: acceptEmpty) else { return nil }
        var state = state
        state.emptyKeptAsideAt = env.now()
        try db.updateConnectedState(calendarID: calendar.id, syncToken: calendar.syncToken, fetchState: state.encoded)
        return .keptAside(events: calendar.eventCount)
    }

    private func markFetched(_ calendar: ConnectedCalendar, token: String?, state: inout FeedState, db: AppDatabase) throws {
        state.fetchedAt = env.now()
        state.lastError = nil
        state.lastErrorAt = nil
        try db.updateConnectedState(calendarID: calendar.id, syncToken: token, fetchState: state.encoded)
    }

    /// Applies `changes` and expands every resource kept, through the reader `calendar import`
    /// uses (the same leniency and warnings; the resources read as one iCalendar stream).
    private func store(_ changes: RemoteChanges, name: String, accountID: Int64, remoteURL: String, state: FeedState, db: AppDatabase,
                       warn: (CalendarFetchReport) -> Void) throws -> Outcome {
        var state = state
        let now = env.now()
        state.fetchedAt = now
        state.lastError = nil
        state.lastErrorAt = nil
        state.emptyKeptAsideAt = nil
        let window = horizon
        let label = "calendar '\(name)' (\(CalendarFeed.shownAddress(remoteURL)))"
        let attendance = AttendancePolicy.current(env, db)
        var declined: [(start: Date, end: Date, summary: String)] = []
        let stored = try db.storeConnectedCalendar(
            name: name, accountID: accountID, remoteURL: remoteURL, changes: changes, fetchState: state.encoded,
            timeZone: env.calendar.identifier, horizon: window, at: now
        ) { resources in
            var content = Data()
            for resource in resources {
                guard let data = resource.data, !data.isEmpty else { continue }
                content.append(data)
                if data.last != 0x0A { content.append(contentsOf: [0x0D, 0x0A]) }
            }
            guard !content.isEmpty else { return ConnectedExpansion(content: content, eventCount: 0, occurrences: []) }
            let (_, events, occurrences) = try CalendarFile.expand(
                content, file: label, name: name, horizon: window, local: env.calendar, strict: false, attendance: attendance,
                declined: { declined = $0.map { ($0.start, $0.end, $0.summary) } }, warn: { warn(.readerWarning($0)) })
            return ConnectedExpansion(content: content, eventCount: events,
                                      occurrences: occurrences.map { ($0.start, $0.end, $0.summary, $0.allDay, $0.uid) })
        }
        try db.replaceDeclined(calendarID: stored.id, declined)
        return .stored(events: stored.events, occurrences: stored.occurrences, horizon: window)
    }

    /// The calendars (of those that may hold to-dos) that hold focus's synced history: another
    /// machine's sync calendar, never busy time (README, "Two machines").
    package static func histories(_ calendars: [RemoteCalendar], client: any CalDAVClient, endpoint: CalDAVEndpoint) throws(FocusError) -> Set<String> {
        var found: Set<String> = []
        for calendar in calendars where calendar.components.isEmpty || calendar.components.contains("VTODO") {
            let items = try client.changes(in: calendar.url, since: nil, endpoint).changed.compactMap(\.data)
            if FocusHistoryCalendar.holdsFocusHistory(items) { found.insert(calendar.url) }
        }
        return found
    }

    /// Records a failed fetch (the copy kept stays in use) and returns the one line to say.
    package func failed(_ error: FocusError, calendar: ConnectedCalendar, db: AppDatabase) -> FocusError {
        var state = FeedState.decode(calendar.fetchState)
        let since = state.fetchedAt ?? calendar.importedAt
        let kept = CalendarFeed.failure(error, name: calendar.name, label: "calendar '\(calendar.name)' (\(CalendarFeed.shownAddress(calendar.remoteURL)))",
                                        keptSince: RelativeTime.moment(since, calendar: env.calendar, now: env.now()))
        state.lastError = kept.description
        state.lastErrorAt = env.now()
        try? db.updateConnectedState(calendarID: calendar.id, syncToken: calendar.syncToken, fetchState: state.encoded)
        return kept
    }

    /// What `outcome` says, of the calendar stored as `name`.
    package func report(_ outcome: Outcome, name: String, verb: StoredCalendarCopy.Verb) -> CalendarFetchReport {
        switch outcome {
        case let .unchanged(events):
            return .unchanged(name: name, events: events)
        case let .keptAside(events):
            return .keptAside(name: name, keptEvents: events)
        case let .stored(events, occurrences, horizon):
            return .stored(StoredCalendarCopy(verb: verb, name: name, events: events, occurrences: occurrences,
                                              from: env.calendar.day(of: horizon.start), to: env.calendar.day(of: horizon.end)))
        }
    }
}
