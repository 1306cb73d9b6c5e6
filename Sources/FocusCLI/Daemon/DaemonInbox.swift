import Dispatch
import FocusCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// What can wake the daemon before its timer.
package enum DaemonEvent: Sendable, Equatable {
    /// SIGTERM or SIGINT: finish now.
    case stop
    /// SIGHUP: read the config again.
    case reload
}

/// Events for the daemon's loop, posted from any thread, awaited by one consumer, cancellably.
package typealias DaemonInbox = Mailbox<DaemonEvent>

/// Where the daemon's signal handler writes the signal's number: set before the handler is
/// installed and never changed while it is, so the handler only reads it (write(2) is
/// async-signal-safe, signal-safety(7)).
nonisolated(unsafe) private var daemonSignalPipe: Int32 = -1

/// SIGTERM/SIGINT → stop, SIGHUP → reload. A handler installed with sigaction(2) writes the
/// signal's number to a pipe, and a thread of its own posts it to the inbox. Not a Dispatch
/// signal source: on Linux one is registered later, on Dispatch's own queue, and a signal that
/// came in between (a SIGTERM sent as soon as the daemon said it was watching) was ignored and
/// the daemon ran on.
package final class DaemonSignals: @unchecked Sendable {
    private static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    private var writeEnd: Int32 = -1

    package init() {}

    package func start(_ inbox: DaemonInbox) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // No pipe to be had: the signals keep their default action (they end the daemon).
            return
        }
        let readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
        daemonSignalPipe = writeEnd
        DetachedThread.start {
            var number: UInt8 = 0
            while true {
                let n = read(readEnd, &number, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { break }
                inbox.post(Int32(number) == SIGHUP ? .reload : .stop)
            }
            close(readEnd)
        }
        for signo in Self.handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                var number = UInt8(truncatingIfNeeded: signo)
                _ = write(daemonSignalPipe, &number, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signo, &action, nil)
        }
    }

    /// Ignores the signals from now on and lets the reading thread end.
    package func stop() {
        for signo in Self.handled { signal(signo, SIG_IGN) }
        if writeEnd >= 0 {
            close(writeEnd)
            writeEnd = -1
        }
    }
}
