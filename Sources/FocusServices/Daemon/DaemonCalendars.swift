import Dispatch
import FocusCore
import FocusRendering
import FocusText
import FocusStorage
import FoundationEssentials

/// The daemon's network jobs (README, "Your real calendar"): every `calendar_refresh`, fetch the
/// subscribed and connected calendars, re-plan when busy time changed and say what moved; and
/// after any change of plan, publish it where it is published. Each runs on a thread of its
/// own, beside the reminder loop, so a server that hangs delays no reminder.
package enum DaemonCalendars {
    /// Lines the refresh would print go to the daemon's log, each prefixed as its others are.
    struct LogConsole: Console {
        let log: @Sendable (String) -> Void
        var isInteractive: Bool { false }
        var allowsColor: Bool { false }
        var width: Int { 80 }
        func out(_ text: String) { for line in text.split(separator: "\n") { log(String(line)) } }
        func err(_ text: String) {
            for line in text.split(separator: "\n") { log(line.hasPrefix("focus: ") ? String(line.dropFirst(7)) : String(line)) }
        }
    }

    /// One refresh round: fetch, re-plan, notify what moved, publish.
    package static func refresh(_ env: ServiceContext, _ db: AppDatabase, notifier: any Notifier, log: @escaping @Sendable (String) -> Void) async {
        var logged = env
        logged.console = LogConsole(log: log)
        let env = logged
        let notices: [Notice] = await onThread {
            do {
                return try refreshRound(env, db, log: log)
            } catch {
                log("warning: the calendars were not refreshed (\((error as? FocusError)?.description ?? "\(error)"))")
                return []
            }
        }
        // The log line first: whoever has seen the notice can read why in the log, even when the
        // daemon is stopped the moment the notice is out.
        for notice in notices {
            log("plan changed: \(notice.summary)")
            await notifier.post(notice)
        }
    }

    /// The live calendars (subscribed or connected) not fetched within `refreshSeconds` of
    /// `now`, 30 seconds' grace: a restart or a `calendar refresh` by hand does not fetch again
    /// what is fresh. A failed fetch and a copy kept aside count as fetched.
    package static func due(_ calendars: [CalendarSummary], now: Date, refreshSeconds: Int?) -> [CalendarSummary] {
        let interval = Double(refreshSeconds ?? 0)
        return calendars.filter { $0.connected || CalendarFeed.isFeed(source: $0.source) }.filter { c in
            let state = FeedState.decode(c.feedState)
            let last = [state.fetchedAt, state.lastErrorAt, state.emptyKeptAsideAt, c.importedAt].compactMap { $0 }.max() ?? c.importedAt
            return now.timeIntervalSince(last) >= interval - 30
        }
    }

    /// Fetches the calendars due (the accounts listed again first when one of theirs is), and
    /// when busy time changed re-plans and returns the notices of what moved; publishes.
    private static func refreshRound(_ env: ServiceContext, _ db: AppDatabase, log: @escaping @Sendable (String) -> Void) throws -> [Notice] {
        let live = due(try db.calendars(), now: env.now(), refreshSeconds: env.config.calendarRefreshSeconds)
        guard !live.isEmpty else { return [] }
        let now = env.now()
        let window = (now, now.addingTimeInterval(14 * 86_400))
        let blocksBefore = try blocks(db, now: now)
        let risksBefore = try risks(db)
        let busyBefore = try db.busyEvents(from: window.0, to: window.1, zone: env.calendar, expand: Planning.expansion(env, db))
        let refresher = CalendarRefresher(env: env, db: db, login: CalDAVLogin(mayPrompt: false))
        var changed = false
        var added = Set<String>()
        let say = { (report: CalendarFetchReport) in CalendarFetchRenderer.say(report, on: env.console) }
        if live.contains(where: \.connected) {
            (added, changed) = refresher.refreshAccounts(report: say)
        }
        for calendar in live where !added.contains(calendar.source) {
            do {
                guard let fetched = try refresher.refresh(calendar, warn: say) else { continue }
                say(fetched)
                changed = fetched.storedNewCopy || changed
            } catch {
                log("warning: " + ((error as? FocusError)?.description ?? "\(error)"))
            }
        }
        var notices: [Notice] = []
        if changed {
            _ = Planning.replanIfStale(env, db)
            let before = Set(busyBefore.map { BusyKey($0) })
            let added = try db.busyEvents(from: window.0, to: window.1, zone: env.calendar, expand: Planning.expansion(env, db))
                .filter { !before.contains(BusyKey($0)) }
            notices = PlanChanges.notices(before: blocksBefore, after: try blocks(db, now: now), riskBefore: risksBefore,
                                          riskAfter: try risks(db), newEvents: added, previousSummaries: Set(busyBefore.map(\.summary)),
                                          now: now, calendar: env.calendar)
        }
        for report in PlanPublisher.publishAll(env: env, db: db, login: CalDAVLogin(mayPrompt: false), endpoints: refresher.endpoints.value) {
            log(PublishRenderer.line(report).string)
        }
        return notices
    }

    /// Publishes the plan where it is published (after a change of plan another command made).
    package static func publish(_ env: ServiceContext, _ db: AppDatabase, log: @escaping @Sendable (String) -> Void) async {
        var logged = env
        logged.console = LogConsole(log: log)
        let env = logged
        await onThread {
            for report in PlanPublisher.publishAll(env: env, db: db, login: CalDAVLogin(mayPrompt: false)) { log(PublishRenderer.line(report).string) }
        }
    }

    /// One sync with the sync calendar (README, "Two machines"), then a re-plan when it brought
    /// changes. Nothing happens when sync is not set up.
    package static func sync(_ env: ServiceContext, _ db: AppDatabase, log: @escaping @Sendable (String) -> Void) async {
        await onThread {
            do {
                guard let target = try db.syncTarget() else { return }
                let endpoint = try CalDAVLogin(mayPrompt: false).endpoint(of: target, db: db, env: env)
                let summary = try SyncEngine.sync(target, endpoint: endpoint, db: db, env: env)
                if summary.received + summary.deletedHere + summary.sent + summary.deletedThere > 0 || !summary.warnings.isEmpty {
                    for (line, _) in SyncRenderer.lines(summary, calendar: target.name) { log(line.string) }
                }
                if summary.received + summary.deletedHere > 0 {
                    _ = Planning.replanIfStale(env, db)
                    // What came in changed the plan: the published calendar follows at once.
                    for report in PlanPublisher.publishAll(env: env, db: db, login: CalDAVLogin(mayPrompt: false), onlyWhenChanged: true) {
                        log(PublishRenderer.line(report).string)
                    }
                }
            } catch {
                log("warning: sync failed: " + ((error as? FocusError)?.description ?? "\(error)"))
            }
        }
    }

    private struct BusyKey: Hashable {
        let start: Date, end: Date, summary: String, calendar: String
        init(_ e: BusyEvent) {
            start = e.start
            end = e.end
            summary = e.summary
            calendar = e.calendar
        }
    }

    private static func blocks(_ db: AppDatabase, now: Date) throws -> [PlanChanges.Block] {
        try db.blocks(startingFrom: now.addingTimeInterval(-86_400)).filter { $0.status == .planned }.map {
            PlanChanges.Block(subtaskID: $0.subtaskID, path: $0.path, start: $0.start, end: $0.end)
        }
    }

    private static func risks(_ db: AppDatabase) throws -> [PlanChanges.Risk] {
        try db.savedRisks().map {
            PlanChanges.Risk(path: "\($0.task)/\($0.subtask)", due: $0.due, neededSeconds: $0.neededSeconds, freeSeconds: $0.freeSeconds)
        }
    }

    /// Runs blocking work (libcurl, a password command, SQLite) on a thread of its own, never on
    /// the cooperative pool the reminder loop needs.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async { continuation.resume(returning: work()) }
        }
    }
}
