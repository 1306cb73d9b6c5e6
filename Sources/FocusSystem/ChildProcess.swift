import FocusCore
import FoundationEssentials
import Dispatch
import Glibc

/// Starting a program and waiting for it within a deadline, the one home of it: hooks (README,
/// "Hooks") and an account's `password_command` (README, "Your real calendar"). posix_spawn(3),
/// no shell; signals as a fresh program has them; focus's own descriptors not inherited.
package enum ChildProcess {
    /// Its standard input: the caller's, or these bytes from an unlinked temporary file (in
    /// `temporaryDirectory`), so writing them can neither block on a child that does not read
    /// nor raise SIGPIPE on one that exits first.
    package enum Input: Sendable { case inherited, bytes([UInt8]) }

    /// Its output: standard output read into memory until the child has exited and its first
    /// line is complete (or the output ended), standard error the caller's; or standard output
    /// and error appended to a log (nil: /dev/null), through a pipe copied up to `limit` bytes
    /// and then `cut(dropped)`.
    package enum Output: Sendable {
        case firstLine
        case log(Int32?, limit: Int, cut: @Sendable (Int) -> String)
    }

    package struct Request: Sendable {
        package var arguments: [String]
        /// The program looked up on PATH (posix_spawnp) rather than at the path given.
        package var searchPath: Bool
        package var environment: [String: String]
        package var input: Input
        package var output: Output
        package var timeout: Duration
        /// Past the timeout: SIGTERM, then SIGKILL after this; nil: SIGKILL at once.
        package var termGrace: Duration?
        /// A process group of its own (stopped as one).
        package var ownGroup: Bool
        /// Its group made the terminal's foreground one (needs `canHandOverTerminal`).
        package var foreground: Bool = false
        package var temporaryDirectory: String = "/tmp"

        package init(arguments: [String], searchPath: Bool, environment: [String: String], input: Input, output: Output,
                     timeout: Duration, termGrace: Duration?, ownGroup: Bool) {
            self.arguments = arguments
            self.searchPath = searchPath
            self.environment = environment
            self.input = input
            self.output = output
            self.timeout = timeout
            self.termGrace = termGrace
            self.ownGroup = ownGroup
        }
    }

    package enum Outcome: Sendable, Equatable {
        case exited(Int32, output: [UInt8])
        case signalled(Int32, output: [UInt8])
        case timedOut(output: [UInt8])
        case couldNotStart(String)
    }

    /// Starts the program and waits for it (blocking: callers run it on a thread of their own).
    package static func run(_ request: Request) -> Outcome {
        var inFD: Int32 = -1
        if case let .bytes(bytes) = request.input {
            switch payloadFile(bytes, in: request.temporaryDirectory) {
            case let .success(fd): inFD = fd
            case let .failure(reason): return .couldNotStart(reason.text)
            }
        }
        defer { if inFD >= 0 { close(inFD) } }
        var pipeFDs: [Int32] = [-1, -1]
        let logFD: Int32?
        switch request.output {
        case .firstLine:
            logFD = nil
            guard pipe(&pipeFDs) == 0 else { return .couldNotStart(String(cString: strerror(errno))) }
        case let .log(fd, _, _):
            logFD = fd
            if fd != nil, pipe(&pipeFDs) != 0 { pipeFDs = [-1, -1] }
        }
        // Both ends close-on-exec at once (the child gets the writing end through dup2): another
        // child started meanwhile must not inherit the writing end.
        for fd in pipeFDs where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (rc, pid) = spawn(request, input: inFD, pipe: pipeFDs[1], log: logFD)
        if pipeFDs[1] >= 0 { close(pipeFDs[1]) }
        guard rc == 0 else {
            if pipeFDs[0] >= 0 { close(pipeFDs[0]) }
            return .couldNotStart(String(cString: strerror(rc)))
        }
        if case .firstLine = request.output {
            defer { close(pipeFDs[0]) }
            return collect(pid: pid, request, fd: pipeFDs[0])
        }
        var copied: DispatchSemaphore?
        if pipeFDs[0] >= 0, let logFD, case let .log(_, limit, cut) = request.output {
            copied = copyOutput(from: pipeFDs[0], to: dup(logFD), limit: limit, cut: cut)
        }
        // The copy ends when the last writer (the child and anything it left behind) is gone;
        // focus waits for it a moment, never for a child that keeps the pipe open.
        defer { _ = copied?.wait(timeout: .now() + .seconds(1)) }
        return awaitExit(pid, request)
    }

    private struct NotStarted: Error { var text: String }

    private static func payloadFile(_ bytes: [UInt8], in directory: String) -> Result<Int32, NotStarted> {
        // mkstemp fills in the six trailing placeholder characters.
        var template = Array((directory + "/focus-hook-" + String(repeating: "X", count: 6)).utf8CString)
        let inFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard inFD >= 0 else { return .failure(NotStarted(text: "no temporary file: \(String(cString: strerror(errno)))")) }
        _ = fcntl(inFD, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        var bytes = bytes
        let written = bytes.withUnsafeMutableBytes { write(inFD, $0.baseAddress, $0.count) }
        guard written == bytes.count, lseek(inFD, 0, SEEK_SET) == 0 else {
            close(inFD)
            return .failure(NotStarted(text: "could not write its input"))
        }
        return .success(inFD)
    }

    /// posix_spawn(p) with the request's descriptors, signals, group and environment; its
    /// result code and the child's pid.
    private static func spawn(_ request: Request, input: Int32, pipe: Int32, log: Int32?) -> (Int32, pid_t) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input >= 0 { posix_spawn_file_actions_adddup2(&actions, input, 0) }
        switch request.output {
        case .firstLine:
            posix_spawn_file_actions_adddup2(&actions, pipe, 1)
        case .log:
            if pipe >= 0 {
                posix_spawn_file_actions_adddup2(&actions, pipe, 1)
                posix_spawn_file_actions_adddup2(&actions, pipe, 2)
            } else if let log {
                posix_spawn_file_actions_adddup2(&actions, log, 1)
                posix_spawn_file_actions_adddup2(&actions, log, 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        }
        // Nothing else of focus's leaks into the child (the database, D-Bus).
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
        if request.foreground, let handOver = foregroundAction { _ = handOver(&actions, 0) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        defaultSignals(&attr, ownGroup: request.ownGroup)
        let argv: [UnsafeMutablePointer<CChar>?] = request.arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = request.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        let program = request.arguments[0]
        var pid: pid_t = 0
        func start() -> Int32 {
            request.searchPath ? posix_spawnp(&pid, program, &actions, &attr, argv, envp) : posix_spawn(&pid, program, &actions, &attr, argv, envp)
        }
        var rc = start()
        // ETXTBSY (execve(2)): the program is open for writing somewhere right now (an editor
        // saving it, or any process that forked while a writer held it open). That passes in
        // moments: try again for up to half a second before calling it broken.
        var tries = 0
        while rc == ETXTBSY, tries < 20 {
            tries += 1
            usleep(25_000)
            rc = start()
        }
        return (rc, pid)
    }

    /// Its own process group when `ownGroup` (a Ctrl-C in the countdown is not for it, and a
    /// timeout stops its children too), default signal handling and nothing blocked: focus
    /// ignores some signals, and ignored signals would otherwise be inherited.
    package static func defaultSignals(_ attr: inout posix_spawnattr_t, ownGroup: Bool) {
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

    /// Waits within the timeout; past it, SIGTERM and SIGKILL after the grace (or SIGKILL at
    /// once), to its group when it has its own.
    private static func awaitExit(_ pid: pid_t, _ request: Request) -> Outcome {
        let clock = ContinuousClock()
        if let status = waitUntil(pid, deadline: clock.now.advanced(by: request.timeout)) { return outcome(status, []) }
        stop(pid, request, exited: false)
        return .timedOut(output: [])
    }

    private static func stop(_ pid: pid_t, _ request: Request, exited: Bool) {
        let target = request.ownGroup ? -pid : pid
        var gone = exited
        if let grace = request.termGrace, !gone {
            kill(target, SIGTERM)
            gone = waitUntil(pid, deadline: ContinuousClock.now.advanced(by: grace)) != nil
        }
        if !gone {
            kill(target, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        // Whatever it left behind in its group goes too.
        if request.ownGroup { kill(-pid, SIGKILL) }
    }

    /// Reads the output until the child has exited and its first line is complete (or its
    /// output ended), or the deadline passes: then it (its group, when its own) is killed.
    private static func collect(pid: pid_t, _ request: Request, fd: Int32) -> Outcome {
        let deadline = ContinuousClock.now.advanced(by: request.timeout)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var status: Int32 = 0
        var exited = false
        var ended = false
        while true {
            if !exited {
                let r = waitpid(pid, &status, WNOHANG)
                exited = r == pid || (r < 0 && errno == ECHILD)
            }
            if exited, ended || output.contains(0x0A) { return outcome(status, output) }
            if deadline - ContinuousClock.now <= .zero { break }
            // A short wait: the program's exit is noticed by waitpid, not by the pipe.
            var pollFD = pollfd(fd: ended ? -1 : fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, 50)
            guard ready > 0, !ended else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            if n <= 0 { ended = true; continue }
            if output.count < 65_536 { output += buffer[..<n] }
        }
        stop(pid, request, exited: exited)
        return .timedOut(output: output)
    }

    /// Copies the child's output from the pipe to the log on a thread of its own, up to `limit`
    /// bytes, then `cut(dropped)` (read on and dropped, so the child never blocks on a full
    /// pipe). Closes both descriptors; the semaphore is signalled at the end.
    private static func copyOutput(from input: Int32, to output: Int32, limit: Int, cut: @escaping @Sendable (Int) -> String) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DetachedThread.start {
            defer { close(input); if output >= 0 { close(output) }; done.signal() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var room = limit
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
                var note = Array(cut(dropped).utf8)
                _ = note.withUnsafeMutableBytes { write(output, $0.baseAddress, $0.count) }
            }
        }
        return done
    }

    /// Waits for `pid` until `deadline`; its wait status, or nil if it is still running.
    private static func waitUntil(_ pid: pid_t, deadline: ContinuousClock.Instant) -> Int32? {
        var status: Int32 = 0
        var pause: UInt32 = 1_000  // µs, doubling to 50 ms: quick children are seen quickly
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return status }
            if r < 0, errno != EINTR { return status }
            if ContinuousClock.now >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    private static func outcome(_ status: Int32, _ output: [UInt8]) -> Outcome {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff, output: output) : .signalled(signal, output: output)
    }

    /// Whether a child's group can be made the terminal's foreground one before it runs.
    package static var canHandOverTerminal: Bool { foregroundAction != nil }

    /// posix_spawn_file_actions_addtcsetpgrp_np(3) (glibc 2.35), looked up at run time as Swift's
    /// Glibc module does not declare it; nil on an older C library.
    private static let foregroundAction: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addtcsetpgrp_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Swift does not see
    /// GNU extensions), looked up once. Without it, focus's own descriptors are close-on-exec.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
    }()
}
