import FocusSystem
import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials
import Synchronization

/// Fetches one live calendar again, whatever its kind: a subscribed feed (a conditional GET)
/// or a calendar of a connected CalDAV account (`ConnectedCalendarFetch`). Used by `calendar
/// refresh` and by the daemon. A failure keeps the copy in use, is remembered with the
/// calendar (`calendar list`, `agenda` and `doctor` show it) and is thrown as one line.
package struct CalendarRefresher {
    let env: ServiceContext
    let db: AppDatabase
    let login: CalDAVLogin
    var acceptEmpty = false
    /// Each account's endpoint, asked for once (a password command runs once a refresh).
    package let endpoints = EndpointCache()

    package init(env: ServiceContext, db: AppDatabase, login: CalDAVLogin, acceptEmpty: Bool = false) {
        self.env = env
        self.db = db
        self.login = login
        self.acceptEmpty = acceptEmpty
    }

    package final class EndpointCache: Sendable {
        private let state = Mutex<[Int64: CalDAVEndpoint]>([:])
        package var value: [Int64: CalDAVEndpoint] { state.withLock { $0 } }
        func get(_ id: Int64, _ make: () throws(FocusError) -> CalDAVEndpoint) throws(FocusError) -> CalDAVEndpoint {
            if let known = state.withLock({ $0[id] }) { return known }
            let made = try make()
            state.withLock { $0[id] = made }
            return made
        }
    }

    /// What the refresh did (`storedNewCopy`: busy time may have changed), nil for a connected
    /// calendar no longer stored; the reader's warnings go to `warn` as they come.
    package func refresh(_ calendar: CalendarSummary, warn: (CalendarFetchReport) -> Void) throws -> CalendarFetchReport? {
        calendar.connected ? try refreshConnected(calendar, warn: warn) : try refreshFeed(calendar, warn: warn)
    }

    private func refreshConnected(_ calendar: CalendarSummary, warn: (CalendarFetchReport) -> Void) throws -> CalendarFetchReport? {
        guard let stored = try db.connectedCalendars().first(where: { $0.id == calendar.id }),
              let account = try db.accounts().first(where: { $0.id == stored.accountID }) else { return nil }
        let remote = ConnectedCalendarFetch(env: env, acceptEmpty: acceptEmpty)
        do {
            let endpoint = try endpoints.get(account.id) { () throws(FocusError) -> CalDAVEndpoint in try login.endpoint(account, env: env) }
            let outcome = try remote.refresh(stored, endpoint: endpoint, db: db, warn: warn)
            return remote.report(outcome, name: stored.name, verb: .refreshed)
        } catch let error as FocusError {
            throw remote.failed(error, calendar: stored, db: db)
        }
    }

    /// Lists each connected account's calendars again (one PROPFIND of its home set), starts
    /// reading those that count now and stops reading those that no longer do, by the rule of
    /// `connect` (README, "A CalDAV account"); says so in one line per account that changed and
    /// keeps it for `calendar list`. A failure is a warning: the calendars kept are refreshed as
    /// before. What it has to say goes to `report` as it happens. Returns the addresses of the
    /// calendars it read for the first time, and whether busy time changed.
    package func refreshAccounts(report: (CalendarFetchReport) -> Void) -> (added: Set<String>, changed: Bool) {
        guard let accounts = try? db.accounts(), !accounts.isEmpty else { return ([], false) }
        let syncURL = (try? db.syncTarget())??.url
        var added = Set<String>()
        var changed = false
        for account in accounts {
            do {
                let (urls, removed) = try refreshAccount(account, syncURL: syncURL, report: report)
                added.formUnion(urls)
                changed = changed || !urls.isEmpty || removed
            } catch {
                // Its calendars are refreshed next, and each says what went wrong (a refused
                // login, a redirect focus does not follow): the same failure is said once.
                let kept = (try? db.connectedCalendars().contains { $0.accountID == account.id }) ?? false
                if !kept {
                    report(.accountNotListed(address: account.url, reason: (error as? FocusError)?.description ?? "\(error)"))
                }
            }
        }
        return (added, changed)
    }

    private func refreshAccount(_ account: StoredAccount, syncURL: String?, report: (CalendarFetchReport) -> Void) throws -> (added: Set<String>, removed: Bool) {
        let connected = try db.connectedCalendars().filter { $0.accountID == account.id }
        // An account connected before the choice was kept, with no calendar read: publishing only.
        if account.calendarNames == nil, connected.isEmpty { return ([], false) }
        let endpoint = try endpoints.get(account.id) { () throws(FocusError) -> CalDAVEndpoint in try login.endpoint(account, env: env) }
        let fetch = ConnectedCalendarFetch(env: env)
        let home = account.discovered
        // The calendar focus publishes the plan into is no busy time of the person's (README, "A
        // CalDAV account"): never added, and dropped if it was, unless named with `--calendar`.
        let published = CalDAVChoice.leftOut(published: try db.publishTargets().filter { $0.accountID == account.id }.map(\.url),
                                             names: account.calendarNames)
        var change = CalDAVChoice.reconcile(found: try fetch.client.calendars(home, endpoint), connected: connected.map(\.remoteURL),
                                            names: account.calendarNames, excluded: account.excludedURLs.union(published), syncURL: syncURL)
        // A calendar made since that holds focus's history (another machine's sync calendar) is
        // not busy time, as at connect: left out, and never read again.
        let histories = try ConnectedCalendarFetch.histories(change.added, client: fetch.client, endpoint: endpoint)
        change.added.removeAll { histories.contains($0.url) }
        try db.excludeConnectedCalendars(accountID: account.id, urls: histories.sorted())
        guard !change.isEmpty else {
            // `calendar list` shows what the last refresh changed: nothing, now.
            if !account.lastChange.isEmpty { try db.noteAccountChange(accountID: account.id, [], at: env.now()) }
            return ([], false)
        }
        var added: [(url: String, name: String)] = []
        let stored = try db.calendars()
        for calendar in change.added {
            // A name another source already has gets the account's host after it, as at connect.
            var name = calendar.displayName
            if stored.contains(where: { TaskCatalog.key($0.name) == TaskCatalog.key(name) }) { name += " (\(CalendarFeed.host(of: account.url)))" }
            added.append((calendar.url, name))
        }
        let keeping = Set(connected.map(\.remoteURL)).subtracting(change.removed)
        let removed = try db.removeConnectedCalendars(accountID: account.id, keeping: keeping)
        report(.accountChanged(address: account.url, added: added.map(\.name), removed: removed))
        try db.noteAccountChange(accountID: account.id, added.map { "+ " + $0.name } + removed.map { "- " + $0 }, at: env.now())
        for (calendar, entry) in zip(change.added, added) {
            do {
                let outcome = try fetch.first(calendar, name: entry.name, accountID: account.id, endpoint: endpoint, db: db, warn: report)
                report(fetch.report(outcome, name: entry.name, verb: .stored))
            } catch let error as FocusError {
                report(.notRead(name: entry.name, reason: error.description))
            }
        }
        return (Set(change.added.map(\.url)), !removed.isEmpty)
    }

    /// Fetches the feeds never fetched here: subscribed on another machine, they arrived
    /// through sync (README, "Two machines"). Until then such a feed is no busy time and
    /// `calendar list` says it was not fetched yet; a failure is a warning, and the next sync or
    /// refresh tries again. What it has to say goes to `report` as it happens. Returns whether
    /// busy time changed.
    package func fetchArrivedFeeds(report: (CalendarFetchReport) -> Void) -> Bool {
        guard let calendars = try? db.calendars() else { return false }
        var changed = false
        for feed in calendars where !feed.connected && CalendarFeed.isFeed(source: feed.source)
            && FeedState.decode(feed.feedState).notFetchedYet(eventCount: feed.eventCount) {
            do {
                let fetched = try refreshFeed(feed, warn: report)
                report(fetched)
                changed = fetched.storedNewCopy || changed
            } catch {
                report(.notFetchedYet(name: feed.name, reason: (error as? FocusError)?.description ?? "\(error)"))
            }
        }
        return changed
    }

    static func label(_ feed: CalendarSummary) -> String {
        "calendar '\(feed.name)' (\(CalendarFeed.shownAddress(feed.source)))"
    }

    private func refreshFeed(_ feed: CalendarSummary, warn: (CalendarFetchReport) -> Void) throws -> CalendarFetchReport {
        let fetcher = FeedFetcher(env: env, client: env.feeds)
        let state = FeedState.decode(feed.feedState)
        let label = Self.label(feed)
        do {
            let setting = StoredSetting(kind: .feed, url: feed.source, caFile: state.caFile, insecure: state.insecure ?? false)
            try TrustStore(env: env).require(setting, mayAsk: login.mayPrompt, again:
                "Run `focus calendar refresh '\(DisplayText(feed.name).string)'` at a terminal to be asked, or subscribe to its address yourself (`focus calendar list --json` shows it).")
            if let caFile = state.caFile { try InputFile.check(caFile) }
            switch try CalendarFeed.fetch(feed.source, state: state, conditional: !acceptEmpty, label: label, client: fetcher.client) {
            case .unchanged:
                var state = state
                state.fetchedAt = env.now()
                state.lastError = nil
                state.lastErrorAt = nil
                try db.updateFeedState(calendarID: feed.id, state: state.encoded)
                return .unchanged(name: feed.name, events: feed.eventCount)
            case let .body(data, etag, modified):
                var next = state
                next.etag = etag
                next.lastModified = modified
                return try fetcher.store(data, address: feed.source, state: next, name: feed.name, nameFallback: feed.name, label: label, db: db,
                                         verb: .refreshed, keptEvents: feed.eventCount, acceptEmpty: acceptEmpty, calendarID: feed.id, warn: warn)
            }
        } catch let error as FocusError {
            let since = state.fetchedAt ?? feed.importedAt
            let kept = CalendarFeed.failure(error, name: feed.name, label: label, keptSince: RelativeTime.moment(since, calendar: env.calendar, now: env.now()))
            var failed = state
            failed.lastError = kept.description
            failed.lastErrorAt = env.now()
            try db.updateFeedState(calendarID: feed.id, state: failed.encoded)
            throw kept
        }
    }
}
