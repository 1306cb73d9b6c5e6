import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

extension SyncEngine {
    /// Performs writes, several at once where the server keeps up and one at a time where it
    /// does not (`SendSchedule`, `SendWindow`): each answer is recorded as it arrives, so a sync
    /// killed at any point loses and doubles nothing. A failure that is final stops new writes;
    /// those in flight are still recorded, then it is thrown. Returns the writes the server
    /// refused (412, or gone), for `SyncPlan.afterRefusal`.
    func perform(_ writes: [SyncWrite], endpoint: CalDAVEndpoint, summary: inout Summary) throws -> [SyncWrite] {
        guard !writes.isEmpty else { return [] }
        let channel = client.writes(endpoint)
        // FOCUS_SEND_WIDTH caps the writes in flight (1: one at a time; scripts/bench-sync).
        let limit = env.environment["FOCUS_SEND_WIDTH"].flatMap { Int($0) } ?? SendWindow.widest
        var schedule = SendSchedule(orders: writes.map(\.order), limit: limit)
        let started = ContinuousClock.now
        func elapsed() -> Double {
            let d = started.duration(to: .now)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var bodies: [Int: Data] = [:]
        var refused: [SyncWrite] = []
        var failure: FocusError?
        while !schedule.finished {
            while let index = schedule.next(at: elapsed()) {
                channel.start(request(writes[index], body: &bodies[index]), tag: index)
            }
            guard let done = channel.next(waitingAtMost: schedule.wait(at: elapsed())) else { continue }
            let outcome = Self.outcome(done, now: env.now())
            switch schedule.completed(done.tag, outcome, at: elapsed()) {
            case .record:
                progress?.advance(by: 1)
                if try !record(writes[done.tag], try done.result.get(), body: bodies[done.tag], summary: &summary) {
                    refused.append(writes[done.tag])
                }
                bodies[done.tag] = nil
            case .again:
                continue
            case .giveUp:
                if case let .failure(error) = done.result, failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        return refused
    }

    /// How a write's answer counts for the send window.
    static func outcome(_ done: RemoteWriteCompletion, now: Date) -> SendWindow.Outcome {
        guard case .failure = done.result else { return .answered }
        if done.pushBack != nil { return .throttled(retryAfter: SendWindow.retryAfter(done.retryAfter, now: now)) }
        return .failed
    }

    /// The request of a write; a PUT's text made once (`body`) and kept for sending it again.
    private func request(_ write: SyncWrite, body: inout Data?) -> RemoteWriteRequest {
        switch write {
        case let .put(item, url, etag, exists, original):
            let data = body ?? Data(SyncCodec.encode(item, stamp: env.now(), over: original, zone: env.calendar).utf8)
            body = data
            return .put(url: url, ics: data, ifMatch: exists ? (etag ?? "*") : nil)
        case let .delete(_, url, etag):
            return .delete(url: url, ifMatch: etag)
        }
    }

    /// Records what the server took; false when it refused the write.
    private func record(_ write: SyncWrite, _ answer: RemoteWrite, body: Data?, summary: inout Summary) throws -> Bool {
        switch (write, answer) {
        case let (.put(item, url, _, _, _), .written(etag)):
            try db.recordSyncStates([SyncState(uid: item.uid, kind: item.kind, url: url, etag: etag, base: body ?? Data(), digest: item.digest)])
            summary.sent += 1
        case (.put, _):
            return false
        case let (.delete(uid, _, _), .written), let (.delete(uid, _, _), .missing):
            try db.recordSyncStates([], forgetting: [uid])
            summary.deletedThere += 1
        case (.delete, .changedOnServer):
            return false
        }
        return true
    }
}
