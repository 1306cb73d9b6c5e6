import Dispatch
import Foundation
import Synchronization

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
package final class DaemonInbox: Sendable {
    private struct State {
        var queue: [DaemonEvent] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<DaemonEvent?, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    package func post(_ event: DaemonEvent) {
        let waiter = state.withLock { s -> CheckedContinuation<DaemonEvent?, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w.continuation
            }
            s.queue.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next event, or nil when the waiting task is cancelled first.
    package func next() async -> DaemonEvent? {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<DaemonEvent?, Never>) in
                let immediate = state.withLock { s -> DaemonEvent?? in
                    if !s.queue.isEmpty { return .some(s.queue.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    s.waiter = (id, c)
                    return nil
                }
                if let immediate { c.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<DaemonEvent?, Never>? in
                guard let w = s.waiter, w.id == id else { return nil }
                s.waiter = nil
                return w.continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Whether the consumer is waiting with nothing queued (tests use it to know the loop is idle).
    package var isWaiting: Bool { state.withLock { $0.waiter != nil && $0.queue.isEmpty } }
}

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
