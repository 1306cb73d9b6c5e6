import FocusText
import ArgumentParser
import FocusCore
import FocusNotifications
import FocusStorage
import FoundationEssentials
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// `focus start [PATH] [--duration D] [--break D] [--long-break D] [--cycles N] [--count K] [--no-break]`.
package struct StartCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Run a focus session: a countdown of work and breaks, recorded in the log.",
        discussion: """
            Keys: space or p pause/resume, s skip the phase, q or Ctrl-C stop. \
            A session that reaches 0:00 is recorded as completed; stopping early records it as \
            interrupted with the time you really focused. Time behind a locked screen follows \
            config `idle`: asked about on return (k keep, d discard, s stop at the lock), \
            discarded, or kept.

            50 minutes of work, then breaks and more work:
            `focus start "Thesis/Chapter 2" --duration 50m`
            A task or subtask that is new is added first with --create:
            `focus start --create "Thesis/Chapter 5"`
            """)

    @Argument(help: ArgumentHelp("Task or Task/Subtask to work on.", valueName: "path"), completion: Completions.paths)
    var path: String?
    @Flag(help: "Add the task or subtask first if it does not exist (as `task add` would).")
    var create = false
    @Option(help: ArgumentHelp("Work length (default: config `work`, 25m).", valueName: "duration"))
    var duration: String?
    @Option(name: .customLong("break"), help: ArgumentHelp("Short break length (default: config `short_break`, 5m).", valueName: "duration"))
    var shortBreak: String?
    @Option(name: .customLong("long-break"), help: ArgumentHelp("Long break length (default: config `long_break`, 15m).", valueName: "duration"))
    var longBreak: String?
    @Option(help: ArgumentHelp("Work sessions before a long break (default: config `cycles`, 4).", valueName: "n"))
    var cycles: Int?
    @Option(help: ArgumentHelp("Stop after this many work sessions.", valueName: "k"))
    var count: Int?
    @Flag(help: "One work session, no break, then exit.")
    var noBreak = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    /// The plan from the config and this run's flags.
    func plan(config: FocusConfig) throws(FocusError) -> SessionPlan {
        func length(_ text: String?, _ what: String, _ fallback: Int, minimum: Int) throws(FocusError) -> Int {
            guard let text else { return fallback }
            let s = try DurationParser.seconds(text, what: what)
            guard s >= minimum else {
                throw .invalidValue(what: what, value: text, expected: "a duration of at least \(DurationParser.format(max(1, minimum)))")
            }
            return s
        }
        let work = try length(duration, "duration", config.workSeconds, minimum: 1)
        guard work <= 86_400 else { throw .invalidValue(what: "duration", value: duration ?? "", expected: "at most 24h") }
        if noBreak {
            if count != nil || shortBreak != nil || longBreak != nil {
                throw .usage("--no-break runs a single work session; it cannot be combined with --count, --break or --long-break.")
            }
            return .single(workSeconds: work)
        }
        if let cycles, !(1...100).contains(cycles) {
            throw .invalidValue(what: "cycles", value: String(cycles), expected: "a whole number from 1 to 100")
        }
        if let count, count < 1 { throw .invalidValue(what: "count", value: String(count), expected: "a whole number of at least 1") }
        return SessionPlan(
            workSeconds: work,
            shortBreakSeconds: try length(shortBreak, "break", config.shortBreakSeconds, minimum: 0),
            longBreakSeconds: try length(longBreak, "long break", config.longBreakSeconds, minimum: 0),
            cycles: cycles ?? config.cycles, count: count)
    }

    package func run(in env: FocusEnvironment) async throws {
        let plan = try plan(config: env.config)
        if create, path == nil {
            throw FocusError.usage("--create needs the task to add and start: `focus start --create \"Thesis/Chapter 2\"`.")
        }
        let db = try env.openDatabase()
        let (target, blockID, catalog) = try workTarget(db: db, env: env)
        let shown = catalog.path(of: target)
        let pid = getpid()
        let startedAt = env.now()

        let first = SessionSnapshot(
            phase: .work, cycle: 1, cycles: plan.cycles, plannedSeconds: plan.workSeconds, remaining: .seconds(plan.workSeconds),
            isPaused: false, phaseStartedAt: startedAt, endsAt: startedAt.addingTimeInterval(Double(plan.workSeconds)),
            focusedSeconds: 0, workStartedAt: startedAt, workPlannedSeconds: plan.workSeconds)
        let today = env.calendar.day(of: startedAt)
        let todayBefore = try db.focusedSeconds(from: env.calendar.startOfDay(today), to: env.calendar.startOfDay(today.adding(days: 1)))
        let context = ViewContext(path: shown, calendar: env.calendar, todayBefore: todayBefore)
        let live = env.console.isInteractive
        let view: any SessionView
        var liveView: LiveSessionView?
        let fallback: any Notifier
        let warn: @Sendable (String) -> Void
        if live {
            // In the live view everything goes through the view, so the redraw stays intact.
            let shown = LiveSessionView(console: env.console, context: context, bell: env.config.bell)
            liveView = shown
            view = shown
            fallback = shown
            warn = { shown.emit("focus: " + $0) }
        } else {
            view = PlainSessionView(console: env.console, context: context, now: env.now)
            fallback = TerminalNotifier(console: env.console, bell: false)
            let console = env.console
            warn = { console.note($0) }
        }
        let notices = SessionNotices(path: shown, todayBefore: todayBefore, enabled: env.config.notifications,
                                     workEndUrgency: env.config.urgency, expiryMilliseconds: env.config.expirySeconds * 1000)

        let mailbox = Mailbox<SessionCommand>()
        // Keys come from the controlling terminal, so they work with the output piped
        // (`focus start X | tee log`); the cursor is hidden only for the live redraw.
        let tty = env.readsKeys ? ControllingTerminal() : nil
        let terminal = TerminalMode(fd: tty?.fd ?? -1, hidesCursor: live)
        let keys = KeyReader(fd: tty?.fd ?? -1)
        let signals = SignalRouter()
        // Signals are routed before the session is claimed: a `focus stop` can reach this process
        // as soon as it holds the session lock, and an unrouted SIGUSR1 would kill it.
        // Continued after a stop (`fg`, or `focus stop` from elsewhere): the countdown's terminal
        // mode and keys come back only in the foreground (a background job leaves the terminal be).
        let regainTerminal: @Sendable () -> Void = { [terminal, keys, mailbox] in
            guard tty?.isForeground == true else { return }
            terminal.enter()
            keys.start(mailbox: mailbox)
        }
        signals.start(mailbox: mailbox, onContinue: regainTerminal) {
            // Another `focus` left a request in the running-session row.
            guard let (request, reason) = try? db.takeRequest() else { return nil }
            switch request {
            case .stop: return .stop(.elsewhere(reason: reason))
            case .pause: return .pause
            case .resume: return .resume
            case .skip: return .skip
            }
        }
        // The session lock, taken inside the transaction that claims the running-session row:
        // while this process lives, every other focus knows it runs and which process it is.
        var sessionLock: SessionLock?
        do {
            let recovered = try db.claimSession(
                ActiveSession(pid: pid, taskID: target.taskID, subtaskID: target.subtaskID, blockID: blockID, snapshot: first, checkpointAt: startedAt),
                now: startedAt
            ) { () throws(FocusError) in sessionLock = try SessionLock.acquire(database: db.path) }
            if let recovered { SessionRecovery.tell(recovered.session, recovered.log, calendar: env.calendar, console: env.console) }
        } catch {
            sessionLock?.release()
            signals.stop()
            throw error
        }
        defer { sessionLock?.release() }
        // The lock file put back within half a second if something removes it meanwhile.
        let keeper = sessionLock.map { lock in
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(deadline: .now() + 0.5, repeating: 0.5, leeway: .milliseconds(100))
            timer.setEventHandler { lock.keepInPlace() }
            timer.resume()
            return timer
        }
        defer { keeper?.cancel() }

        if tty?.isForeground == true {
            terminal.enter()
            keys.start(mailbox: mailbox)
        }
        let outcome: SessionRunner<SuspendingClock>.Outcome
        do {
            defer {
                keys.stop()
                terminal.restore()
            }
            let awake = SuspendingClock()
            let continuous = ContinuousClock()
            let awakeOrigin = awake.now
            let continuousOrigin = continuous.now
            var runner = SessionRunner(
                clock: awake, now: env.now,
                store: DatabaseSessionStore(database: db, pid: pid, taskID: target.taskID, subtaskID: target.subtaskID, blockID: blockID, now: env.now),
                view: view, notifier: env.makeNotifier(fallback, warn), notices: notices, mailbox: mailbox,
                tick: live ? .milliseconds(250) : nil)
            let names = catalog.titles(of: target)
            runner.hooks = SessionHooks(runner: env.makeHooks(warn), task: names.task, subtask: names.subtask, blockID: blockID)
            runner.sleptSoFar = {
                continuousOrigin.duration(to: continuous.now) - awakeOrigin.duration(to: awake.now)
            }
            // Ctrl-Z: the runner has paused and saved the session; give the terminal back as it
            // was and stop for real, as SIGTSTP's default action would (signal(7)). SIGSTOP cannot
            // be caught, so this returns only once the process is continued.
            runner.park = { [liveView, terminal, keys] in
                liveView?.detach()
                keys.stop()
                terminal.restore()
                raise(SIGSTOP)
                regainTerminal()
            }
            let watcher = StartCommand.watchAway(for: &runner, env: env, mailbox: mailbox, canAsk: tty?.isForeground == true)
            defer { watcher?.stop() }
            outcome = await runner.run(plan: plan)
        }
        // The session ended when it was recorded: the lock goes with it now, before any question,
        // so that `start`, `stop` and `status` elsewhere all agree it is over.
        keeper?.cancel()
        sessionLock?.release()
        signals.stop()
        Planning.replanIfStale(env, db)
        try finish(outcome, db: db, env: env, live: live)
    }

    /// After the run: the reason for stopping early, and what was recorded.
    private func finish(_ outcome: SessionRunner<SuspendingClock>.Outcome, db: AppDatabase, env: FocusEnvironment, live: Bool) throws {
        let interrupted = outcome.order.last.flatMap { id in outcome.recorded[id].map { (id, $0) } }.flatMap { $0.1.status == .interrupted ? $0 : nil }
        if case let .elsewhere(reason)? = outcome.cause, let (id, _) = interrupted, let reason, !reason.isEmpty {
            // Stopped by `focus stop --reason` elsewhere; without one, nothing is asked here: the
            // person is at the other terminal (`focus log edit ID --note` adds one later).
            try db.setNote(reason, forSession: id)
        } else if case let .person(reason)? = outcome.cause, let (id, _) = interrupted {
            if let reason, !reason.isEmpty {
                try db.setNote(reason, forSession: id)
            } else if live, TerminalMode.isForeground {
                // (A background job asks nothing: reading the terminal would stop it again.)
                env.console.out("Why did you stop? (Enter to skip) ")
                if let line = TerminalMode.readLine()?.trimmingSpaces(), !line.isEmpty {
                    try db.setNote(String(line.prefix(500)), forSession: id)
                    env.console.line("Noted.")
                }
            }
        }
        let focused = outcome.recorded.values.reduce(0) { $0 + $1.focusedSeconds }
        let completed = outcome.recorded.values.filter { $0.status == .completed }.count
        let sessions = outcome.recorded.count
        if sessions > 0 {
            env.console.line("This run: \(completed) of \(sessions) session\(sessions == 1 ? "" : "s") completed, \(DurationParser.format(focused)) focused. See `focus log`.")
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
}

extension LiveSessionView: Notifier {
    /// The fallback when desktop notifications cannot be shown: a line in the view.
    func post(_ notice: Notice) async {
        emit("🔔 " + NotificationText.singleLine(notice.summary) + " — " + NotificationText.singleLine(notice.body))
    }
}
