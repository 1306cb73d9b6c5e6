import FocusSystem
import FocusCore
import FocusServices
import FocusStorage
import FocusText
import FocusTUI
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Performs what the view's reducer asks: one loop over the terminal's keys, the change
/// watcher, signals and a timer, drawing each new frame as a line diff.
final class UIRunner {
    private let env: FocusEnvironment
    private var loader: UILoader
    /// The database file the view has open (`focus restore` renames another one in).
    private var inode: Int64?
    private let terminal: UITerminal
    private let wake: UIWake
    private let signals = SignalPipe()
    private let child: UIChild
    /// The database as last read: a wake with neither changed is not a change.
    private var fingerprint: DatabaseFingerprint?
    private var dataVersion: Int?
    /// The add form's draft waiting for its dry run, and when (a pause in the typing) it runs.
    private var preview: (arguments: [String], at: ContinuousClock.Instant)?
    /// When to look at the database again after a wake (see `event(_:)`).
    private var recheckAt: ContinuousClock.Instant?
    static let recheckDelay: Duration = .milliseconds(60)
    /// How long the typing pauses before the draft's dry run.
    static let previewDelay: Duration = .milliseconds(300)

    init(env: FocusEnvironment, db: AppDatabase) {
        let wake = UIWake()
        self.wake = wake
        var env = env
        // What the services would print (a warning from a re-plan) goes to the message line:
        // a line written over the frame would stay until that row changed.
        env.console = UIConsole(wake: wake)
        self.env = env
        loader = UILoader(env: env, db: db)
        inode = StatusFollower.inode(env.databasePath)
        terminal = UITerminal(color: env.environment["NO_COLOR"].map(\.isEmpty) != false)
        child = UIChild(databasePath: env.databasePath, environment: env.environment)
    }

    func run() throws {
        // The watcher first: it sets SIGINT and SIGTERM aside, and the signal pipe then takes them.
        let watcher = ChangeWatcher(directory: Paths.directory(of: env.databasePath).isEmpty ? "." : Paths.directory(of: env.databasePath))
        signals.start([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT, SIGTSTP]) { [wake] signo in
            switch signo {
            case SIGWINCH: wake.post(.resize)
            case SIGCONT: wake.post(.resume)
            case SIGTSTP: wake.post(.suspend)
            default: wake.post(.quit)
            }
        }
        wake.watch(watcher)
        UICrashGuard.install()
        terminal.enter()
        defer {
            terminal.leave()
            UICrashGuard.remove()
            signals.stop()
        }
        let size = UITerminal.size()
        var state = UIState(now: env.now(), calendar: env.calendar, width: size.width, height: size.height)
        var effects: [Effect] = [.load(state.request)]
        while true {
            guard perform(effects, &state) else { return }
            terminal.draw(UIView.frame(state))
            effects = []
            for event in waitForEvents(state) {
                guard let event else { return }
                let (next, asked) = UIReducer.reduce(state, event)
                state = next
                effects += asked
            }
        }
    }

