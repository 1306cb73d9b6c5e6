import FoundationEssentials
import Synchronization

/// Posts a run's notices off the session's path, one after another, in order. It holds one
/// task at a time however long the run lasts (a run of 10,000 cycles posts 20,000 notices),
/// and `drain` waits for the last one before the process exits.
package final class NoticePoster: Sendable {
    private struct State {
        var last: Task<Void, Never>?
        var posted = 0
        var delivered = 0
    }

    private let state = Mutex(State())

    package init() {}

    package func post(_ notice: Notice, via notifier: any Notifier) {
        enqueue { await notifier.post(notice) }
    }

    /// Runs `work` after everything enqueued before it (hooks use their own poster, so a slow
    /// hook never holds back a notice).
    package func enqueue(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { s in
            let previous = s.last
            s.posted += 1
            // Each task holds only the one before it, released once that one has finished.
            s.last = Task { [self] in
                await previous?.value
                await work()
                state.withLock { $0.delivered += 1 }
            }
        }
    }

    /// Waits until every notice posted so far has been handed to the notifier.
    package func drain() async {
        while let last = state.withLock({ $0.last }) {
            await last.value
            let done = state.withLock { s -> Bool in
                guard s.delivered == s.posted else { return false }
                s.last = nil
                return true
            }
            if done { return }
        }
    }

    /// Notices posted and not yet handed to the notifier.
    package var pending: Int { state.withLock { $0.posted - $0.delivered } }
    /// Task handles this poster holds (never more than one).
    package var heldTasks: Int { state.withLock { $0.last == nil ? 0 : 1 } }
}
