import FocusServices
import FocusText
import FocusCore
import FocusNotifications
import FocusStorage
import FoundationEssentials
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One run of sessions in this terminal, as `start` and `continue` begin it: the view, the
/// signals and keys, the claim on the one running session, the runner, and what is said after.
struct LiveRun {
    let env: FocusEnvironment
    let db: AppDatabase
    let target: PathTarget
    let blockID: Int64?
    let catalog: TaskCatalog
    let plan: SessionPlan
    /// Started by the command before anything else; stopped when the run ends.
    let signals: SignalRouter
    /// The tags the sessions are filed under (`--tag`, README "Tags"), already checked.
    var tags: [String]

    /// Where the session is shown and where problems go.
    struct Screen {
        var view: any SessionView
        var live: LiveSessionView?
        var fallback: any Notifier
        var warn: @Sendable (String) -> Void
    }

    /// The terminal the keys come from and its mode.
    struct Keyboard {
        var tty: ControllingTerminal?
        var terminal: TerminalMode
        var keys: KeyReader
        let mailbox: Mailbox<SessionCommand>

        /// Continued after a stop (`fg`, or `focus stop` from elsewhere): the countdown's terminal
        /// mode and keys come back only in the foreground (a background job leaves the terminal be).
        var regain: @Sendable () -> Void {
            { [tty, terminal, keys, mailbox] in
                guard tty?.isForeground == true else { return }
                terminal.enter()
                keys.start(mailbox: mailbox)
            }
        }
    }

    func run() async throws {
        let startedAt = env.now()
        let today = env.calendar.day(of: startedAt)
        let todayBefore = try db.focusedSeconds(from: env.calendar.startOfDay(today), to: env.calendar.startOfDay(today.adding(days: 1)))
        let shown = catalog.path(of: target)
        let screen = makeScreen(ViewContext(path: shown, calendar: env.calendar, todayBefore: todayBefore))
        // Keys come from the controlling terminal, so they work with the output piped
        // (`focus start X | tee log`); the cursor is hidden only for the live redraw.
        let tty = env.readsKeys ? ControllingTerminal() : nil
        let keyboard = Keyboard(tty: tty, terminal: TerminalMode(fd: tty?.fd ?? -1, hidesCursor: screen.live != nil),
                                keys: KeyReader(fd: tty?.fd ?? -1), mailbox: signals.mailbox)
        // Requests are read before the session is claimed: a `focus stop` can reach this process
        // as soon as it holds the session lock.
        signals.attach(onContinue: keyboard.regain) { [db] in Self.request(db) }
        let sessionLock: SessionLock?
        do {
            sessionLock = try claim(startedAt: startedAt)
        } catch {
            signals.stop()
            throw error
        }
        defer { sessionLock?.release() }
        let keeper = sessionLock.map(Self.keepInPlace)
        defer { keeper?.cancel() }
        let notices = SessionNotices(path: shown, todayBefore: todayBefore, enabled: env.config.notifications,
                                     workEndUrgency: env.config.urgency, expiryMilliseconds: env.config.expirySeconds * 1000)
        let outcome = await runSessions(screen: screen, keyboard: keyboard, notices: notices)
        // The session ended when it was recorded: the lock goes with it now, before any question,
        // so that `start`, `stop` and `status` elsewhere all agree it is over.
        keeper?.cancel()
        sessionLock?.release()
        signals.stop()
        Planning.replanIfStale(env.services, db)
        try finish(outcome, live: screen.live != nil)
    }

    /// Another `focus` left a request in the running-session row.
    static func request(_ db: AppDatabase) -> SessionCommand? {
        guard let (request, reason) = try? db.takeRequest() else { return nil }
        switch request {
        case .stop: return .stop(.elsewhere(reason: reason))
        case .pause: return .pause
        case .resume: return .resume
        case .skip: return .skip
        }
    }

    private func makeScreen(_ context: ViewContext) -> Screen {
        guard env.console.isInteractive else {
            let console = env.console
            return Screen(view: PlainSessionView(console: console, context: context, now: env.now), live: nil,
                          fallback: TerminalNotifier(console: console, bell: false), warn: { console.note(DisplayText($0)) })
        }
        // In the live view everything goes through the view, so the redraw stays intact.
        let shown = LiveSessionView(console: env.console, context: context, bell: env.config.bell)
        return Screen(view: shown, live: shown, fallback: shown, warn: { shown.emit("focus: \($0)") })
    }

    /// The session lock, taken inside the transaction that claims the running-session row:
    /// while this process lives, every other focus knows it runs and which process it is.
    private func claim(startedAt: Date) throws -> SessionLock? {
        let first = SessionSnapshot(
            phase: .work, cycle: 1, cycles: plan.cycles, plannedSeconds: plan.workSeconds, remaining: .seconds(plan.workSeconds),
            isPaused: false, phaseStartedAt: startedAt,
            endsAt: plan.isOpen ? nil : startedAt.addingTimeInterval(Double(plan.workSeconds)),
            focusedSeconds: 0, workStartedAt: startedAt, workPlannedSeconds: plan.workSeconds)
        var sessionLock: SessionLock?
        do {
            let recovered = try db.claimSession(
                ActiveSession(pid: getpid(), taskID: target.taskID, subtaskID: target.subtaskID, blockID: blockID, snapshot: first, checkpointAt: startedAt,
                              tags: tags),
                now: startedAt
            ) { () throws(FocusError) in sessionLock = try SessionLock.acquire(database: db.path) }
            if let recovered { SessionRecovery.tell(recovered.session, recovered.log, calendar: env.calendar, console: env.console) }
        } catch {
            sessionLock?.release()
            throw error
        }
        return sessionLock
    }

