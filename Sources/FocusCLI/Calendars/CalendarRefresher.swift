import FocusCore
import FocusNetwork
import FocusStorage
import FoundationEssentials
import Synchronization

/// Fetches one live calendar again, whatever its kind: a subscribed feed (a conditional GET)
/// or a calendar of a connected CalDAV account (`ConnectedCalendarFetch`). Used by `calendar
/// refresh` and by the daemon. A failure keeps the copy in use, is remembered with the
/// calendar (`calendar list`, `agenda` and `doctor` show it) and is thrown as one line.
struct CalendarRefresher {
    let env: FocusEnvironment
    let db: AppDatabase
    let login: CalDAVLogin
    var acceptEmpty = false
    /// Each account's endpoint, asked for once (a password command runs once a refresh).
    let endpoints = EndpointCache()

    final class EndpointCache: Sendable {
        private let state = Mutex<[Int64: CalDAVEndpoint]>([:])
        var value: [Int64: CalDAVEndpoint] { state.withLock { $0 } }
        func get(_ id: Int64, _ make: () throws(FocusError) -> CalDAVEndpoint) throws(FocusError) -> CalDAVEndpoint {
            if let known = state.withLock({ $0[id] }) { return known }
            let made = try make()
            state.withLock { $0[id] = made }
            return made
        }
    }

    /// Whether the refresh stored a new copy (busy time may have changed).
    @discardableResult
    func refresh(_ calendar: CalendarSummary) throws -> Bool {
        calendar.connected ? try refreshConnected(calendar) : try refreshFeed(calendar)
    }

    private func refreshConnected(_ calendar: CalendarSummary) throws -> Bool {
        guard let stored = try db.connectedCalendars().first(where: { $0.id == calendar.id }),
              let account = try db.accounts().first(where: { $0.id == stored.accountID }) else { return false }
        let remote = ConnectedCalendarFetch(env: env)
        do {
            let endpoint = try endpoints.get(account.id) { () throws(FocusError) -> CalDAVEndpoint in try login.endpoint(account, env: env) }
            let outcome = try remote.refresh(stored, endpoint: endpoint, db: db)
            env.console.line(remote.line(outcome, name: stored.name, verb: "Refreshed"))
            if case .stored = outcome { return true }
            return false
        } catch let error as FocusError {
            throw remote.failed(error, calendar: stored, db: db)
        }
    }

    static func label(_ feed: CalendarSummary) -> String {
        "calendar '\(feed.name)' (\(CalendarFeed.shownAddress(feed.source)))"
    }

    private func refreshFeed(_ feed: CalendarSummary) throws -> Bool {
        let fetcher = FeedFetcher(env: env, client: FeedHTTPClient(http: CurlHTTPClient(environment: env.environment)))
        let state = FeedState.decode(feed.feedState)
        let label = Self.label(feed)
        do {
            let setting = StoredSetting(kind: .feed, url: feed.source, caFile: state.caFile, insecure: state.insecure ?? false)
            try TrustStore(env: env).require(setting, mayAsk: login.mayPrompt, again:
                "Run `focus calendar refresh '\(Sanitized.terminal(feed.name))'` at a terminal to be asked, or subscribe to its address yourself (`focus calendar list --json` shows it).")
            if let caFile = state.caFile { try InputFile.check(caFile) }
            switch try CalendarFeed.fetch(feed.source, state: state, conditional: !acceptEmpty, label: label, client: fetcher.client) {
            case .unchanged:
                var state = state
                state.fetchedAt = env.now()
                state.lastError = nil
                state.lastErrorAt = nil
                try db.updateFeedState(calendarID: feed.id, state: state.encoded)
                env.console.line("Calendar \(Sanitized.terminal(feed.name)) is unchanged (\(feed.eventCount) event\(feed.eventCount == 1 ? "" : "s")).")
                return false
            case let .body(data, etag, modified):
                var next = state
                next.etag = etag
                next.lastModified = modified
                try fetcher.store(data, address: feed.source, state: next, name: feed.name, nameFallback: feed.name, label: label, db: db,
                                  verb: "Refreshed", keptEvents: feed.eventCount, acceptEmpty: acceptEmpty, calendarID: feed.id)
                return true
            }
        } catch let error as FocusError {
            let since = state.fetchedAt ?? feed.importedAt
            let kept = CalendarFeed.failure(error, name: feed.name, label: label, keptSince: String(env.calendar.wallClockText(since).prefix(16)))
            var failed = state
            failed.lastError = kept.description
            failed.lastErrorAt = env.now()
            try db.updateFeedState(calendarID: feed.id, state: failed.encoded)
            throw kept
        }
    }
}
