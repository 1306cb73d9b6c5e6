import FocusCore
import FocusServices
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM/SIGINT → stop, SIGHUP → reload, through a `SignalPipe` (a sigaction handler and a
/// thread of its own), so a SIGTERM sent as soon as the daemon says it is watching is not lost.
package final class DaemonSignals: @unchecked Sendable {
    private let pipe = SignalPipe()

    package init() {}

    package func start(_ inbox: DaemonInbox) {
        pipe.start([SIGTERM, SIGINT, SIGHUP]) { signo in
            inbox.post(signo == SIGHUP ? .reload : .stop)
        }
    }

    /// Ignores the signals from now on and lets the reading thread end.
    package func stop() {
        pipe.stop()
    }
}
