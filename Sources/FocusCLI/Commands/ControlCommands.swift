import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends a request to the running `focus start` (it may be in another terminal) and waits
/// briefly for it to act.
enum SessionControl {
    static func send(_ request: ActiveSession.Request, reason: String?, env: FocusEnvironment) async throws -> (AppDatabase, ActiveSession) {
        let db = try env.openDatabase()
        guard let session = try db.requestControl(request, reason: reason) else {
            throw FocusError.unavailable("no session is running. Start one with `focus start \"Thesis/Chapter 2\"`.")
        }
        guard kill(session.pid, SIGUSR1) == 0 else {
            throw FocusError.unavailable("the running session's process (pid \(session.pid)) cannot be reached.")
        }
        return (db, session)
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
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let (db, session) = try await SessionControl.send(.stop, reason: reason, env: env)
        let path = Sanitized.terminal(try db.path(taskID: session.taskID, subtaskID: session.subtaskID))
        let stopped = try await SessionControl.wait(seconds: 5, clock: env.clock) { try db.activeSession()?.pid != session.pid }
        guard stopped else { throw FocusError.unavailable("the session (pid \(session.pid)) did not stop within 5 seconds.") }
        if let last = try db.recentSessions(limit: 1).first, last.log.status == .interrupted, last.log.taskID == session.taskID,
           session.snapshot.phase == .work {
            env.console.line("Stopped \(path): recorded as interrupted, \(DurationParser.format(last.log.focusedSeconds)) focused (#\(last.log.id ?? 0)).")
        } else {
            env.console.line("Stopped \(path).")
        }
    }
}

package struct PauseCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running session.")
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let (db, session) = try await SessionControl.send(.pause, reason: nil, env: env)
        _ = try await SessionControl.wait(seconds: 3, clock: env.clock) { try db.activeSession().map { $0.snapshot.isPaused || $0.pid != session.pid } ?? true }
        env.console.line("Paused. `focus resume` goes on.")
    }
}

package struct ResumeCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused session.")
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let (db, session) = try await SessionControl.send(.resume, reason: nil, env: env)
        _ = try await SessionControl.wait(seconds: 3, clock: env.clock) { try db.activeSession().map { !$0.snapshot.isPaused || $0.pid != session.pid } ?? true }
        env.console.line("Resumed.")
    }
}