    /// The lock file put back within half a second if something removes it meanwhile.
    private static func keepInPlace(_ lock: SessionLock) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5, leeway: .milliseconds(100))
        timer.setEventHandler { lock.keepInPlace() }
        timer.resume()
        return timer
    }

    private func runSessions(screen: Screen, keyboard: Keyboard, notices: SessionNotices) async -> SessionRunner<SuspendingClock>.Outcome {
        if keyboard.tty?.isForeground == true {
            keyboard.terminal.enter()
            keyboard.keys.start(mailbox: keyboard.mailbox)
        }
        // For good: a SIGCONT handled on the signal pipe's thread after this (`regain`) must
        // not put the terminal back in cbreak mode once the run is over.
        defer {
            keyboard.keys.finish()
            keyboard.terminal.finish()
        }
        let awake = SuspendingClock(), continuous = ContinuousClock()
        let awakeOrigin = awake.now, continuousOrigin = continuous.now
        let pid = getpid()
        var runner = SessionRunner(
            clock: awake, now: env.now,
            store: DatabaseSessionStore(database: db, pid: pid, taskID: target.taskID, subtaskID: target.subtaskID, blockID: blockID, now: env.now),
            view: screen.view, notifier: env.makeNotifier(screen.fallback, screen.warn), notices: notices, mailbox: keyboard.mailbox,
            tick: screen.live != nil ? .milliseconds(250) : nil)
        let names = catalog.titles(of: target)
        runner.hooks = SessionHooks(runner: env.makeHooks(screen.warn), task: names.task, subtask: names.subtask, blockID: blockID)
        runner.sleptSoFar = {
            continuousOrigin.duration(to: continuous.now) - awakeOrigin.duration(to: awake.now)
        }
        // Ctrl-Z: the runner has paused and saved the session; give the terminal back as it
        // was and stop for real, as SIGTSTP's default action would (signal(7)). SIGSTOP cannot
        // be caught, so this returns only once the process is continued.
        runner.park = { [live = screen.live, terminal = keyboard.terminal, keys = keyboard.keys, regain = keyboard.regain] in
            live?.detach()
            keys.stop()
            terminal.restore()
            raise(SIGSTOP)
            regain()
        }
        let watcher = StartCommand.watchAway(for: &runner, env: env, mailbox: keyboard.mailbox, canAsk: keyboard.tty?.isForeground == true)
        defer { watcher?.stop() }
        return await runner.run(plan: plan)
    }

    /// After the run: the reason for stopping early, and what was recorded.
    private func finish(_ outcome: SessionRunner<SuspendingClock>.Outcome, live: Bool) throws {
        let last = outcome.order.last.flatMap { id in outcome.recorded[id].map { (id: id, record: $0) } }
        // The reason given with `focus stop --reason` (or a stop by the person that carries one)
        // is kept with a session that ended early, an open one too; without one, an interrupted
        // session stopped here asks for it. An open session ends by being stopped: nothing to ask.
        if let last, last.record.status != .completed {
            switch outcome.cause {
            case let .elsewhere(reason)?, let .person(reason)?:
                if let reason, !reason.isEmpty {
                    try db.setNote(reason, forSession: last.id)
                } else if case .person? = outcome.cause, last.record.status.asksWhyWhenStopped {
                    try askWhy(forSession: last.id, live: live)
                }
            default: break
            }
        }
        let focused = outcome.recorded.values.reduce(0) { $0 + $1.focusedSeconds }
        let completed = outcome.recorded.values.filter { $0.status == .completed }.count
        let sessions = outcome.recorded.count
        let seeLog = "See `\(Resources.commandName(environment: env.environment)) log`."
        if plan.isOpen, let last {
            env.console.line("Recorded as open: \(DurationParser.format(last.record.focusedSeconds)) focused (#\(last.id)). \(seeLog)")
        } else if sessions > 0 {
            env.console.line("This run: \(completed) of \(sessions) session\(sessions == 1 ? "" : "s") completed, \(DurationParser.format(focused)) focused. \(seeLog)")
        } else if outcome.unrecorded.isEmpty {
            env.console.line("Stopped during a break; nothing more recorded.")
        }
        // A session that could not be saved is an I/O failure of the run (exit 74), whatever was
        // recorded besides it.
        if let error = outcome.recordError, !outcome.unrecorded.isEmpty {
            let n = outcome.unrecorded.count
            throw FocusError.io(path: db.path, reason: "\(n) work session\(n == 1 ? "" : "s") of this run could not be recorded (\(error.description.trimming(["."])))")
        }
    }

    /// "Why did you stop?" in the live view's terminal; a background job asks nothing (reading
    /// the terminal would stop it again).
    private func askWhy(forSession id: Int64, live: Bool) throws {
        guard live, TerminalMode.isForeground else { return }
        env.console.show("Why did you stop? (Enter to skip) ")
        if let line = TerminalMode.readLine()?.trimmingSpaces(), !line.isEmpty {
            try db.setNote(String(line.prefix(500)), forSession: id)
            env.console.line("Noted.")
        }
    }
}

extension LiveSessionView: Notifier {
    /// The fallback when desktop notifications cannot be shown: a line in the view.
    func post(_ notice: Notice) async {
        emit("🔔 \(NotificationText.singleLine(notice.summary)) — \(NotificationText.singleLine(notice.body))")
    }
}
