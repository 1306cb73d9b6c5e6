import Dispatch
import FocusCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns signals into session commands through a `SignalPipe` (a sigaction handler writes the
/// signal to a pipe; a thread of its own posts the command, so a signal sent as soon as the
/// session is claimed is not lost): SIGINT → stop by the person, SIGTERM/SIGHUP → stop by a
/// signal, SIGWINCH → redraw, SIGUSR1 → read the request another `focus` left, SIGTSTP (Ctrl-Z)
/// → suspend (a pause; the runner then stops the process for real), SIGCONT → `onContinue` (the
/// terminal back in the session's mode when in the foreground) and a redraw. Once stopped, the
/// signals are ignored.
package final class SignalRouter: @unchecked Sendable {
    private let pipe = SignalPipe()

    package init() {}

    package func start(mailbox: Mailbox<SessionCommand>, onContinue: @escaping @Sendable () -> Void = {},
                       onRequest: @escaping @Sendable () -> SessionCommand?) {
        pipe.start([SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGUSR1, SIGTSTP, SIGCONT]) { signo in
            if let command = SignalRouter.command(for: signo, onContinue: onContinue, onRequest: onRequest) {
                mailbox.post(command)
            }
        }
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

    /// `fd`: the terminal to read (standard input when not given).
    package init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// Starts listening (nothing when already listening, or when `fd` is no terminal).
    package func start(mailbox: Mailbox<SessionCommand>) {
        lock.withLock { _ in listen(mailbox) }
    }

    private func listen(_ mailbox: Mailbox<SessionCommand>) {
        guard source == nil, fd >= 0, isatty(fd) == 1 else { return }
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
