import FocusText
import ArgumentParser
import FocusCore
import FocusStorage
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Sends a request to the running `focus start` (it may be in another terminal) and waits
/// briefly for it to act. The request goes in the running-session row, and the signal that
/// tells the session to read it goes only to the process the kernel names as the holder of the
/// session lock (`SessionLock`): never to a pid merely read from the database, which after a
/// crash can belong to anyone.
enum SessionControl {
    struct Sent {
        var db: AppDatabase
        var session: ActiveSession
        var pid: Int32
    }

    static func send(_ request: ActiveSession.Request, reason: String?, env: FocusEnvironment) async throws -> Sent {
        try sendNow(request, reason: reason, env: env)
    }

    /// `send`, for a caller that cannot wait (`focus ui`'s loop): it never suspends.
    static func sendNow(_ request: ActiveSession.Request, reason: String?, env: FocusEnvironment) throws -> Sent {
        let db = try env.openDatabase()
        let outcome = try db.requestControl(request, reason: reason, owner: { SessionLock.owner(database: db.path) }, now: env.now())
        let path = { (s: ActiveSession) in DisplayText((try? db.path(taskID: s.taskID, subtaskID: s.subtaskID)) ?? "the session").string }
        switch outcome.decision {
        case .noSession:
            throw FocusError.unavailable("no session is running. Start one with `focus start \"Thesis/Chapter 2\"`.")
        case .recover:
            if let session = outcome.session {
                SessionRecovery.tell(session, outcome.recovered, calendar: env.calendar, console: env.console)
            }
            throw FocusError.unavailable("no session is running: the last one's process is gone, and it was recorded as interrupted. Start one with `focus start \"Thesis/Chapter 2\"`.")
        case let .unreachable(why):
            throw FocusError.unavailable("a session may be running, but \(why); focus signals no process it cannot prove runs the session.")
        case let .alreadyStopping(pid):
            // Nudged again (only the proven holder), in case the first signal went astray.
            if let pid { wake(pid) }
            let what = outcome.session.map(path) ?? "the session"
            throw FocusError.unavailable("\(what) is already being stopped (another `focus stop` asked first); nothing was changed.")
        case let .send(pid):
            guard let session = outcome.session else { throw FocusError.unavailable("no session is running.") }
            guard wake(pid) else {
                throw FocusError.unavailable("the running session's process (pid \(pid)) cannot be reached.")
            }
            return Sent(db: db, session: session, pid: pid)
        }
    }

    /// SIGUSR1 to read the request, and SIGCONT in case the session was stopped (Ctrl-Z): it is
    /// paused then, and must run to act.
    @discardableResult
    static func wake(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, SIGUSR1) == 0 else { return false }
        _ = kill(pid, SIGCONT)
        return true
    }

    /// Polls until `done` holds, for at most `seconds`.
    static func wait(seconds: Double, clock: any Clock<Duration>, _ done: () throws -> Bool) async throws -> Bool {
        let steps = Int(seconds / 0.05)
        for _ in 0..<steps {
            if try done() { return true }
            try? await clock.sleep(for: .milliseconds(50))
        }
        return try done()
    }
}

package struct StopCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop the running session (recorded as interrupted if work was in progress).")
    @Option(help: ArgumentHelp("Why you stopped: kept with the session.", valueName: "text")) var reason: String?
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let sent: SessionControl.Sent
        do {
            sent = try await SessionControl.send(.stop, reason: reason, env: env)
        } catch let error as FocusError {
            guard case .io = error, let pid = SessionLock.owner(database: env.databasePath).provenPID else { throw error }
            try await stopUnreadable(pid: pid, error: error, env: env)
            return
        }
        let (db, session) = (sent.db, sent.session)
        let path = DisplayText(try db.path(taskID: session.taskID, subtaskID: session.subtaskID)).string
        var died: SessionEntry??
        switch try await watch(sent, env: env) {
        case let .died(log): died = .some(log)
        case .gaveUp: throw FocusError.unavailable("the session (pid \(sent.pid)) did not stop within 5 seconds.")
        default: break
        }
        if let died {
            let what = died.map { " (#\($0.log.id ?? 0), \(DurationParser.format($0.log.focusedSeconds)) focused)" } ?? ""
            let status = died?.log.status.rawValue ?? SessionStatus.interrupted.rawValue
            env.console.line("Stopped \(path): its process ended before it could stop; recorded as \(status)\(what).")
            return
        }
        if session.snapshot.phase == .work, let last = try db.recentSessions(limit: 1).first, last.log.status != .completed,
           last.log.taskID == session.taskID, last.log.subtaskID == session.subtaskID,
           last.log.startedAt >= (session.snapshot.workStartedAt ?? .distantPast) {
            let id = last.log.id ?? 0
            let why = reason == nil && last.log.status.asksWhyWhenStopped ? " Say why with `focus log edit \(id) --note TEXT`." : ""
            // An open session is recorded as open (it had no length to complete).
            env.console.line("Stopped \(path): recorded as \(last.log.status.rawValue), \(DurationParser.format(last.log.focusedSeconds)) focused (#\(id)).\(why)")
        } else {
            env.console.line("Stopped \(path).")
        }
    }
}

