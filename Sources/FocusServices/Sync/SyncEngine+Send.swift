import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

extension SyncEngine {
    /// Performs writes, several at once where the server keeps up and one at a time where it
    /// does not (`WriteSender`): each answer is recorded as it arrives, so a sync killed at any
    /// point loses and doubles nothing. A failure that is final stops new writes; those in
    /// flight are still recorded, then it is thrown. Returns the writes the server refused
    /// (412, or gone), for `SyncPlan.afterRefusal`.
    func perform(_ writes: [SyncWrite], endpoint: CalDAVEndpoint, summary: inout Summary) throws -> [SyncWrite] {
        var bodies: [Int: Data] = [:]
        var refused: [SyncWrite] = []
        try WriteSender(env: env, client: client, endpoint: endpoint).send(orders: writes.map(\.order)) { index in
            request(writes[index], body: &bodies[index])
        } answered: { index, answer in
            progress?.advance(by: 1)
            if try !record(writes[index], answer, body: bodies[index], summary: &summary) { refused.append(writes[index]) }
            bodies[index] = nil
        }
        return refused
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
            if !uid.hasPrefix("session-") { try db.noteDeletedHere([uid], at: env.now()) }
            summary.deletedThere += 1
        case (.delete, .changedOnServer):
            return false
        }
        return true
    }
}
