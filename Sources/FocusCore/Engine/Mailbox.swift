import Foundation
import Synchronization

/// A queue of session commands that one consumer can await, cancellably: signals, keys and other
/// terminals post; the runner takes them one at a time.
package final class Mailbox: Sendable {
    private struct State {
        var queue: [SessionCommand] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<SessionCommand?, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Posts a command (thread-safe, from any context).
    package func post(_ command: SessionCommand) {
        let waiter: CheckedContinuation<SessionCommand?, Never>? = state.withLock { s in
            if let w = s.waiter {
                s.waiter = nil
                return w.continuation
            }
            s.queue.append(command)
            return nil
        }
        waiter?.resume(returning: command)
    }

    /// The next command, or nil if the waiting task is cancelled first.
    package func next() async -> SessionCommand? {
        let id: UInt64 = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<SessionCommand?, Never>) in
                let immediate: SessionCommand?? = state.withLock { s in
                    if !s.queue.isEmpty { return .some(s.queue.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    s.waiter = (id, c)
                    return nil
                }
                if let immediate { c.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<SessionCommand?, Never>? = state.withLock { s in
                guard let w = s.waiter, w.id == id else { return nil }
                s.waiter = nil
                return w.continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Whether a consumer is waiting and nothing is queued (tests use it to know the runner is idle).
    package var isWaiting: Bool { state.withLock { $0.waiter != nil && $0.queue.isEmpty } }

    /// Takes a queued command without waiting.
    package func poll() -> SessionCommand? {
        state.withLock { s in s.queue.isEmpty ? nil : s.queue.removeFirst() }
    }
}
