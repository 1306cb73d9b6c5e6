import FocusSystem
import FocusText
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Where the signal handler writes the signal's number: set before a handler is installed and
/// never changed while one is, so the handler only reads it (write(2) is async-signal-safe,
/// signal-safety(7)). One per process, as a signal's disposition is.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Signals delivered however soon they come. A handler installed with sigaction(2) writes the
/// signal's number to a pipe, and a thread of its own reads it and calls `deliver`. Not a
/// Dispatch signal source: on Linux one is registered later, on Dispatch's own queue, and a
/// signal that came in between was ignored (a SIGTERM sent as soon as a daemon said it was
/// watching, or as soon as a countdown had claimed the session). The daemon and the countdown
/// each hold one, never both at once.
package final class SignalPipe: @unchecked Sendable {
    private var handled: [Int32] = []
    private var writeEnd: Int32 = -1

    package init() {}

    /// Catches `signals` from now on; `deliver` runs on the pipe's thread, one signal at a time.
    /// Without a pipe to be had, the signals keep their default action.
    package func start(_ signals: [Int32], deliver: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let readEnd = ends[0]
        writeEnd = ends[1]
        handled = signals
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = writeEnd
        DetachedThread.start {
            var number: UInt8 = 0
            while true {
                let n = read(readEnd, &number, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { break }
                deliver(Int32(number))
            }
            close(readEnd)
        }
        for signo in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                let saved = errno
                var number = UInt8(truncatingIfNeeded: signo)
                _ = write(signalPipeWriteEnd, &number, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signo, &action, nil)
        }
    }

    /// Ignores the signals from now on and lets the reading thread end.
    package func stop() {
        for signo in handled { signal(signo, SIG_IGN) }
        handled = []
        if writeEnd >= 0 {
            close(writeEnd)
            writeEnd = -1
        }
    }
}
