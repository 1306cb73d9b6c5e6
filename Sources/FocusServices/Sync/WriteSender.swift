import FocusCore
import FoundationEssentials

/// Sends a set of CalDAV writes several at once where the server keeps up and one at a time
/// where it does not (`SendSchedule`, `SendWindow`, README "Your real calendar"), for a sync and
/// for a publication alike. Each answer is handed to the caller as it arrives, so that what
/// the server took is recorded at once; a failure that is final stops new writes, those in
/// flight are still handed over, then it is thrown.
struct WriteSender {
    let client: any CalDAVClient
    let endpoint: CalDAVEndpoint
    /// The most writes in flight at once: `FOCUS_SEND_WIDTH` (1: one at a time, for
    /// `scripts/bench/bench-sync`), else `SendWindow.widest`.
    let limit: Int
    let now: @Sendable () -> Date

    init(env: ServiceContext, client: any CalDAVClient, endpoint: CalDAVEndpoint) {
        self.client = client
        self.endpoint = endpoint
        limit = env.environment["FOCUS_SEND_WIDTH"].flatMap { Int($0) } ?? SendWindow.widest
        now = env.now
    }

    /// Sends write `i` of `orders.count` as `request(i)` makes it (asked again when it is sent
    /// again); one of a later order starts only when none of an earlier one is in flight.
    /// `answered(i, answer)` is called once per write the server answered.
    func send(orders: [Int], request: (Int) -> RemoteWriteRequest, answered: (Int, RemoteWrite) throws -> Void) throws {
        guard !orders.isEmpty else { return }
        let channel = client.writes(endpoint)
        var schedule = SendSchedule(orders: orders, limit: limit)
        let started = ContinuousClock.now
        func elapsed() -> Double {
            let d = started.duration(to: .now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var failure: FocusError?
        while !schedule.finished {
            while let index = schedule.next(at: elapsed()) {
                channel.start(request(index), tag: index)
            }
            guard let done = channel.next(waitingAtMost: schedule.wait(at: elapsed())) else { continue }
            switch schedule.completed(done.tag, Self.outcome(done, now: now()), at: elapsed()) {
            case .record:
                try answered(done.tag, try done.result.get())
            case .again:
                continue
            case .giveUp:
                if case let .failure(error) = done.result, failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// How a write's answer counts for the send window.
    static func outcome(_ done: RemoteWriteCompletion, now: Date) -> SendWindow.Outcome {
        guard case .failure = done.result else { return .answered }
        if done.pushBack != nil { return .throttled(retryAfter: SendWindow.retryAfter(done.retryAfter, now: now)) }
        return .failed
    }
}
