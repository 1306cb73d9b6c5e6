import FocusSystem
import FocusText
import FocusCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Runs the person's hook scripts: `<directory>/<event>` is started directly (posix_spawn, no
/// shell, no arguments) with the event's JSON on standard input, in a process group of its own,
/// its output appended to the hook log. It gets `timeout` to finish, then SIGTERM, then SIGKILL
/// a second later. Waiting happens on a thread of its own, never on the caller's path. A missing
/// hook is nothing; one that is not executable, fails or overruns is one warning and a log line,
/// never an error of the command that triggered it.
package struct ProcessHookRunner: HookRunner {
    package var directory: String
    package var timeout: Duration
    /// `$XDG_STATE_HOME/focus/hooks.log`: one line per run, and whatever hooks print.
    package var logPath: String
    /// The environment hooks are started with.
    package var environment: [String: String]
    package var now: @Sendable () -> Date
    /// Where a failure is said once, briefly (the countdown's view, or the daemon's log).
    package var warn: @Sendable (String) -> Void
    /// How long a hook that ignores SIGTERM keeps before SIGKILL.
    package var killGrace: Duration = .seconds(1)

    package init(directory: String, timeout: Duration, logPath: String, environment: [String: String],
                 now: @escaping @Sendable () -> Date, warn: @escaping @Sendable (String) -> Void) {
        self.directory = directory
        self.timeout = timeout
        self.logPath = logPath
        self.environment = environment
        self.now = now
        self.warn = warn
    }

    /// `$XDG_CONFIG_HOME/focus/hooks` (beside the config file).
    package static func directory(configPath: String) -> String {
        Paths.directory(of: configPath) + "/hooks"
    }

    /// `$XDG_STATE_HOME/focus/hooks.log` (default `~/.local/state/focus/hooks.log`).
    package static func logPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/focus/hooks.log" }
        return UserDirectories.home(environment) + "/.local/state/focus/hooks.log"
    }

    /// How a hook run ended.
    package enum Outcome: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case notExecutable
        /// Something other than a file stands there: what it is, said plainly.
        case notAFile(String)
        case couldNotStart(String)
    }

    /// The hook log is rotated when it reaches this size (hooks.log → hooks.log.1 → … .3).
    package static let logLimit = 1 << 20
    /// Rotated logs kept beside the current one.
    package static let keptLogs = 3

    package func run(_ event: HookEvent, payload: JSON) async {
        let path = directory + "/" + event.rawValue
        var link = stat()
        guard lstat(path, &link) == 0 else { return }  // no hook for this event
        var info = stat()
        let started = ContinuousClock.now
        let outcome: Outcome
        if stat(path, &info) != 0 {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            outcome = .notAFile("a symbolic link to \(DisplayText(target).string), which does not exist")
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            outcome = .notAFile(ProcessHookRunner.kind(info.st_mode) + ", not a file")
        } else if access(path, X_OK) != 0 {
            outcome = .notExecutable
        } else {
            let input = payload.rendered() + "\n"
            let me = self
            outcome = await withCheckedContinuation { (c: CheckedContinuation<Outcome, Never>) in
                DetachedThread.start { c.resume(returning: me.spawnAndWait(path, input: input)) }
            }
        }
        report(event, path: path, outcome: outcome, took: started.duration(to: ContinuousClock.now))
    }

    /// One log line per run; a warning for anything but a clean exit.
    private func report(_ event: HookEvent, path: String, outcome: Outcome, took: Duration) {
        let seconds = (took.seconds * 10).rounded() / 10
        let what: String
        switch outcome {
        case .exited(0): what = "exit 0 after \(seconds) s"
        case let .exited(code): what = "failed: exit \(code) after \(seconds) s"
        case let .signalled(sig): what = "failed: killed by signal \(sig) after \(seconds) s"
        case .timedOut: what = "failed: still running after \(DurationParser.format(Int(timeout.seconds))); stopped"
        case .notExecutable: what = "ignored: not an executable file (chmod +x \(path))"
        case let .notAFile(kind): what = "ignored: \(path) is \(kind)"
        case let .couldNotStart(reason): what = "failed: could not start (\(reason))"
        }
        appendLog("\(Timestamp.utc(now())) \(event.rawValue) \(what)\n")
        if outcome != .exited(0) {
            warn("warning: hook \(event.rawValue) \(what); see \(logPath)")
        }
    }

    private func appendLog(_ line: String) {
        guard let fd = openLog() else { return }
        defer { close(fd) }
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// What stands at a hook's path when it is not a regular file.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// Rotates the log once it has reached `logLimit`: hooks.log becomes hooks.log.1, .1
    /// becomes .2, and so on up to `keptLogs`; the oldest is replaced. (rename(2) is atomic, so a
    /// second focus rotating at the same moment loses nothing that matters: at worst one file.)
    func rotateLogIfNeeded() {
        var info = stat()
        guard stat(logPath, &info) == 0, info.st_size >= ProcessHookRunner.logLimit else { return }
        for n in stride(from: ProcessHookRunner.keptLogs - 1, through: 1, by: -1) {
            _ = rename("\(logPath).\(n)", "\(logPath).\(n + 1)")
        }
        _ = rename(logPath, logPath + ".1")
    }

    /// The log, opened for appending (its directory made 0700 when missing, rotated when full);
    /// nil when it cannot be.
    private func openLog() -> Int32? {
        try? PrivateDirectory.makeParent(of: logPath)
        rotateLogIfNeeded()
        // Never through a link, never blocking on a FIFO, and only into a regular file.
        let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, FileKind(mode: info.st_mode) == .regular else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Starts the hook and waits for it, within the timeout (blocking: runs on its own thread):
    /// the payload on standard input, its output into the log, its own process group, SIGTERM
    /// past the timeout and SIGKILL after `killGrace`.
    private func spawnAndWait(_ path: String, input: String) -> Outcome {
        let logFD = openLog()
        defer { if let logFD { close(logFD) } }
        var request = ChildProcess.Request(
            arguments: [path], searchPath: false, environment: environment, input: .bytes(Array(input.utf8)),
            output: .log(logFD, limit: ProcessHookRunner.logLimit, cut: { dropped in
                "\n[hook output cut: \(dropped) more bytes after \(ProcessHookRunner.logLimit >> 20) MB were left out]\n"
            }),
            timeout: timeout, termGrace: killGrace, ownGroup: true)
        request.temporaryDirectory = UserDirectories.temporary(environment)
        switch ChildProcess.run(request) {
        case let .exited(code, _): return .exited(code)
        case let .signalled(signal, _): return .signalled(signal)
        case .timedOut: return .timedOut
        case let .couldNotStart(reason): return .couldNotStart(reason)
        }
    }
}
