import FocusCore
import FocusStorage
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The loop of `focus daemon`: look at the plan, post the reminders due now (each once),
/// settle blocks that ended, then sleep until the next due instant, waking at least every
/// `checkInterval` to notice plan changes other `focus` commands made, and at once for a signal.
package struct ReminderDaemon<C: Clock>: Sendable where C.Duration == Duration {
    package var clock: C
    package var now: @Sendable () -> Date
    package var database: AppDatabase
    package var inbox: DaemonInbox
    package var config: FocusConfig
    package var calendar: LocalCalendar
    /// Reads the config again (SIGHUP).
    package var reloadConfig: @Sendable () throws(FocusError) -> FocusConfig
    /// A notifier for a config (notifications may have been turned off). Called afresh for each
    /// batch of notices: desktop notifiers fall back for good after a failure, and a daemon
    /// outlives notification servers that restart or come up after it.
    package var makeNotifier: @Sendable (FocusConfig) -> any Notifier
    /// Re-plans with a config, settling ended blocks as done, partial or missed.
    package var settle: @Sendable (FocusConfig, AppDatabase) -> Void
    /// A cheap fingerprint of the database files; nil means "unknown, read again".
    package var fingerprint: @Sendable () -> DatabaseFingerprint?
    /// Diagnostics (standard error, the journal under systemd).
    package var log: @Sendable (String) -> Void
    /// The person's hook scripts: `block-starts` runs as a block's start reminder is posted.
    package var hooks: any HookRunner = NoHooks()
    package var checkInterval: Duration = .seconds(5)
    /// How far ahead to read planned blocks.
    package var horizonSeconds: TimeInterval = 86_400
    /// A wall clock that moved this much more (or less) than the monotonic one was changed or suspended.
    package var jumpThresholdSeconds: Double = 2
    /// Fetches the live calendars, re-plans and says what moved (`calendar_refresh`). Run
    /// beside the loop, never in it: a server that hangs must not delay a reminder.
    package var refreshCalendars: (@Sendable (FocusConfig) async -> Void)?
    /// Writes the plan to the calendars it is published in, after the plan changed (beside the
    /// loop too).
    package var publishPlan: (@Sendable (FocusConfig) async -> Void)?
    /// Whether the last publication failed (offline): it is tried again every minute.
    package var publishPending: (@Sendable () -> Bool)?
    /// Syncs with the sync calendar (README, "Two machines"): at start, every `sync_interval`,
    /// and `syncDelay` after a local change (changes made in a burst go in one sync).
    package var syncData: (@Sendable (FocusConfig) async -> Void)?
    /// A cheap summary of what a sync sends (it changes when a task, subtask or session is added,
    /// edited or removed); nil when sync is not set up.
    package var syncSignature: (@Sendable () -> [Int64]?)?
    package var syncDelay: Duration = .seconds(10)

    package init(clock: C, now: @escaping @Sendable () -> Date, database: AppDatabase, inbox: DaemonInbox, config: FocusConfig,
                 calendar: LocalCalendar, reloadConfig: @escaping @Sendable () throws(FocusError) -> FocusConfig,
                 makeNotifier: @escaping @Sendable (FocusConfig) -> any Notifier,
                 settle: @escaping @Sendable (FocusConfig, AppDatabase) -> Void,
                 fingerprint: @escaping @Sendable () -> DatabaseFingerprint?, log: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.now = now
        self.database = database
        self.inbox = inbox
        self.config = config
        self.calendar = calendar
        self.reloadConfig = reloadConfig
        self.makeNotifier = makeNotifier
        self.settle = settle
        self.fingerprint = fingerprint
        self.log = log
    }

    /// Runs until a stop event.
    package mutating func run() async {
        var lastFingerprint: DatabaseFingerprint?
        var nextWake: Date?
        var mustRead = true
        var settled = Set<Int64>()
        var lastWall = now()
        var lastMono = clock.now
        var summarySentFor = try? database.lastSummaryDay()
        // Network work runs one job at a time beside the loop: a refresh (which publishes
        // too) when `calendar_refresh` comes round, else a publication when the plan changed.
        var background: (task: Task<Void, Never>, done: BackgroundJob, kind: BackgroundJob.Kind)?
        var nextSync: Date? = syncData == nil ? nil : now()
        var syncedSignature: [Int64]?
        var syncStartSignature: [Int64]?
        var nextRefresh: Date? = config.calendarRefreshSeconds == nil || refreshCalendars == nil ? nil : now()
        var publishedPlan: [Int64]?
        var planSignature: [Int64]?
        while true {
            let wall = now()
            let mono = clock.now
            let drift = wall.timeIntervalSince(lastWall) - ReminderDaemon.seconds(lastMono.duration(to: mono))
            if abs(drift) > jumpThresholdSeconds {
                log("the wall clock moved \(Int(drift.rounded())) s against the monotonic clock (suspend or clock change); looking again")
                mustRead = true
            }
            lastWall = wall
            lastMono = mono
            let current = fingerprint()
            let databaseChanged = current == nil || current != lastFingerprint
            if databaseChanged { mustRead = true }
            if databaseChanged, background?.kind != .sync, let synced = syncedSignature, let signature = syncSignature?(), signature != synced {
                // A local change: synced a moment later, with whatever follows it.
                nextSync = wall.addingTimeInterval(ReminderDaemon.seconds(syncDelay))
                syncedSignature = signature
            }
            if let w = nextWake, w <= wall { mustRead = true }

            if mustRead {
                do {
                    // From a day back: planned blocks that ended since are settled.
                    let state = try database.reminderState(from: wall.addingTimeInterval(-horizonSeconds), to: wall.addingTimeInterval(horizonSeconds))
                    let decision = ReminderSchedule.decide(blocks: state.blocks, sent: state.sent, runningBlockID: state.runningBlockID,
                                                           leadSeconds: config.reminderSeconds, now: wall, calendar: calendar)
                    if !decision.due.isEmpty {
                        // Remembered first: a notice lost to a crash is better than one repeated every few seconds.
                        try database.recordSent(decision.due.map(\.reminder), at: wall)
                        let notifier = makeNotifier(config)
                        for due in decision.due {
                            await notifier.post(due.notice)
                            log("reminded: \(due.notice.summary)")
                            if due.reminder.kind == .start, let block = state.blocks.first(where: { $0.id == due.reminder.blockID }) {
                                // Not waited for: a slow hook must not delay the next reminder.
                                let hooks = self.hooks
                                Task { await hooks.run(.blockStarts, payload: SessionHooks.blockStarts(block)) }
                            }
                        }
                    }
                    nextWake = decision.nextWake
                    planSignature = state.blocks.flatMap { [$0.id, Int64($0.start.timeIntervalSince1970), Int64($0.end.timeIntervalSince1970)] }
                        + (publishPending?() == true ? [-Int64(wall.timeIntervalSince1970 / 60)] : [])
                    let ended = Set(decision.endedBlockIDs)
                    mustRead = false
                    if !ended.isSubset(of: settled) {
                        settled.formUnion(ended)
                        settle(config, database)
                        mustRead = true
                        lastFingerprint = nil
                        continue
                    }
                    lastFingerprint = fingerprint()
                } catch {
                    // A locked or unreadable database is tried again at the next wake, never fatal.
                    log("warning: \(error.description) Trying again in a few seconds.")
                    mustRead = true
                }
            }

            let summary = DaySummarySchedule.decide(at: config.summaryTime, lastSent: summarySentFor, now: wall, calendar: calendar)
            if let day = summary.due {
                summarySentFor = day
                await sendSummary(day, notifier: makeNotifier(config), at: wall)
            }

            // A finished job is noticed at the next wake; what a refresh stored changed the
            // database files, which the fingerprint sees.
            if let job = background, job.done.isDone {
                if job.kind == .sync {
                    // What the data was when the sync began: a change made while it ran (or the
                    // sync's own writes) is seen as new, and costs at most one more quiet sync.
                    syncedSignature = syncStartSignature ?? []
                    // Settings from the other machines may have changed the config file.
                    if let reloaded = try? reloadConfig() { config = reloaded }
                    nextSync = config.syncIntervalSeconds.map { now().addingTimeInterval(Double($0)) }
                    lastFingerprint = nil
                }
                background = nil
            }
            if background == nil {
                let config = self.config
                let done = BackgroundJob()
                if let due = nextRefresh, due <= wall, let refresh = refreshCalendars, let interval = config.calendarRefreshSeconds {
                    nextRefresh = wall.addingTimeInterval(Double(interval))
                    publishedPlan = planSignature
                    background = (Task { await refresh(config); done.finish() }, done, .refresh)
                } else if let due = nextSync, due <= wall, let sync = syncData {
                    nextSync = nil
                    syncStartSignature = syncSignature?()
                    background = (Task { await sync(config); done.finish() }, done, .sync)
                } else if let publish = publishPlan, let signature = planSignature, signature != publishedPlan {
                    publishedPlan = signature
                    background = (Task { await publish(config); done.finish() }, done, .publish)
                }
            }

            var delay = checkInterval
            // A job that is due while another runs waits for it: its time is not a wake (it would
            // be in the past, and the loop would spin until the running job ends).
            let jobTimes = background == nil ? [nextRefresh, nextSync] : []
            if let w = ([nextWake, summary.next] + jobTimes).compactMap({ $0 }).min() {
                let untilDue = max(0, w.timeIntervalSince(now()))
                delay = min(delay, .milliseconds(Int64((untilDue * 1000).rounded(.up))))
            }
            switch await wait(delay) {
            case .stop?:
                background?.task.cancel()
                return
            case .reload?:
                do {
                    config = try reloadConfig()
                    log("config reloaded")
                    if let interval = config.calendarRefreshSeconds, refreshCalendars != nil {
                        nextRefresh = min(nextRefresh ?? now().addingTimeInterval(Double(interval)), now().addingTimeInterval(Double(interval)))
                    } else {
                        nextRefresh = nil
                    }
                    if syncData != nil { nextSync = config.syncIntervalSeconds.map { now().addingTimeInterval(Double($0)) } ?? nextSync }
                } catch {
                    log("warning: the config was not reloaded (\(error.description)); keeping the old one")
                }
                mustRead = true
            case nil:
                break
            }
        }
    }

    /// Posts the end-of-day summary of `day`, once (remembered in the database first).
    private func sendSummary(_ day: LocalDate, notifier: any Notifier, at now: Date) async {
        do {
            guard try database.recordSummary(day: day, at: now) else { return }
            let totals = try database.dayTotals(from: calendar.startOfDay(day), to: calendar.startOfDay(day.adding(days: 1)))
            let notice = DaySummarySchedule.notice(focusedSeconds: totals.focusedSeconds, completed: totals.completed,
                                                   interrupted: totals.interrupted)
            await notifier.post(notice)
            log("summary: \(notice.summary)")
        } catch {
            log("warning: the day's summary was not sent (\(error.description))")
        }
    }

    /// Sleeps for `delay` unless an event comes first.
    private func wait(_ delay: Duration) async -> DaemonEvent? {
        let clock = self.clock
        let inbox = self.inbox
        return await withTaskGroup(of: DaemonEvent?.self) { group in
            group.addTask {
                try? await clock.sleep(for: delay)
                return nil
            }
            group.addTask { await inbox.next() }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            // The timer went off first, but the inbox may have handed over an event in the same
            // instant: it is taken, not dropped with the cancelled child (a lost SIGTERM kept a
            // daemon running).
            for await late in group {
                if let late { return late }
            }
            return nil
        }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// Whether a job the daemon started beside its loop has finished.
package final class BackgroundJob: Sendable {
    /// What the daemon runs beside its loop, one at a time.
    package enum Kind: Sendable { case refresh, publish, sync }
    private let state = Mutex(false)
    package init() {}
    package var isDone: Bool { state.withLock { $0 } }
    package func finish() { state.withLock { $0 = true } }
}

/// Size and modification time of the database and its write-ahead log: any commit by any
/// process changes one of them, and reading them costs two `stat` calls, no SQLite.
package struct DatabaseFingerprint: Sendable, Equatable {
    var parts: [Int64]

    package static func of(path: String) -> DatabaseFingerprint? {
        var parts: [Int64] = []
        for file in [path, path + "-wal"] {
            var info = stat()
            if stat(file, &info) == 0 {
                parts += [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
            } else {
                parts += [-1]
            }
        }
        return DatabaseFingerprint(parts: parts)
    }
}
