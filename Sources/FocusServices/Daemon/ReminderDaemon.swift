import FocusCore
import FocusStorage
import FocusSystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The loop of `focus daemon`: look at the plan, post the reminders due now (each once),
/// settle blocks that ended, then sleep until the next due instant, waking at least every
/// `checkInterval` to notice plan changes other `focus` commands made (or a database file
/// renamed over the one it watches), and at once for a signal. What to do at each wake is
/// decided by `DaemonPlan`, a pure value; this loop performs it.
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
    /// The file at the database's path now (`FileIdentity.of`); nil when none is there.
    package var identity: @Sendable () -> FileIdentity? = { nil }
    /// The file `database` was opened from, as seen just before it was opened (a file renamed
    /// over it in between is then noticed at the first wake, never missed).
    package var openedIdentity: FileIdentity?
    /// Opens the database at its path afresh (it was renamed over); called once the open one
    /// was let go, so that the old file's write-ahead log is closed before the new one is read.
    package var reopen: (@Sendable () throws(FocusError) -> AppDatabase)?
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

    /// What the loop holds besides its plan: the network job running beside it.
    private struct LoopState {
        var plan: DaemonPlan<DatabaseFingerprint>
        /// The network job running beside the loop (`plan.jobs.running` says which).
        var background: (task: Task<Void, Never>, done: BackgroundJob)?
        let origin: C.Instant

        func monotonic(_ clock: C) -> Double { ReminderDaemon.seconds(origin.duration(to: clock.now)) }
    }

    /// Runs until a stop event: each wake observes the clocks and the database, and performs
    /// what the plan (`DaemonPlan`) says: reopen a database renamed over, read the plan, post
    /// what is due, start the network job that is due, sleep until the next due instant.
    package mutating func run() async {
        let start = now()
        let jobs = DaemonJobs(now: start, canRefresh: refreshCalendars != nil, canSync: syncData != nil,
                              canPublish: publishPlan != nil, refreshSeconds: config.calendarRefreshSeconds,
                              syncIntervalSeconds: config.syncIntervalSeconds, syncDelaySeconds: ReminderDaemon.seconds(syncDelay))
        var plan = DaemonPlan<DatabaseFingerprint>(wall: start, monotonic: 0, identity: openedIdentity,
                                                   summarySentFor: try? database.lastSummaryDay(), jobs: jobs)
        plan.jumpThresholdSeconds = jumpThresholdSeconds
        var state = LoopState(plan: plan, origin: clock.now)
        while true {
            let wall = now()
            let step = state.plan.observe(.init(wall: wall, monotonic: state.monotonic(clock), fingerprint: fingerprint(), identity: identity()))
            perform(step, &state, at: wall)
            if step.read, await readPlan(&state, at: wall) {
                continue  // blocks were settled: the plan is read again at once
            }
            let summary = DaySummarySchedule.decide(at: config.summaryTime, lastSent: state.plan.summarySentFor, now: wall, calendar: calendar)
            if let day = summary.due {
                state.plan.summarySentFor = day
                await sendSummary(day, notifier: makeNotifier(config), at: wall)
            }
            runJobs(&state, at: wall)
            let delay = state.plan.delay(check: checkInterval, others: [summary.next].compactMap { $0 } + state.plan.jobs.wakes, now: now())
            switch await wait(delay) {
            case .stop?:
                state.background?.task.cancel()
                return
            case .reload?:
                reload(&state)
            case nil:
                break
            }
        }
    }

    /// What the plan said besides reading: a line for a clock that jumped, the database opened
    /// afresh, a sync scheduled after a local change.
    private mutating func perform(_ step: DaemonPlan<DatabaseFingerprint>.Step, _ state: inout LoopState, at wall: Date) {
        if let moved = step.clockMovedSeconds {
            log("the wall clock moved \(moved) s against the monotonic clock (suspend or clock change); looking again")
        }
        if step.reopen, let reopen {
            let seen = identity()
            do {
                // The old connection goes first: its write-ahead log has the name the new one's gets.
                database = try AppDatabase.inMemory()
                database = try reopen()
                state.plan.opened(seen, summarySentFor: try? database.lastSummaryDay())
                log("the database file was replaced; reading the new one")
            } catch {
                log("warning: the database file was replaced and could not be opened (\(error.description)). Trying again in a few seconds.")
            }
        }
        if step.dataChanged, state.plan.jobs.watchesLocalChanges, let signature = syncSignature?() {
            state.plan.jobs.dataChanged(to: signature, at: wall)
        }
    }

    /// Reads the plan, posts the reminders due now and tells the plan what came of it; true
    /// when blocks that ended are to be settled (the plan changed: it is read again at once).
    private func readPlan(_ state: inout LoopState, at wall: Date) async -> Bool {
        do {
            // From a day back: planned blocks that ended since are settled.
            let read = try database.reminderState(from: wall.addingTimeInterval(-horizonSeconds), to: wall.addingTimeInterval(horizonSeconds))
            let decision = ReminderSchedule.decide(blocks: read.blocks, sent: read.sent, runningBlockID: read.runningBlockID,
                                                   leadSeconds: config.reminderSeconds, now: wall, calendar: calendar)
            if !decision.due.isEmpty {
                // Remembered first: a notice lost to a crash is better than one repeated every few seconds.
                try database.recordSent(decision.due.map(\.reminder), at: wall)
                await post(decision.due, blocks: read.blocks)
            }
            state.plan.jobs.planRead(read.blocks.flatMap { [$0.id, Int64($0.start.timeIntervalSince1970), Int64($0.end.timeIntervalSince1970)] }
                + (publishPending?() == true ? [-Int64(wall.timeIntervalSince1970 / 60)] : []))
            // A new period of recurring work needs its instance planned (README, "Planning").
            let today = calendar.day(of: wall)
            let newPeriod = state.plan.checksNewPeriod(today: today) ? try database.instancesAreDue(now: wall, calendar: calendar) : false
            let settles = state.plan.planRead(nextWake: decision.nextWake, endedBlockIDs: decision.endedBlockIDs, newPeriod: newPeriod,
                                              today: today, fingerprint: fingerprint())
            if settles { settle(config, database) }
            return settles
        } catch {
            // A locked or unreadable database is tried again at the next wake, never fatal.
            log("warning: \(error.description) Trying again in a few seconds.")
            state.plan.readFailed()
        }
        return false
    }

    /// Posts due reminders; a block's start reminder runs the `block-starts` hook.
    private func post(_ due: [DueReminder], blocks: [ReminderBlock]) async {
        let notifier = makeNotifier(config)
        for item in due {
            log("reminded: \(item.notice.summary)")  // logged first: the log never lags the notice
            await notifier.post(item.notice)
            if item.reminder.kind == .start, let block = blocks.first(where: { $0.id == item.reminder.blockID }) {
                // Not waited for: a slow hook must not delay the next reminder.
                let hooks = self.hooks
                Task { await hooks.run(.blockStarts, payload: SessionHooks.blockStarts(block)) }
            }
        }
    }

    /// Notices the network job that finished (at the next wake; what a refresh stored changed
    /// the database files, which the fingerprint sees) and starts the one due, if any.
    private mutating func runJobs(_ state: inout LoopState, at wall: Date) {
        if let job = state.background, job.done.isDone {
            if state.plan.jobs.running == .sync {
                state.plan.syncFinished()
                // Settings from the other machines may have changed the config file.
                if let reloaded = try? reloadConfig() { config = reloaded }
            }
            state.plan.jobs.finished(at: now())
            state.background = nil
        }
        guard let kind = state.plan.jobs.next(at: wall) else { return }
        let config = self.config
        let done = BackgroundJob()
        let work: (@Sendable (FocusConfig) async -> Void)?
        switch kind {
        case .refresh: work = refreshCalendars
        case .publish: work = publishPlan
        case .sync:
            work = syncData
            state.plan.jobs.syncStarted(signature: syncSignature?())
        }
        guard let work else { return }
        state.background = (Task { await work(config); done.finish() }, done)
    }

    /// SIGHUP: the config read again; the plan is read again with it.
    private mutating func reload(_ state: inout LoopState) {
        do {
            config = try reloadConfig()
            log("config reloaded")
            state.plan.jobs.reloaded(refreshSeconds: config.calendarRefreshSeconds, syncIntervalSeconds: config.syncIntervalSeconds, at: now())
        } catch {
            log("warning: the config was not reloaded (\(error.description)); keeping the old one")
        }
        state.plan.reloaded()
    }

    /// Posts the end-of-day summary of `day`, once (remembered in the database first).
    private func sendSummary(_ day: LocalDate, notifier: any Notifier, at now: Date) async {
        do {
            guard try database.recordSummary(day: day, at: now) else { return }
            let totals = try database.dayTotals(from: calendar.startOfDay(day), to: calendar.startOfDay(day.adding(days: 1)))
            let notice = DaySummarySchedule.notice(focusedSeconds: totals.focusedSeconds, completed: totals.completed,
                                                   interrupted: totals.interrupted)
            log("summary: \(notice.summary)")
            await notifier.post(notice)
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
    private let state = Mutex(false)
    package init() {}
    package var isDone: Bool { state.withLock { $0 } }
    package func finish() { state.withLock { $0 = true } }
}
