import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials
import Glibc

/// One sync with the sync calendar (README, "Two machines"): read what changed there since the
/// last sync (`sync-collection`, RFC 6578), merge it item by item with what changed here since
/// the version both sides last agreed on (`SyncMerge`), apply the result here in one
/// transaction, then write the rest there with `If-Match` (a create with `If-None-Match: *`),
/// each write recorded as soon as the server took it. A write the server refuses because the
/// item changed there meanwhile (412) is merged again in the next round. Killed at any point,
/// the next sync finds every item either agreed or still different, never twice: an item's
/// address is made from its name, which never changes.
package struct SyncEngine {
    let env: FocusEnvironment
    let client: any CalDAVClient
    let db: AppDatabase
    /// The progress line of the writes (a first sync of a long history sends thousands).
    var progress: ProgressMeter?

    package init(env: FocusEnvironment, client: any CalDAVClient, db: AppDatabase, progress: ProgressMeter? = nil) {
        self.env = env
        self.client = client
        self.db = db
        self.progress = progress
    }

    package struct Summary: Equatable, Sendable {
        package var received = 0
        package var sent = 0
        package var deletedHere = 0
        package var deletedThere = 0
        package var conflicts = 0
        package var backup: String?
        package var warnings: [String] = []

        package init() {}
    }

    /// Deleting more local items than this takes a backup first.
    static let deletionsBeforeBackup = 5

    package func run(_ target: SyncTarget, endpoint: CalDAVEndpoint) throws -> Summary {
        var summary = Summary()
        var token = target.token
        var fingerprint = target.fingerprint
        if target.syncedAt == nil, try db.holdsHistory() { summary.backup = try backup("before-first-sync") }
        // A few rounds: a write refused because the item changed on the server meanwhile is
        // merged again with what the server now holds.
        for _ in 0..<3 {
            let (retry, newToken) = try round(target.url, name: target.name, token: token, machineID: target.machineID, endpoint: endpoint,
                                              fingerprint: &fingerprint, summary: &summary)
            token = newToken
            if !retry { break }
        }
        try publishCheckpoint(target, endpoint: endpoint)
        try db.noteSync(at: env.now(), token: token, error: nil, fingerprint: fingerprint)
        return summary
    }

    /// Writes this machine's running session into the calendar when what it says changed, and
    /// removes it when no session runs (README, "Two machines": the other machines' `status`
    /// shows it).
    private func publishCheckpoint(_ target: SyncTarget, endpoint: CalDAVEndpoint) throws {
        let url = Publication.resourceURL(calendar: target.url, uid: RunningCheckpoint.uid(machineID: target.machineID))
        guard let active = try db.activeSession() else {
            if target.checkpoint != nil {
                _ = try client.delete(url, ifMatch: nil, endpoint)
                try db.noteCheckpoint(nil)
            }
            return
        }
        let now = env.now()
        let snapshot = active.snapshot
        let checkpoint = RunningCheckpoint(
            machineID: target.machineID, machine: Self.hostName(), label: try db.path(taskID: active.taskID, subtaskID: active.subtaskID),
            phase: snapshot.phase.rawValue, paused: snapshot.isPaused, remainingSeconds: active.remainingSeconds(at: now),
            endsAt: snapshot.isPaused ? nil : snapshot.endsAt, checkpointAt: now)
        guard checkpoint.digest != target.checkpoint else { return }
        let data = Data(checkpoint.encode(stamp: now).utf8)
        if case .changedOnServer = try client.put(url, ics: data, ifMatch: nil, endpoint) {
            _ = try client.put(url, ics: data, ifMatch: "*", endpoint)
        }
        try db.noteCheckpoint(checkpoint.digest)
    }

    /// This machine's host name, as the other machines' `status` shows it.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "another machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "another machine" : name
    }

    private func decode(_ data: Data) -> SyncItem? { try? SyncCodec.decode(data, zone: env.calendar) }

    /// One round: pull, merge, apply, push. Returns whether a write must be merged again, and
    /// the token that stands for what was read. `fingerprint`: the local tables' when the last
    /// round (or sync) left everything agreed; nil when that is not known.
    private func round(_ calendarURL: String, name: String, token: String?, machineID: String, endpoint: CalDAVEndpoint,
                       fingerprint: inout String?, summary: inout Summary) throws -> (Bool, String?) {
        let changes = try client.changes(in: calendarURL, since: token, endpoint)
        // Nothing new there, and the tables here are as the last sync left them: nothing to
        // merge or send, and no item needs reading.
        if !changes.complete, changes.changed.isEmpty, changes.removed.isEmpty, let known = fingerprint, try db.localFingerprint() == known {
            return (false, changes.token ?? token)
        }
        let states = try db.syncStates()
        let stateByURL = Dictionary(states.values.map { ($0.url, $0) }, uniquingKeysWith: { a, _ in a })

        // What the server holds now, for the items it reported.
        struct Remote { var item: SyncItem?; var url: String; var etag: String?; var data: Data? = nil }
        var remote: [String: Remote] = [:]
        var seenURLs = Set<String>()
        var undecodable = 0
        var elsewhere: [(url: String, checkpoint: RunningCheckpoint)] = []
        for resource in changes.changed {
            seenURLs.insert(resource.url)
            guard let data = resource.data else { continue }
            if let checkpoint = RunningCheckpoint.decode(data) {
                if checkpoint.machineID != machineID { elsewhere.append((resource.url, checkpoint)) }
                continue
            }
            guard let item = decode(data) else {
                // Not one of focus's items (another program's event): left alone. A resource
                // that was an item and no longer reads as one counts as removed below.
                if let state = stateByURL[resource.url] { remote[state.uid] = Remote(item: nil, url: resource.url, etag: resource.etag) }
                undecodable += 1
                continue
            }
            remote[item.uid] = Remote(item: item, url: resource.url, etag: resource.etag, data: data)
        }
        try db.storeElsewhere(elsewhere, removed: changes.removed)
        for url in changes.removed {
            if let state = stateByURL[url], remote[state.uid] == nil { remote[state.uid] = Remote(item: nil, url: url, etag: nil) }
        }
        if changes.complete {
            for state in states.values where remote[state.uid] == nil && !seenURLs.contains(state.url) {
                remote[state.uid] = Remote(item: nil, url: state.url, etag: nil)
            }
        }

        // Rows never synced take the names of the items they stand for; the rest get theirs.
        let order: [SyncKind: Int] = [.task: 0, .subtask: 1, .session: 2]
        let arrivals = remote.values.compactMap(\.item).filter { states[$0.uid] == nil }.sorted { order[$0.kind]! < order[$1.kind]! }
        try db.adoptSyncUIDs(arrivals)
        try db.assignSyncUIDs(random: { UInt64.random(in: .min ... .max) })
        let (local, readAs) = try db.localSyncItems()

        // Merge every item either side knows.
        var localChanges: [LocalSyncChange] = []
        var agreed: [SyncState] = []
        var forgotten: [String] = []
        var writes: [Write] = []
        var conflicts: [(label: String, conflict: SyncConflict)] = []
        var uids = Set(local.keys)
        uids.formUnion(remote.keys)
        uids.formUnion(states.keys)
        // Unchanged on both sides since they agreed (the server did not report it, and the
        // copy here has the agreed digest): nothing to read or merge.
        let touched = uids.filter { uid in
            guard remote[uid] == nil, let state = states[uid], let mine = local[uid] else { return true }
            return mine.digest != state.digest
        }
        let bases = try db.syncBases(touched.filter { states[$0] != nil }.sorted())
        for uid in touched.sorted() {
            let state = states[uid]
            let base = bases[uid].flatMap { decode($0) }
            let there = remote[uid]
            let remoteItem: SyncItem? = there.map(\.item) ?? base
            let url = there?.url ?? state?.url ?? Publication.resourceURL(calendar: calendarURL, uid: uid)
            let etag = there != nil ? there?.etag : state?.etag
            let outcome = SyncMerge.merge(base: base, local: local[uid], remote: remoteItem)
            let label = Self.label(outcome.result ?? local[uid] ?? remoteItem)
            conflicts += outcome.conflicts.map { (label, $0) }
            if outcome.writeLocal {
                if let result = outcome.result {
                    localChanges.append(.upsert(result))
                } else if let gone = local[uid] {
                    localChanges.append(.delete(uid: uid, kind: gone.kind))
                }
            }
            if let result = outcome.result {
                // The calendar object as it is there (as read now, else as last agreed): what
                // another program wrote in it that focus does not know is written back with it.
                let original = there?.data ?? bases[uid]
                if outcome.writeRemote {
                    writes.append(.put(result, url: url, etag: etag, exists: remoteItem != nil || state != nil, over: original))
                } else if let remoteItem, there != nil || state == nil {
                    agreed.append(SyncState(uid: uid, kind: result.kind, url: url, etag: etag,
                                            base: there?.data ?? Data(SyncCodec.encode(remoteItem, stamp: env.now()).utf8), digest: remoteItem.digest))
                }
            } else if outcome.writeRemote, remoteItem != nil {
                writes.append(.delete(uid: uid, url: url, etag: etag))
            } else if state != nil {
                forgotten.append(uid)
            }
        }

        // Many deletions here at once: a backup first (README: nothing local is lost by a sync).
        let deletions = localChanges.filter { if case .delete = $0 { return true } else { return false } }.count
        if deletions > Self.deletionsBeforeBackup, summary.backup == nil { summary.backup = try backup("before-sync-deletions") }
        let applied = try db.applySync(localChanges, states: agreed, forgetting: forgotten, now: env.now(), readAs: readAs)
        // Agreed once every write below is taken; a write refused, an item not applied or a
        // bulk write the next sync must read back leave it unknown.
        fingerprint = applied.skippedUIDs.isEmpty ? applied.fingerprint : nil
        summary.received += applied.inserted + applied.updated
        summary.deletedHere += applied.deleted
        summary.warnings += applied.skipped
        summary.conflicts += conflicts.count
        try db.recordConflicts(conflicts, at: env.now())

        // What could not be applied here yet (a running session's task to delete, a subtask
        // whose task has not arrived) is read again next time: the token stays where it was.
        let pulled = applied.skippedUIDs.isEmpty ? changes.token : token

        // Push: a first sync into an empty calendar in one request where the server takes
        // that, else (and always after) one request per item.
        if changes.complete, changes.changed.isEmpty,
           let bulk = try bulkCreate(writes, calendarURL: calendarURL, name: name, endpoint: endpoint, summary: &summary) {
            return (bulk.retry, applied.skippedUIDs.isEmpty ? bulk.token ?? pulled : pulled)
        }
        var retry = false
        progress?.setTotal(writes.count)
        defer { progress?.finish() }
        for write in writes {
            progress?.advance()
            switch write {
            case let .put(item, url, etag, exists, original):
                let text = SyncCodec.encode(item, stamp: env.now(), over: original)
                var result = try client.put(url, ics: Data(text.utf8), ifMatch: exists ? (etag ?? "*") : nil, endpoint)
                if result == .missing {
                    // Gone there since it was read: written again as new.
                    result = try client.put(url, ics: Data(text.utf8), ifMatch: nil, endpoint)
                }
                switch result {
                case let .written(newEtag):
                    try db.recordSyncStates([SyncState(uid: item.uid, kind: item.kind, url: url, etag: newEtag, base: Data(text.utf8), digest: item.digest)])
                    summary.sent += 1
                case .changedOnServer, .missing:
                    retry = true
                }
            case let .delete(uid, url, etag):
                switch try client.delete(url, ifMatch: etag, endpoint) {
                case .written, .missing:
                    try db.recordSyncStates([], forgetting: [uid])
                    summary.deletedThere += 1
                case .changedOnServer:
                    retry = true
                }
            }
        }
        if undecodable > 0, token == nil {
            summary.warnings.append("\(undecodable) resource\(undecodable == 1 ? "" : "s") in the calendar \(undecodable == 1 ? "is" : "are") not focus's and \(undecodable == 1 ? "was" : "were") left alone.")
        }
        if retry { fingerprint = nil }
        return (retry, pulled)
    }

    enum Write { case put(SyncItem, url: String, etag: String?, exists: Bool, over: Data?), delete(uid: String, url: String, etag: String?) }

    /// Creating at least this many items in an empty calendar tries the one-request write.
    static let bulkMinimum = 50

    /// Writes every item to an empty calendar in one request (`replaceCollection`, guarded by
    /// the calendar's entity tag so that nothing written there meanwhile is replaced). Nil when
    /// this does not apply (not all creates, too few, the calendar not empty or without an
    /// entity tag, a server that does not take it): the items are then written one by one.
    /// The server names the members of such a write itself; each item is recorded as agreed at
    /// the address named after its UID (where Radicale puts it) without an entity tag, and the
    /// token stays the one from before the write, so the next sync reads every member back once
    /// and records where each really is before anything is written to it. The result says
    /// whether this sync must read the calendar again now (it was written meanwhile).
    private func bulkCreate(_ writes: [Write], calendarURL: String, name: String, endpoint: CalDAVEndpoint,
                            summary: inout Summary) throws -> (retry: Bool, token: String?)? {
        var items: [SyncItem] = []
        for write in writes {
            guard case let .put(item, _, _, exists, _) = write, !exists else { return nil }
            items.append(item)
        }
        guard items.count >= Self.bulkMinimum else { return nil }
        let before = try client.members(of: calendarURL, endpoint)
        guard before.members.isEmpty, let tag = before.etag else { return nil }
        let stamp = env.now()
        progress?.setTotal(1)
        defer { progress?.finish() }
        let body = Data(SyncCodec.collection(items, name: name, stamp: stamp).utf8)
        guard let result = try client.replaceCollection(calendarURL, ics: body, ifMatch: tag, endpoint) else { return nil }
        guard case .written = result else { return (true, nil) }
        progress?.advance()
        try db.recordSyncStates(items.map { item in
            SyncState(uid: item.uid, kind: item.kind, url: Publication.memberURL(calendar: calendarURL, uid: item.uid), etag: nil,
                      base: Data(SyncCodec.encode(item, stamp: stamp).utf8), digest: item.digest)
        })
        summary.sent += items.count
        return (false, nil)
    }

    /// "Thesis/Chapter 2", for conflicts and warnings.
    static func label(_ item: SyncItem?) -> String {
        switch item {
        case let .task(t): t.title
        case let .subtask(s): s.title
        case let .session(s): "session of \(s.label) at \(Timestamp.utc(s.start))"
        case nil: "an item"
        }
    }

    /// A copy of the database beside it, named for why it was made.
    private func backup(_ why: String) throws -> String? {
        guard env.databasePath != ":memory:" else { return nil }
        let stamp = ICSWriter.utcDateTime(env.now())
        var path = "\(env.databasePath).\(why)-\(stamp)"
        var n = 1
        while FileManager.default.fileExists(atPath: path) {
            n += 1
            path = "\(env.databasePath).\(why)-\(stamp)-\(n)"
        }
        _ = try db.backup(to: path)
        return path
    }
}
