import FoundationEssentials
import Synchronization

/// A queue of messages that one consumer can await, cancellably: for a session, signals, keys
/// and other terminals post commands that the runner takes one at a time; for the daemon,
/// signals post stop and reload (`DaemonInbox`).
package final class Mailbox<Message: Sendable>: Sendable {
    private struct State {
        var queue: [Message] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<Message?, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Posts a message (thread-safe, from any context).
    package func post(_ message: Message) {
        let waiter: CheckedContinuation<Message?, Never>? = state.withLock { s in
            if let w = s.waiter {
                s.waiter = nil
                return w.continuation
            }
            s.queue.append(message)
            return nil
        }
        waiter?.resume(returning: message)
    }

    /// The next message, or nil if the waiting task is cancelled first.
    package func next() async -> Message? {
        let id: UInt64 = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Message?, Never>) in
                let immediate: Message?? = state.withLock { s in
                    if !s.queue.isEmpty { return .some(s.queue.removeFirst()) }
                    if Task.isCancelled { return .some(nil) }
                    s.waiter = (id, c)
                    return nil
                }
                if let immediate { c.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Message?, Never>? = state.withLock { s in
                guard let w = s.waiter, w.id == id else { return nil }
                s.waiter = nil
                return w.continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Whether a consumer is waiting and nothing is queued (tests use it to know the runner is idle).
    package var isWaiting: Bool { state.withLock { $0.waiter != nil && $0.queue.isEmpty } }

    /// Takes a queued message without waiting.
    package func poll() -> Message? {
        state.withLock { s in s.queue.isEmpty ? nil : s.queue.removeFirst() }
    }
}
