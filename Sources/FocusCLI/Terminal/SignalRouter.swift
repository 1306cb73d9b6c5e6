import Dispatch
import FocusCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns signals into session commands through a `SignalPipe` (a sigaction handler writes the
/// signal to a pipe; a thread of its own posts the command): SIGINT → stop by the person,
/// SIGTERM/SIGHUP → stop by a signal, SIGWINCH → redraw, SIGUSR1 → read the request another
/// `focus` left, SIGTSTP (Ctrl-Z) → suspend (a pause; the runner then stops the process for
/// real), SIGCONT → the terminal back in the session's mode when in the foreground, and a redraw.
/// `start` and `continue` start it before anything else (reading the database, finding the work,
/// claiming the session), so a signal in the process's first instants waits in `mailbox` for the
/// countdown instead of being lost: the session begins stopped and is recorded as interrupted.
/// What the countdown adds later (its terminal, its database) is attached once it has them.
/// Once stopped, the signals are ignored.
package final class SignalRouter: @unchecked Sendable {
    private struct Attached {
        var onContinue: @Sendable () -> Void = {}
        var onRequest: @Sendable () -> SessionCommand? = { nil }
    }

    private let pipe = SignalPipe()
    private let attached = Mutex(Attached())
    /// Where the commands go, from the moment `start` returns.
    package let mailbox = Mailbox<SessionCommand>()

    package init() {}

    package func start() {
        pipe.start([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGUSR1, SIGTSTP, SIGCONT]) { [self] signo in
            let handlers = attached.withLock { $0 }
            if let command = SignalRouter.command(for: signo, onContinue: handlers.onContinue, onRequest: handlers.onRequest) {
                self.mailbox.post(command)
            }
        }
    }

    /// What SIGCONT and SIGUSR1 do once the countdown has a terminal and a database; before,
    /// SIGCONT only redraws and SIGUSR1 reads nothing (no other `focus` knows this process yet).
    package func attach(onContinue: @escaping @Sendable () -> Void, onRequest: @escaping @Sendable () -> SessionCommand?) {
        attached.withLock { $0 = Attached(onContinue: onContinue, onRequest: onRequest) }
    }

    private static func command(for signo: Int32, onContinue: @Sendable () -> Void,
                                onRequest: @Sendable () -> SessionCommand?) -> SessionCommand? {
        switch signo {
        case SIGINT: return .stop(.person(reason: nil))
        case SIGTERM, SIGHUP: return .stop(.signal)
        case SIGWINCH: return .redraw
        case SIGUSR1: return onRequest()
        case SIGTSTP: return .suspend
        case SIGCONT:
            onContinue()
            return .redraw
        default: return nil
        }
    }

    /// Ignores the signals from now on (again is harmless).
    package func stop() {
        pipe.stop()
    }
}

/// Reads single keys from a terminal without blocking the session.
package final class KeyReader: @unchecked Sendable {
    private var source: DispatchSourceRead?
    private let queue = DispatchQueue(label: "focus.keys")
    private let lock = Mutex(())
    private let fd: Int32
    /// Set by `finish`: a late `start` (a SIGCONT at the end of a run) listens no more.
    private var finished = false

    /// `fd`: the terminal to read (standard input when not given).
    package init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// Starts listening (nothing when already listening, or when `fd` is no terminal).
    package func start(mailbox: Mailbox<SessionCommand>) {
        lock.withLock { _ in listen(mailbox) }
    }

    private func listen(_ mailbox: Mailbox<SessionCommand>) {
        guard source == nil, !finished, fd >= 0, isatty(fd) == 1 else { return }
        let fd = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 {
                // End of input: stop listening; the session goes on.
                self?.stop()
                return
            }
            for byte in buffer[0..<n] {
                if let command = KeyReader.command(for: byte) { mailbox.post(command) }
            }
        }
        source.resume()
        self.source = source
    }

    package func stop() {
        lock.withLock { _ in
            source?.cancel()
            source = nil
        }
    }

    /// Stops listening for good: `start` does nothing from now on.
    package func finish() {
        lock.withLock { _ in
            source?.cancel()
            source = nil
            finished = true
        }
    }

    /// Space or p: pause/resume; s: skip; q: stop; k and d: keep or discard time away from the
    /// screen when the countdown asks (README, "Away from the screen").
    package static func command(for byte: UInt8) -> SessionCommand? {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "p"), UInt8(ascii: "P"): return .togglePause
        case UInt8(ascii: "s"), UInt8(ascii: "S"): return .skip
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .stop(.person(reason: nil))
        case UInt8(ascii: "k"), UInt8(ascii: "K"): return .awayAnswer(.keep)
        case UInt8(ascii: "d"), UInt8(ascii: "D"): return .awayAnswer(.discard)
        default: return nil
        }
    }
}
