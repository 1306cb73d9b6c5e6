import FocusCore
import FocusStorage
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Where the password of a CalDAV account comes from (README, "Your real calendar"): focus never
/// stores one and never puts one in a process's arguments. In order: standard input
/// (`--password-stdin`), the account's `password_command`, a prompt on the terminal; none of
/// those and the requests go without a password (the server says whether it needs one).
struct CalDAVLogin {
    var passwordFromStandardInput = false
    /// Whether a person at a terminal may be asked (not after `plan`, not in the daemon).
    var mayPrompt = true

    /// The endpoint of a stored account, with its password.
    func endpoint(_ account: StoredAccount, env: FocusEnvironment) throws(FocusError) -> CalDAVEndpoint {
        let user = account.user.isEmpty ? nil : account.user
        let password = try password(user: user, command: account.passwordCommand, host: CalendarFeed.shownAddress(account.url), env: env)
        return CalDAVEndpoint(url: account.url, user: user, password: password, caFile: account.caFile, insecure: account.insecure)
    }

    func password(user: String?, command: String?, host: String, env: FocusEnvironment) throws(FocusError) -> String? {
        if passwordFromStandardInput { return try Self.standardInputPassword() }
        if let command, !command.isEmpty { return try Self.run(command, environment: env.environment) }
        guard let user, mayPrompt, isatty(0) == 1, isatty(2) == 1 else { return nil }
        return Self.prompt("Password for \(user) at \(host): ")
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

    /// Asks on the terminal with echo off (termios(3)); nil when nothing was typed.
    static func prompt(_ question: String) -> String? {
        StandardConsole.write(question, to: STDERR_FILENO)
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(0, TCSANOW, &saved) }
            StandardConsole.write("\n", to: STDERR_FILENO)
        }
        guard let line = Swift.readLine(strippingNewline: true), !line.isEmpty else { return nil }
        return line
    }

    /// Runs a `password_command` without a shell (its words split as a shell would, the program
    /// found on PATH) and returns the first line it prints. Standard input and error stay the
    /// terminal's, so a program like pass(1) can ask for its passphrase; it has 60 seconds.
    static func run(_ command: String, environment: [String: String], timeout: Duration = .seconds(60)) throws(FocusError) -> String {
        let words = try CommandLineWords.split(command)
        let shown = "'\(Sanitized.terminal(command))'"
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { throw FocusError.unavailable("could not run the password command \(shown): \(String(cString: strerror(errno))).") }
        // Both ends close-on-exec at once (the child gets the writing end through dup2): a hook
        // the daemon starts meanwhile must not inherit the writing end, or reading the password
        // would wait for that hook to exit.
        _ = fcntl(pipeFDs[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeFDs[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
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
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, words[0], &actions, &attr, argv, envp)
        close(pipeFDs[1])
        guard rc == 0 else {
            close(pipeFDs[0])
            throw FocusError.unavailable("could not run the password command \(shown): \(String(cString: strerror(rc))).")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var timedOut = false
        while true {
            let left = deadline - ContinuousClock.now
            if left <= .zero { timedOut = true; break }
            var pollFD = pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(1000, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))))
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { continue }
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            if output.count < 65_536 { output += buffer[..<n] }
        }
        close(pipeFDs[0])
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if timedOut {
            throw FocusError.unavailable("the password command \(shown) did not finish within \(timeout.components.seconds) s.")
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
}