    /// Does what the reducer asked, feeding back what a load or a command brought; false to quit.
    private func perform(_ effects: [Effect], _ state: inout UIState) -> Bool {
        var queue = effects
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            if effect == .quit { return false }
            guard let event = outcome(of: effect) else { continue }
            let (next, asked) = UIReducer.reduce(state, event)
            state = next
            queue += asked
        }
        return true
    }

    /// Performs one effect; what came of it, when the view is to hear of it now.
    private func outcome(of effect: Effect) -> UIEvent? {
        switch effect {
        case .quit:
            return nil
        case let .load(request):
            if let gone = reopenIfReplaced() { return gone }
            // Measured before reading: a write that lands during the read changes them, so the
            // next wake reads again (measured after, that write would be taken as seen).
            fingerprint = DatabaseFingerprint.of(path: env.databasePath)
            dataVersion = try? loader.db.dataVersion()
            do {
                return .loaded(try loader.load(request), request)
            } catch {
                return .failed(error.description)
            }
        case let .startSession(path):
            // Its error, if any, comes later from the thread that reads it.
            let wake = wake
            return child.start(path, failed: { wake.say($0) }) ? nil : .failed("focus start could not be started.")
        case let .run(arguments):
            let answer = child.run(arguments)
            return answer.ok ? .said(answer.line) : .failed(answer.line)
        case let .runInBackground(arguments):
            let wake = wake
            let started = child.background(arguments) { _, line in wake.say(line) }
            return started ? nil : .failed("focus \(arguments.joined(separator: " ")) could not be started.")
        case let .control(request):
            do {
                _ = try SessionControl.sendNow(request, reason: nil, env: env)
                return .said(request == .skip ? "Skipped to the next phase." : "Asked the session to \(request.rawValue).")
            } catch {
                return .failed(String(describing: error))
            }
        case .refreshAndSync:
            return refreshAndSync()
        case let .preview(arguments):
            preview = (arguments, .now + UIRunner.previewDelay)
            return nil
        case .replan:
            do {
                _ = try Planning.replan(env.services, loader.db)
                return .said("Planned again.")
            } catch {
                return .failed(error.description)
            }
        }
    }

    /// `R`: `focus calendar refresh` in the background, then, when sync is set up on this machine,
    /// `focus sync`; what each says comes to the message line as it ends.
    private func refreshAndSync() -> UIEvent? {
        let (wake, child) = (wake, child)
        let syncs = ((try? loader.db.syncTarget()) ?? nil) != nil
        let started = child.background(["calendar", "refresh"]) { ok, line in
            wake.say(line)
            guard syncs else { return }
            wake.say("Syncing…")
            if !child.background(["sync"], ended: { _, line in wake.say(line) }) { wake.say("focus sync could not be started.") }
        }
        return started ? nil : .failed("focus calendar refresh could not be started.")
    }

    /// A database replaced underneath (`focus restore`, a copy moved in) is opened afresh, as
    /// `status --follow` does; one that is gone leaves the view showing what it last read.
    private func reopenIfReplaced() -> UIEvent? {
        guard let now = StatusFollower.inode(env.databasePath) else {
            return .failed("The database is gone (\(env.databasePath)); this view shows what it last read.")
        }
        guard now != inode else { return nil }
        do {
            loader.db = try env.openDatabase()
            inode = now
            return nil
        } catch {
            return .failed(error.description)
        }
    }

    /// Waits for keys, a wake or the next instant what is shown changes by itself; nil among
    /// the events means quit.
    private func waitForEvents(_ state: UIState) -> [UIEvent?] {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        let n = poll(&fds, nfds_t(fds.count), UIRunner.timeout(until: nextWake(state), now: env.now()))
        var events: [UIEvent?] = []
        if n <= 0 { return previewIfDue() + recheckIfDue() + [.tick(env.now())] }
        if fds[1].revents != 0 { events += wake.drain().map(event) }
        if fds[0].revents != 0 { events += keys() }
        return events + [.tick(env.now())]
    }

    /// When what is shown next changes by itself, by the rule `status --follow` uses: the clock
    /// in the top bar (each minute), a running session's (each second), the draft's dry run and
    /// the second look after a change. Changes from elsewhere wake the loop through `wake`.
    private func nextWake(_ state: UIState) -> Date? {
        let now = env.now()
        let running = state.data?.session.map { !$0.active.snapshot.isPaused } ?? false
        let deadlines = [preview?.at, recheckAt].map { $0.map { now.addingTimeInterval(UIRunner.seconds(from: .now, to: $0)) } }
        return WakeRule.next(after: now, changes: [WakeRule.nextMinute(after: now), running ? WakeRule.nextSecond(after: now) : nil] + deadlines,
                             watching: true)
    }

    /// poll(2)'s timeout in milliseconds, rounded up (a wake a moment early finds nothing new).
    static func timeout(until wake: Date?, now: Date) -> Int32 {
        guard let wake else { return -1 }
        return Int32((max(0, min(wake.timeIntervalSince(now), 86_400)) * 1000).rounded(.up))
    }

    private static func seconds(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> Double {
        let left = (to - from).components
        return max(0, Double(left.seconds) + Double(left.attoseconds) / 1e18)
    }

    /// The second look after a wake: a change when the database moved on since it was read.
    private func recheckIfDue() -> [UIEvent?] {
        guard let at = recheckAt, at <= .now else { return [] }
        recheckAt = nil
        let print = DatabaseFingerprint.of(path: env.databasePath)
        let version = try? loader.db.dataVersion()
        return print != fingerprint || version != dataVersion ? [.changed] : []
    }

    /// The draft's dry run, once its pause in the typing has passed.
    private func previewIfDue() -> [UIEvent?] {
        guard let pending = preview, pending.at <= .now else { return [] }
        preview = nil
        return [.previewed(pending.arguments, UIPreview.verdict(pending.arguments, env: env, db: loader.db))]
    }

    private func event(_ reason: UIWake.Reason) -> UIEvent? {
        switch reason {
        case .quit: return nil
        case .suspend:
            // Ctrl-Z: the terminal as it was for the shell, then stopped for real (SIGSTOP, which
            // no handler takes); `fg` sends SIGCONT, and the view comes back whole.
            // The stop may land a moment after kill returns: nothing is drawn until SIGCONT
            // brings the view back (`resume`).
            terminal.leave()
            kill(getpid(), SIGSTOP)
            return .tick(env.now())
        case .resume:
            terminal.resume()
            return resized()
        case .resize: return resized()
        case .message: return wake.nextMessage().map { .failed($0) } ?? .tick(env.now())
        case .changed:
            let print = DatabaseFingerprint.of(path: env.databasePath)
            let version = try? loader.db.dataVersion()
            // A wake can come between another process's WAL write and its commit's wal-index
            // update (https://sqlite.org/walformat.html), which no further inotify event follows:
            // a second look a moment later sees the commit.
            recheckAt = .now + UIRunner.recheckDelay
            return print != fingerprint || version != dataVersion ? .changed : .tick(env.now())
        }
    }

    private func resized() -> UIEvent {
        terminal.invalidate()
        let size = UITerminal.size()
        return .resized(width: size.width, height: size.height)
    }

    /// The keys waiting on the terminal; nil when it is gone (end of input).
    private func keys() -> [UIEvent?] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(STDIN_FILENO, &buffer, buffer.count)
        if n < 0, errno == EINTR || errno == EAGAIN { return [] }
        guard n > 0 else { return [nil] }
        return KeyDecoder.decode(Array(buffer[0..<n])).map { .key($0) }
    }
}