extension StopCommand {
    /// Waits for the session to act on the stop: looks where `StopWatch` says and returns its
    /// verdict (`.stopped`, `.died` or `.gaveUp`). A killed session's row is recovered here,
    /// with its last checkpoint.
    func watch(_ sent: SessionControl.Sent, env: FocusEnvironment) async throws -> StopWatch.Step {
        let (db, watch) = (sent.db, StopWatch())
        var (sight, waited) = (StopWatch.Sight(), Duration.zero)
        while true {
            let step = watch.next(sight, waited: waited)
            switch step {
            case .lookAtRow:
                let row = try db.activeSession()
                sight.row = row == nil ? .gone : row?.pid == sent.session.pid ? .asked : .another
            case .lookAtLock:
                sight.lock = SessionLock.owner(database: db.path)
            case .recover:
                let found = try db.recoverStaleSession(owner: { SessionLock.owner(database: db.path) }, now: env.now())
                sight.recovery = found.map { .recovered($0.log) } ?? .nothing
            case let .wait(pause):
                try? await env.clock.sleep(for: pause)
                (sight, waited) = (StopWatch.Sight(), waited + pause)
            case .stopped, .died, .gaveUp:
                return step
            }
        }
    }

    /// The database cannot be read (its -wal file deleted, a failing disk), so no request can be
    /// left in it; the process the kernel names as the session lock's holder still can be told:
    /// SIGTERM, which it records as an interrupted session through its own connection.
    func stopUnreadable(pid: Int32, error: FocusError, env: FocusEnvironment) async throws {
        guard kill(pid, SIGTERM) == 0 else { throw error }
        _ = kill(pid, SIGCONT)
        // Until the process is gone, not only its lock: it writes the log's changes back when it
        // closes the database, and only if no other process has it open then (this one has not).
        let gone = try await SessionControl.wait(seconds: 5, clock: env.clock) { kill(pid, 0) != 0 && errno == ESRCH }
        guard gone else { throw FocusError.unavailable("the session (pid \(pid)) did not stop within 5 seconds; the database cannot be read: \(error.description)") }
        env.console.line("Stopped the running session (pid \(pid)): it recorded itself as interrupted.")
        if let reason, !reason.isEmpty {
            env.console.note("warning: the reason was not kept (the database could not be read when the session was stopped); add it with `focus log edit ID --note`.")
        }
        // Readable again once the session's process, the last to have it open, wrote its changes back.
        if (try? env.openDatabase()) == nil { env.console.note("warning: \(error.description)") }
    }
}

package struct PauseCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running session.")
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let sent = try await SessionControl.send(.pause, reason: nil, env: env)
        let done = try await SessionControl.wait(seconds: 3, clock: env.clock) { try sent.db.activeSession().map { $0.snapshot.isPaused } ?? true }
        guard done else { throw FocusError.unavailable("the session (pid \(sent.pid)) did not pause within 3 seconds.") }
        env.console.line("Paused. `focus resume` goes on.")
    }
}

package struct ResumeCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused session.")
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let sent = try await SessionControl.send(.resume, reason: nil, env: env)
        let done = try await SessionControl.wait(seconds: 3, clock: env.clock) { try sent.db.activeSession().map { !$0.snapshot.isPaused } ?? true }
        guard done else { throw FocusError.unavailable("the session (pid \(sent.pid)) did not resume within 3 seconds.") }
        env.console.line("Resumed.")
    }
}
