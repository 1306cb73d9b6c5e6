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

/// SIGTERM/SIGINT → stop, SIGHUP → reload, through Dispatch sources (the signals are ignored,
/// so nothing runs in a signal handler).
package final class DaemonSignals: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "focus.daemon.signals")

    package init() {}

    package func start(_ inbox: DaemonInbox) {
        for (signo, event) in [(SIGTERM, DaemonEvent.stop), (SIGINT, .stop), (SIGHUP, .reload)] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
            source.setEventHandler { inbox.post(event) }
            source.resume()
            sources.append(source)
        }
    }

    package func stop() {
        for s in sources { s.cancel() }
        sources.removeAll()
    }
}
