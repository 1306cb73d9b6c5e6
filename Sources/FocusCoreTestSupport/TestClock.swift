import Foundation
import Synchronization

/// A clock that moves only when a test says so: 25 minutes pass in microseconds.
/// `advance(by:)` wakes sleepers in deadline order and yields so the woken tasks run before
/// time moves on.
package final class TestClock: Clock, Sendable {
    package struct Instant: InstantProtocol, Hashable, Sendable {
        package var offset: Duration
        package func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())
    private let idleCheck: @Sendable () -> Bool

    /// `isIdle` tells when the code under test has nothing left to do until time moves (for a
    /// session runner: it sleeps and listens for commands, or it has finished). Without it the
    /// clock waits for at least one sleeper.
    package init(isIdle: (@Sendable () -> Bool)? = nil) {
        idleCheck = isIdle ?? { false }
        hasCustomIdle = isIdle != nil
    }

    private let hasCustomIdle: Bool

    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    package var now: Instant { state.withLock { $0.now } }
    package var minimumResolution: Duration { .zero }

    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64 = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { s in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: c))
                    return nil
                }
                if let resumeNow { c.resume(with: resumeNow) }
            }
        } onCancel: {
            let c: CheckedContinuation<Void, any Error>? = state.withLock { s in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i).continuation
            }
            c?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward, waking every sleeper whose deadline is reached, in order.
    package func advance(by amount: Duration) async {
        let target = state.withLock { $0.now }.advanced(by: amount)
        await settle()
        while true {
            let due: Sleeper? = state.withLock { s in
                guard let i = s.sleepers.indices.min(by: { s.sleepers[$0].deadline < s.sleepers[$1].deadline }),
                      s.sleepers[i].deadline <= target else { return nil }
                let sleeper = s.sleepers.remove(at: i)
                if sleeper.deadline > s.now { s.now = sleeper.deadline }
                return sleeper
            }
            guard let due else { break }
            due.continuation.resume()
            await settle()
        }
        state.withLock { $0.now = target }
        await settle()
    }

    /// Lets other tasks run until they are idle again (bounded by 5 s of real time, so a
    /// broken test fails instead of hanging).
    package func settle() async {
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while ContinuousClock.now < deadline {
            for _ in 0..<20 { await Task.yield() }
            if hasCustomIdle ? idleCheck() : sleeperCount > 0 { return }
            try? await Task.sleep(for: .microseconds(200))
        }
    }
}
