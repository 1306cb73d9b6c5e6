import FoundationEssentials

/// The order in which a sync's writes go out, several at once (`SendWindow`): a pure value the
/// send loop asks which write to start next and tells each completion. Writes are started in
/// the order given; one of a later `order` (tasks, then subtasks, then sessions, then the
/// deletions: `SyncWrite.order`) starts only when none of an earlier one is in flight, so a sync
/// cut off anywhere never leaves a subtask there without its task. A write to send again goes
/// first. After a final failure nothing more starts; those in flight still end.
package struct SendSchedule: Sendable, Equatable {
    package private(set) var window: SendWindow
    /// Indices not yet started (or to send again), the next first.
    private var waiting: [Int]
    private let orders: [Int]
    /// Each item's sends so far.
    private var attempts: [Int]
    private var inFlight: Set<Int> = []
    /// A failure was final: nothing more starts.
    package private(set) var stopped = false

    /// `orders[i]`: the order of write `i` (ascending, as the plan sorted them).
    /// `limit`: the most in flight at once (`SendWindow.limit`).
    package init(orders: [Int], limit: Int = SendWindow.widest) {
        window = SendWindow(limit: limit)
        self.orders = orders
        waiting = Array(orders.indices)
        attempts = Array(repeating: 0, count: orders.count)
    }

    /// Every write ended (or, after a final failure, every write in flight).
    package var finished: Bool { inFlight.isEmpty && (waiting.isEmpty || stopped) }

    /// Writes in flight now.
    package var inFlightCount: Int { inFlight.count }

    /// The write to start now (counted as in flight), or nil when none may start yet.
    package mutating func next(at time: Double) -> Int? {
        guard !stopped, let index = waiting.first, window.mayStart(inFlight: inFlight.count, at: time),
              inFlight.allSatisfy({ orders[$0] == orders[index] }) else { return nil }
        waiting.removeFirst()
        attempts[index] += 1
        inFlight.insert(index)
        return index
    }

    /// How long the loop may wait for a completion before asking `next` again: until the
    /// window's hold ends when a write waits for it, else (nil) until one completes.
    package func wait(at time: Double) -> Double? {
        guard !stopped, !waiting.isEmpty, window.holdUntil > time else { return nil }
        return window.holdUntil - time
    }

    /// Write `index` ended so; what to do with it.
    package mutating func completed(_ index: Int, _ outcome: SendWindow.Outcome, at time: Double) -> SendWindow.Verdict {
        guard inFlight.contains(index) else { return .record }
        let verdict = window.observe(outcome, attempt: attempts[index], inFlight: inFlight.count, at: time)
        inFlight.remove(index)
        switch verdict {
        case .record: break
        case .again: waiting.insert(index, at: 0)
        case .giveUp: stopped = true
        }
        return verdict
    }
}
