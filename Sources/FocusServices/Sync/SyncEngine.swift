import FocusCalendar
import FocusCore
import FocusStorage
import FocusSystem
import FoundationEssentials
import Glibc

/// One sync with the sync calendar (README, "Two machines"): read what changed there since the
/// last sync (`sync-collection`, RFC 6578), let `SyncPlan` decide item by item against the
/// version both sides last agreed on, apply the result here in one transaction, then write the
/// rest there with `If-Match` (a create with `If-None-Match: *`), each write recorded as soon as
/// the server took it. A write the server refuses because the item changed there meanwhile
/// (412) is merged again in the next round; one refused because the item is gone is written
/// again as new. This type only performs what the plan says. Killed at any point,
/// the next sync finds every item either agreed or still different, never twice: an item's
/// address is made from its name, which never changes.
package struct SyncEngine {
    let env: ServiceContext
    let client: any CalDAVClient
    let db: AppDatabase
    /// The progress line of the writes (a first sync of a long history sends thousands).
    var progress: (any ProgressCounter)?

    package init(env: ServiceContext, client: any CalDAVClient, db: AppDatabase, progress: (any ProgressCounter)? = nil) {
        self.env = env
        self.client = client
        self.db = db
        self.progress = progress
    }

    /// What a sync did (`SyncSummary`, a value FocusRendering's `SyncRenderer` says).
    package typealias Summary = SyncSummary

    /// Deleting more local items than this takes a backup first.
    static let deletionsBeforeBackup = 5

    /// Rounds a sync takes at most: a write refused because the item changed there meanwhile
    /// is merged again with what the server now holds.
    package static let rounds = 3

    package func run(_ target: SyncTarget, endpoint: CalDAVEndpoint) throws -> Summary {
        var summary = Summary()
        var token = target.token
        var fingerprint = target.fingerprint
        if target.syncedAt == nil, try db.holdsHistory() { summary.backup = try backup("before-first-sync") }
        summary.unconverged = true
        var seen: SyncSettings.Seen?
        var refusals = 0, resent = false
        while refusals < Self.rounds {
            let (retry, newToken, waiting) = try round(target, token: token, endpoint: endpoint, fingerprint: &fingerprint, settings: &seen,
                                                       summary: &summary)
            token = newToken
            if retry { refusals += 1; continue }
            // What applying left waiting (a row that went with its parent here) is sent now,
            // in one more round that compares every item: never behind a quick "nothing changed".
            if waiting, !resent { resent = true; continue }
            summary.unconverged = false
            break
        }
        try publishCheckpoint(target, endpoint: endpoint)
        let settings = try syncSettings(target, seen: seen, endpoint: endpoint)
        summary.settings = settings.lines
        if settings.refused { token = nil }
        try db.noteSync(at: env.now(), token: token, error: nil, fingerprint: summary.unconverged ? nil : fingerprint)
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
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "another machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "another machine" : name
    }

    private func decode(_ data: Data) -> SyncItem? { try? SyncCodec.decode(data, zone: env.calendar) }

    /// What one round read, for the steps after the merge.
    private struct Observed {
        var changes: RemoteChanges
        var token: String?
        var readAs: String?
        var undecodable = 0
        var rekeys: [(kind: SyncKind, from: String, to: String)] = []
        /// What the answer said of the settings event (nil: nothing).
        var settings: SyncSettings.Seen?
        /// Nil: nothing new there and nothing changed here, nothing to do.
        var plan: RoundPlan?
        /// The items read again because an earlier sync could not apply them, by name.
        var retries: [String: String] = [:]
        /// Where each item read there is, by name.
        var urls: [String: String] = [:]
    }

    /// Reads what changed there and what is here, and decides (`SyncPlan`).
    private func observe(_ target: SyncTarget, token: String?, endpoint: CalDAVEndpoint, fingerprint: String?,
                         summary: inout Summary) throws -> Observed {
        var changes = try client.changes(in: target.url, since: token, endpoint)
        var states = try db.syncStates()
        if SyncPlan.looksLikeFullListing(changes, states: states) || SyncPlan.reconcilesWithListing(lastSync: target.syncedAt, now: env.now()) {
            changes = SyncPlan.reconciled(changes, listing: try client.members(of: target.url, endpoint), states: states)
        }
        // The settings event is no item: it is merged on its own after the items.
        let settings = SyncSettings.take(from: &changes, url: Self.settingsURL(target))
        // What an earlier sync read but could not apply (its task had not arrived) is read
        // again: the server reports a change once, and the token has moved past it.
        let retries = try db.syncRetries()
        let listed = Set(changes.changed.map(\.url))
        let again = Set(retries.values).subtracting(listed).sorted()
        if !again.isEmpty { changes.changed += try client.resources(at: again, in: target.url, endpoint).found }
        var observed = Observed(changes: changes, token: changes.token)
        observed.settings = settings
        observed.retries = retries
        // Nothing new there, and the tables here are as the last sync left them: nothing to
        // merge or send, and no item needs reading.
        if !changes.complete, changes.changed.isEmpty, changes.removed.isEmpty, let known = fingerprint, try db.localFingerprint() == known {
            if !retries.isEmpty { try db.replaceSyncRetries([:]) }  // all gone there
            return observed
        }
        let read = SyncPlan.read(changes, states: states, machineID: target.machineID, now: env.now(), decode: decode)
        summary.warnings += read.warnings + read.refused.map(\.reason)
        try db.recordConflicts(read.refused.map { ($0.reason, SyncConflict(uid: $0.uid, field: "not applied", local: "", remote: $0.reason, chosen: .local)) },
                               at: env.now())
        try db.storeElsewhere(read.elsewhere, removed: changes.removed)
        if read.startOver {
            try db.recordSyncStates([], forgetting: Array(states.keys))
            states = [:]
            summary.warnings.append("the calendar holds none of the items agreed with it (made again, or emptied): everything here is sent again, nothing deleted here.")
        }
        try db.adoptSyncUIDs(read.arrivals(states: states))
        try db.assignSyncUIDs(random: { UInt64.random(in: .min ... .max) })
        let (local, readAs) = try db.localSyncItems()
        let unified = SyncPlan.unify(local: local, entries: SyncPlan.nestedParents(read.entries, local: local, states: states), states: states)
        let touched = SyncPlan.touched(unified.entries, states: states, local: unified.local)
        let bases = try db.syncBases(touched.filter { states[$0] != nil })
        var input = RoundInput(calendarURL: target.url, entries: unified.entries, states: states, local: unified.local,
                               touched: touched, bases: bases, now: env.now(), renamedParents: unified.renamedParents)
        input.deletedHere = try db.deletedHere()
        observed.plan = SyncPlan.decide(input, decode: decode)
        observed.urls = unified.entries.compactMapValues { $0.item == nil ? nil : $0.url }
        observed.readAs = readAs
        observed.undecodable = read.undecodable
        observed.rekeys = unified.rekeys
        return observed
    }

    /// Applies the plan here in one transaction, a backup first when it deletes a session (or
    /// many items). Returns the token that stands for what was read: the one before it when
    /// a deletion here must wait (for the session running now to end).
    private func apply(_ plan: RoundPlan, _ observed: Observed, token: String?, fingerprint: inout String?,
                       summary: inout Summary) throws -> String? {
        if plan.deletesSessions || plan.deletionsHere > Self.deletionsBeforeBackup, summary.backup == nil {
            summary.backup = try backup("before-sync-deletions")
        }
        let applied = try db.applySync(plan.localChanges, states: plan.agreed, forgetting: plan.forgotten, renaming: observed.rekeys,
                                       now: env.now(), readAs: observed.readAs, addresses: observed.urls)
        // Agreed once every write is taken; a write refused, an item not applied or a bulk
        // write the next sync must read back leave it unknown.
        fingerprint = applied.skippedUIDs.isEmpty ? applied.fingerprint : nil
        summary.received += applied.inserted + applied.updated
        summary.deletedHere += applied.deleted
        // An item read again that still cannot apply was said when it first could not.
        summary.warnings += applied.skipped.filter { $0.waits || observed.retries[$0.uid] == nil }.map(\.reason)
        summary.conflicts += plan.conflicts.filter { $0.conflict.field != "deleted" }.count
        summary.kept += plan.kept
        summary.deletedElsewhere += plan.deletedElsewhere + applied.keptGone.map(\.label)
        summary.cameBack += plan.cameBack
        summary.seriesTicked += plan.seriesTicked
        let kept = applied.keptGone.map { ($0.label, SyncConflict(uid: $0.uid, field: "deleted elsewhere", local: "archived", remote: "deleted", chosen: .local)) }
        // Recorded again while it waits: `sync status` keeps listing it.
        try db.recordConflicts(plan.conflicts + applied.unapplied + kept, at: env.now())
        return applied.waits ? token : observed.changes.token
    }

    /// Writes there, several at once where the server keeps up (`SendSchedule`), each recorded
    /// as soon as the server took it. Writes refused are checked against a listing of the
    /// calendar (`SyncPlan.afterRefusal`). Returns whether something must be merged again.
    private func push(_ writes: [SyncWrite], calendarURL: String, endpoint: CalDAVEndpoint, summary: inout Summary) throws -> Bool {
        progress?.setTotal(writes.count)
        defer { progress?.finish() }
        var refused = try perform(writes, endpoint: endpoint, summary: &summary)
        guard !refused.isEmpty else { return false }
        let present = Set(try client.members(of: calendarURL, endpoint).members.map(\.url))
        let next = SyncPlan.afterRefusal(refused, present: present)
        try db.recordSyncStates([], forgetting: next.gone)
        summary.deletedThere += next.gone.count
        refused = try perform(next.again, endpoint: endpoint, summary: &summary)
        return next.retry || !refused.isEmpty
    }

    /// One round (`SyncPlan`): read what changed there, decide, apply here, write there.
    /// Returns whether a refused write must be merged again, and the token that stands for
    /// what was read. `fingerprint`: the local tables' when the last round (or sync) left
    /// everything agreed; nil when that is not known.
    private func round(_ target: SyncTarget, token: String?, endpoint: CalDAVEndpoint, fingerprint: inout String?,
                       settings: inout SyncSettings.Seen?, summary: inout Summary) throws -> (retry: Bool, token: String?, waiting: Bool) {
        let observed = try observe(target, token: token, endpoint: endpoint, fingerprint: fingerprint, summary: &summary)
        if let seen = observed.settings { settings = seen }
        guard let plan = observed.plan else { return (false, observed.changes.token ?? token, false) }
        let pulled = try apply(plan, observed, token: token, fingerprint: &fingerprint, summary: &summary)
        if observed.undecodable > 0, token == nil {
            let n = observed.undecodable
            summary.warnings.append("\(n) resource\(n == 1 ? "" : "s") in the calendar \(n == 1 ? "is" : "are") not focus's and \(n == 1 ? "was" : "were") left alone.")
        }
        // Push: a first sync into an empty calendar in one request where the server takes
        // that, else (and always after) one request per item.
        if observed.changes.complete, observed.changes.changed.isEmpty,
           let bulk = try bulkCreate(plan.writes, calendarURL: target.url, name: target.name, endpoint: endpoint, summary: &summary) {
            if bulk.retry { fingerprint = nil }
            return (bulk.retry, pulled == observed.changes.token ? bulk.token ?? pulled : pulled, false)
        }
        let retry = try push(plan.writes, calendarURL: target.url, endpoint: endpoint, summary: &summary)
        if retry { fingerprint = nil }
        let waiting = try !retry && leftWaiting(plan, fingerprint: &fingerprint)
        // A write refused (412) for an item this read listed is read again from the token
        // before it: a read from this one would not list it (unchanged since), and the next
        // round would write with the entity tag agreed before, refused again every round.
        return (retry, retry ? token : pulled, waiting)
    }

    /// Whether a round that changed rows here left something `sync status` lists as waiting
    /// (`SyncPlan.leavesWaiting`); then the local tables are not taken as agreed (no quick path).
    private func leftWaiting(_ plan: RoundPlan, fingerprint: inout String?) throws -> Bool {
        guard fingerprint != nil, !plan.localChanges.isEmpty else { return false }
        guard SyncPlan.leavesWaiting(try db.pendingSyncCount(named: true)) else { return false }
        fingerprint = nil
        return true
    }
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
    private func bulkCreate(_ writes: [SyncWrite], calendarURL: String, name: String, endpoint: CalDAVEndpoint,
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
        let body = Data(SyncCodec.collection(items, name: name, stamp: stamp, zone: env.calendar).utf8)
        guard let result = try client.replaceCollection(calendarURL, ics: body, ifMatch: tag, endpoint) else { return nil }
        guard case .written = result else { return (true, nil) }
        progress?.advance(by: 1)
        try db.recordSyncStates(items.map { item in
            SyncState(uid: item.uid, kind: item.kind, url: Publication.memberURL(calendar: calendarURL, uid: item.uid), etag: nil,
                      base: Data(SyncCodec.encode(item, stamp: stamp).utf8), digest: item.digest)
        })
        summary.sent += items.count
        return (false, nil)
    }

    /// A copy of the database beside it, named for why it was made.
    private func backup(_ why: String) throws -> String? {
        guard env.databasePath != ":memory:" else { return nil }
        let stamp = ICSWriter.utcDateTime(env.now())
        let path = OutputFile.firstUnused("\(env.databasePath).\(why)-\(stamp)")
        _ = try db.backup(to: path)
        return path
    }
}
