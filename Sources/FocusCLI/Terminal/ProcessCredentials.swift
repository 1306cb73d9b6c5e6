import FocusText
import FocusCore
import FocusServices
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The services' `CredentialSource` (README, "Your real calendar"): the first line of standard
/// input (`--password-stdin`), and an account's `password_command` run as a program of the
/// terminal's while it runs.
package struct ProcessCredentials: CredentialSource {
    package init() {}

    package func standardInput() throws(FocusError) -> String { try Self.standardInputPassword() }

    package func run(_ command: String, environment: [String: String]) throws(FocusError) -> String {
        try Self.run(command, environment: environment, timeout: .seconds(60))
    }

    /// The first line of standard input (a trailing CR LF or LF removed).
    static func standardInputPassword() throws(FocusError) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let n = read(0, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[..<n]
            if bytes.contains(0x0A) { break }
        }
        let line = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let password = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        guard !password.isEmpty else {
            throw FocusError.usage("--password-stdin read no password: pipe it in, e.g. `pass show caldav/fastmail | focus calendar connect URL --user USER --password-stdin`.")
        }
        return password
    }

    /// Runs a `password_command` without a shell (its words split as a shell would, the program
    /// found on PATH) and returns the first line it prints, once that line is complete and the
    /// program has exited: a wrapper that starts an agent and leaves it running (holding the
    /// output open) is done when it exits. Standard input and error stay the terminal's, which
    /// the program has while it runs (its own process group in the foreground), so a program like
    /// pass(1) can ask for its passphrase; it has 60 seconds, then its process group is killed.
    package static func run(_ command: String, environment: [String: String], timeout: Duration) throws(FocusError) -> String {
        let words = try CommandLineWords.split(command)
        let shown = "'\(DisplayText(command).string)'"
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw FocusError.unavailable("could not run the password command \(shown): \(String(cString: strerror(errno))).") }
        // Both ends close-on-exec at once (the child gets the writing end through dup2): a hook
        // the daemon starts meanwhile must not inherit the writing end, or reading the password
        // would wait for that hook to exit.
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        // On a terminal, the program gets it while it runs (its own group in the foreground),
        // or, where the C library cannot do that, stays in focus's group as before.
        let onTerminal = isatty(0) == 1 && tcgetpgrp(0) == getpgrp()
        let handOver = onTerminal && foregroundAction != nil
        let spawned = spawn(words, output: pipeFDs[1], environment: environment, terminal: handOver, ownGroup: handOver || !onTerminal)
        close(pipeFDs[1])
        defer { if handOver { takeTerminalBack() } }
        guard case let .success(pid) = spawned else {
            close(pipeFDs[0])
            if case let .failure(code) = spawned { throw FocusError.unavailable("could not run the password command \(shown): \(String(cString: strerror(code))).") }
            return ""
        }
        let (output, status, timedOut) = collect(pid: pid, group: handOver || !onTerminal, fd: pipeFDs[0], deadline: ContinuousClock.now.advanced(by: timeout))
        close(pipeFDs[0])
        if timedOut {
            throw FocusError.unavailable("the password command \(shown) did not finish within \(timeout.components.seconds) s (it and what it started were stopped).")
        }
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let how = exited ? "exit status \(code)" : "signal \(status & 0x7F)"
            throw FocusError.unavailable("the password command \(shown) failed (\(how)); run it yourself to see why.")
        }
        let line = output.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let password = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        guard !password.isEmpty else {
            throw FocusError.unavailable("the password command \(shown) printed no password on its first line.")
        }
        return password
    }

    enum Spawned { case success(pid_t), failure(Int32) }

    /// posix_spawn_file_actions_addtcsetpgrp_np(3) (glibc 2.35): the child's process group made
    /// the terminal's foreground one before it runs. Looked up at run time, as Swift's Glibc
    /// module does not declare it; nil on an older C library.
    static let foregroundAction: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addtcsetpgrp_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Starts `words` in a process group of its own (the terminal's foreground one when
    /// `terminal`), its standard output `output`, signals as a fresh program has them.
    static func spawn(_ words: [String], output: Int32, environment: [String: String], terminal: Bool, ownGroup: Bool) -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addclose(&actions, output)
        if terminal, let handOver = foregroundAction { _ = handOver(&actions, 0) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
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
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, words[0], &actions, &attr, argv, envp)
        return rc == 0 ? .success(pid) : .failure(rc)
    }

    /// Reads the program's output until it has exited and its first line is complete (or its
    /// output ended), or the deadline passes: then its whole process group (`group`: its own) is killed.
    static func collect(pid: pid_t, group: Bool, fd: Int32, deadline: ContinuousClock.Instant) -> (output: [UInt8], status: Int32, timedOut: Bool) {
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
            if exited, ended || output.contains(0x0A) { return (output, status, false) }
            let left = deadline - ContinuousClock.now
            if left <= .zero { break }
            // A short wait: the program's exit is noticed by waitpid, not by the pipe.
            var pollFD = pollfd(fd: ended ? -1 : fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, 50)
            guard ready > 0, !ended else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            if n <= 0 { ended = true; continue }
            if output.count < 65_536 { output += buffer[..<n] }
        }
        kill(group ? -pid : pid, SIGKILL)
        if !exited { while waitpid(pid, &status, 0) < 0, errno == EINTR {} }
        return (output, status, true)
    }

    /// The terminal's foreground back to focus's process group after the program had it
    /// (SIGTTOU blocked meanwhile, as a shell does when it takes the terminal back).
    static func takeTerminalBack() {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &old)
        tcsetpgrp(0, getpgrp())
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}
