import FocusSystem
import FocusText
import FocusCore
import FoundationEssentials
import Dispatch

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

    /// Starts the hook and waits for it, within the timeout (blocking: runs on its own thread).
    private func spawnAndWait(_ path: String, input: String) -> Outcome {
        let inFD: Int32
        switch payloadFile(input) {
        case let .success(fd): inFD = fd
        case let .failure(outcome): return outcome.outcome
        }
        defer { close(inFD) }
        let logFD = openLog()
        defer { if let logFD { close(logFD) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inFD, 0)
        let pipeFDs = ProcessHookRunner.redirectOutput(&actions, logFD: logFD)
        // Nothing else of focus's leaks into the hook (the database, the terminal, D-Bus).
        if let closeFrom = ProcessHookRunner.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ProcessHookRunner.ownGroupDefaultSignals(&attr)

        let (rc, pid) = spawn(path, &actions, &attr)
        var copied: DispatchSemaphore?
        if let pipeFDs {
            close(pipeFDs[1])
            if rc == 0, let logFD {
                copied = ProcessHookRunner.copyOutput(from: pipeFDs[0], to: dup(logFD))
            } else {
                close(pipeFDs[0])
            }
        }
        guard rc == 0 else { return .couldNotStart(String(cString: strerror(rc))) }
        // The copy ends when the last writer (the hook and anything it left behind) is gone;
        // focus waits for it a moment, never for a child that keeps the pipe open.
        defer { _ = copied?.wait(timeout: .now() + .seconds(1)) }
        return awaitExit(pid)
    }

    /// A hook that could not be given its input.
    private struct NotStarted: Error { var outcome: Outcome }

    /// Standard input: the payload in an unlinked temporary file, so writing it can neither
    /// block on a hook that does not read nor raise SIGPIPE on one that exits first.
    private func payloadFile(_ input: String) -> Result<Int32, NotStarted> {
        // mkstemp fills in the six trailing placeholder characters.
        var template = Array((UserDirectories.temporary(environment) + "/focus-hook-" + String(repeating: "X", count: 6)).utf8CString)
        let inFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard inFD >= 0 else { return .failure(NotStarted(outcome: .couldNotStart("no temporary file: \(String(cString: strerror(errno)))"))) }
        _ = fcntl(inFD, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var bytes = Array(input.utf8)
        let written = bytes.withUnsafeMutableBytes { write(inFD, $0.baseAddress, $0.count) }
        guard written == bytes.count, lseek(inFD, 0, SEEK_SET) == 0 else {
            close(inFD)
            return .failure(NotStarted(outcome: .couldNotStart("could not write its input")))
        }
        return .success(inFD)
    }

    /// Its output reaches the log through a pipe, copied up to `logLimit` bytes a run: a hook
    /// that prints without end cannot fill the disk. Straight into the log when no pipe can be
    /// made, and to /dev/null without a log. Returns the pipe, if one was made.
    private static func redirectOutput(_ actions: inout posix_spawn_file_actions_t, logFD: Int32?) -> [Int32]? {
        var pipeFDs: [Int32] = [-1, -1]
        if logFD != nil, pipe(&pipeFDs) == 0 {
            _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
            return pipeFDs
        }
        if let logFD {
            posix_spawn_file_actions_adddup2(&actions, logFD, 1)
            posix_spawn_file_actions_adddup2(&actions, logFD, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        return nil
    }

    /// Its own process group (a Ctrl-C in the countdown is not for it, and a timeout stops
    /// its children too) when `ownGroup`, default signal handling and nothing blocked: focus
    /// ignores some signals, and ignored signals would otherwise be inherited. Hooks and the
    /// password command (ProcessCredentials) are started alike.
    static func ownGroupDefaultSignals(_ attr: inout posix_spawnattr_t, ownGroup: Bool = true) {
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    }

    /// posix_spawn with the hook's environment; its result code and the child's pid.
    private func spawn(_ path: String, _ actions: inout posix_spawn_file_actions_t,
                       _ attr: inout posix_spawnattr_t) -> (Int32, pid_t) {
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        var rc = posix_spawn(&pid, path, &actions, &attr, argv, envp)
        // ETXTBSY (execve(2)): the script is open for writing somewhere right now (an editor
        // saving it, or any process that forked while a writer held it open). That passes in
        // moments: try again for up to half a second before calling the hook broken.
        var tries = 0
        while rc == ETXTBSY, tries < 20 {
            tries += 1
            usleep(25_000)
            rc = posix_spawn(&pid, path, &actions, &attr, argv, envp)
        }
        return (rc, pid)
    }

    /// Waits for the hook within the timeout; past it, its group is sent SIGTERM, then SIGKILL
    /// after `killGrace`.
    private func awaitExit(_ pid: pid_t) -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        if let status = waitUntil(pid, deadline: deadline) { return ProcessHookRunner.outcome(status) }
        kill(-pid, SIGTERM)
        if waitUntil(pid, deadline: clock.now.advanced(by: killGrace)) == nil {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        // Whatever the hook left behind in its group goes too.
        kill(-pid, SIGKILL)
        return .timedOut
    }

    /// Copies a hook's output from the pipe to the log on a thread of its own, up to `logLimit`
    /// bytes, then one line saying the rest was left out (read on and dropped, so the hook never
    /// blocks on a full pipe). Closes both descriptors; the semaphore is signalled at the end.
    static func copyOutput(from input: Int32, to output: Int32) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DetachedThread.start {
            defer { close(input); if output >= 0 { close(output) }; done.signal() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var room = logLimit
            var dropped = 0
            while true {
                let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                let kept = min(n, room)
                if kept > 0, output >= 0 { _ = buffer.withUnsafeBytes { write(output, $0.baseAddress, kept) } }
                room -= kept
                dropped += n - kept
            }
            if dropped > 0, output >= 0 {
                var note = Array("\n[hook output cut: \(dropped) more bytes after \(logLimit >> 20) MB were left out]\n".utf8)
                _ = note.withUnsafeMutableBytes { write(output, $0.baseAddress, $0.count) }
            }
        }
        return done
    }

    /// Waits for `pid` until `deadline`; its wait status, or nil if it is still running.
    private func waitUntil(_ pid: pid_t, deadline: ContinuousClock.Instant) -> Int32? {
        var status: Int32 = 0
        var pause: UInt32 = 1_000  // µs, doubling to 50 ms: quick hooks are seen quickly
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return status }
            if r < 0, errno != EINTR { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Swift does not see
    /// GNU extensions), looked up once. Without it, focus's own descriptors are close-on-exec.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
    }()

    private static func outcome(_ status: Int32) -> Outcome {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
