import FocusSystem
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
        // On a terminal, the program gets it while it runs (its own group in the foreground),
        // or, where the C library cannot do that, stays in focus's group as before.
        let onTerminal = isatty(0) == 1 && tcgetpgrp(0) == getpgrp()
        let handOver = onTerminal && ChildProcess.canHandOverTerminal
        var request = ChildProcess.Request(arguments: words, searchPath: true, environment: environment, input: .inherited,
                                           output: .firstLine, timeout: timeout, termGrace: nil, ownGroup: handOver || !onTerminal)
        request.foreground = handOver
        let ran = ChildProcess.run(request)
        if handOver { takeTerminalBack() }
        let output: [UInt8]
        switch ran {
        case let .couldNotStart(reason):
            throw FocusError.unavailable("could not run the password command \(shown): \(reason).")
        case .timedOut:
            throw FocusError.unavailable("the password command \(shown) did not finish within \(timeout.components.seconds) s (it and what it started were stopped).")
        case let .exited(code, _) where code != 0:
            throw FocusError.unavailable("the password command \(shown) failed (exit status \(code)); run it yourself to see why.")
        case let .signalled(signal, _):
            throw FocusError.unavailable("the password command \(shown) failed (signal \(signal)); run it yourself to see why.")
        case let .exited(_, printed):
            output = printed
        }
        let line = output.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let password = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        guard !password.isEmpty else {
            throw FocusError.unavailable("the password command \(shown) printed no password on its first line.")
        }
        return password
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
