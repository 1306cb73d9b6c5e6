import FoundationEssentials

// The sync round as a plan (README, "Two machines"; the shape of `CountdownEngine`): pure
// functions that take what a round observed — the server's answer, the versions agreed, the
// items here — and return what to do next: what to change here, what to send, what to delete
// there, what to check again. `SyncEngine` only performs it.

/// The version of an item both sides last agreed on: where it is on the server, its ETag, and
/// its text.
package struct SyncState: Sendable, Equatable {
    package var uid: String
    package var kind: SyncKind
    package var url: String
    package var etag: String?
    /// The agreed text; empty when read without it (`syncStates()`: `syncBases(_:)` reads it).
    package var base: Data
    /// `SyncItem.digest` of the agreed item.
    package var digest: String

    package init(uid: String, kind: SyncKind, url: String, etag: String?, base: Data, digest: String) {
        self.uid = uid
        self.kind = kind
        self.url = url
        self.etag = etag
        self.base = base
        self.digest = digest
    }
}

/// One change a sync makes to the local database.
package enum LocalSyncChange: Sendable {
    case upsert(SyncItem)
    case delete(uid: String, kind: SyncKind)
    /// A task or subtask deleted in another app while its sessions are still there: kept here
    /// with them, archived (a subtask done), and no longer sent (README, "Two machines").
    case archive(uid: String, kind: SyncKind)
    /// The series of recurring work ticked done in another app: its current instance is done
    /// here, as `focus task done SERIES` does (README, "Two machines"); the series goes on.
    case completeInstance(seriesUID: String)
    /// A task or subtask a session arriving here belongs to, which this machine never had and
    /// which is gone there (`SyncPlan.goneParents`): made here as `item` says (archived, "deleted
    /// elsewhere") unless a row of that name is here already; `label` names it when it is made.
    case keepGone(SyncItem, label: String)

    /// The order a sync applies changes in (one transaction): inserts and updates parents
    /// first (an instance of recurring work after its series, which it points to; a task or
    /// subtask kept for arriving sessions after those that arrive, before the sessions),
    /// deletions children first.
    package var applyOrder: Int {
        switch self {
        case let .upsert(.subtask(s)) where s.seriesUID != nil: 3
        case let .upsert(item): [SyncKind.task: 0, .subtask: 2, .session: 5][item.kind] ?? 6
        case let .keepGone(item, _): item.kind == .task ? 1 : 4
        case .archive, .completeInstance: 6
        case let .delete(_, kind): [SyncKind.session: 7, .subtask: 8, .task: 9][kind] ?? 10
        }
    }

    /// `changes` in the order a sync applies them (`applyOrder`), each kind in the order given.
    package static func inApplyOrder(_ changes: [LocalSyncChange]) -> [LocalSyncChange] {
        changes.enumerated().sorted { ($0.element.applyOrder, $0.offset) < ($1.element.applyOrder, $1.offset) }.map(\.element)
    }
}

/// A write to the server a round decided on.
package enum SyncWrite: Sendable, Equatable {
    /// The item written at `url`: over the version `etag` when `exists`, else as new.
    case put(SyncItem, url: String, etag: String?, exists: Bool, over: Data?)
    case delete(uid: String, url: String, etag: String?)

    package var url: String {
        switch self {
        case let .put(_, url, _, _, _), let .delete(_, url, _): url
        }
    }

    /// Parents before children for writes, children before parents for deletions, so that a
    /// sync cut off anywhere never leaves a subtask there without its task. Writes sent
    /// together are of one order: the next starts when the last of the one before has ended.
    package var order: Int {
        switch self {
        case let .put(item, _, _, _, _): [SyncKind.task: 0, .subtask: 1, .session: 2][item.kind] ?? 3
        case let .delete(uid, _, _): uid.hasPrefix("session-") ? 4 : uid.hasPrefix("focus-subtask-") ? 5 : 6
        }
    }
}

/// What one read of the sync calendar holds, sorted: focus's items by UID, the other machines'
/// running sessions, and what is neither.
package struct RemoteRead: Sendable {
    package struct Entry: Sendable, Equatable {
        /// Nil: gone there (removed, or no longer one of focus's items).
        package var item: SyncItem?
        package var url: String
        package var etag: String?
        package var data: Data?
        /// A subtask there taken for a task here, its task being nowhere (`nestedParents`):
        /// written back as a task, so that every machine holds it so.
        package var madeTask = false

        package init(item: SyncItem?, url: String, etag: String? = nil, data: Data? = nil) {
            self.item = item
            self.url = url
            self.etag = etag
            self.data = data
        }
    }

    package var entries: [String: Entry] = [:]
    package var elsewhere: [(url: String, checkpoint: RunningCheckpoint)] = []
    package var undecodable = 0
    /// Items clamped to what a command would take (`SyncAdmission`), said once each.
    package var warnings: [String] = []
    /// Items refused (`SyncAdmission`): left as they were here, by UID with the reason.
    package var refused: [(uid: String, reason: String)] = []
    /// A whole listing that holds none of the items agreed with it: the calendar was deleted
    /// and made again (or emptied). Nothing agreed with it counts; nothing is deleted here.
    package var startOver = false

    /// Items there that no version here stands for yet, tasks first, then subtasks, sessions.
    package func arrivals(states: [String: SyncState]) -> [SyncItem] {
        let order: [SyncKind: Int] = [.task: 0, .subtask: 1, .session: 2]
        return entries.values.compactMap(\.item).filter { states[$0.uid] == nil }
            .sorted { (order[$0.kind] ?? 3, $0.uid) < (order[$1.kind] ?? 3, $1.uid) }
    }
}

/// What a round does, decided from what it observed.
package struct RoundPlan: Sendable {
    package var localChanges: [LocalSyncChange] = []
    package var agreed: [SyncState] = []
    package var forgotten: [String] = []
    package var writes: [SyncWrite] = []
    package var conflicts: [(label: String, conflict: SyncConflict)] = []
    /// Items deleted on another machine that hold work this one recorded and it never saw
    /// (or deleted here while another machine recorded work in them): kept on both.
    package var kept: [String] = []
    /// The plan deletes a session here (itself or with its task or subtask): a backup first.
    package var deletesSessions = false
    /// Tasks and subtasks deleted in another app that hold sessions: archived here with them.
    package var deletedElsewhere: [String] = []
    /// Tasks and subtasks this machine deleted that came back: another machine recorded work
    /// in them meanwhile (`RoundInput.deletedHere`).
    package var cameBack: [String] = []
    /// Series of recurring work ticked done in another app (`LocalSyncChange.completeInstance`).
    package var seriesTicked: [String] = []

    package var deletionsHere: Int {
        localChanges.filter { if case .delete = $0 { true } else { false } }.count
    }
}

/// The same work under two names (two machines' first syncs at the same moment, each naming its
/// "Thesis"): the smaller name is kept, the machine that holds the other takes it.
package struct Unified: Sendable {
    package var local: [String: SyncItem]
    package var entries: [String: RemoteRead.Entry]
    /// Rows here renamed: `from` is the old name, `to` the one kept.
    package var rekeys: [(kind: SyncKind, from: String, to: String)] = []
    /// Items there that name a task or subtask under the name given up: written again.
    package var renamedParents: Set<String> = []
}

package enum SyncPlan {
    /// Sorts a server's answer. `decode` reads one calendar object (nil: not focus's item).
    package static func read(_ changes: RemoteChanges, states: [String: SyncState], machineID: String, now: Date,
                             decode: (Data) -> SyncItem?) -> RemoteRead {
        var read = RemoteRead()
        let stateByURL = Dictionary(states.values.map { ($0.url, $0) }, uniquingKeysWith: { a, _ in a })
        var seenURLs = Set<String>()
        for resource in changes.changed {
            seenURLs.insert(resource.url)
            guard let data = resource.data else { continue }
            if let checkpoint = RunningCheckpoint.decode(data) {
                if checkpoint.machineID != machineID { read.elsewhere.append((resource.url, checkpoint)) }
                continue
            }
            guard var item = decode(data) else {
                // Not one of focus's items (another program's event): left alone. A resource
                // that was an item and no longer reads as one counts as removed.
                if let state = stateByURL[resource.url] { read.entries[state.uid] = .init(item: nil, url: resource.url, etag: resource.etag) }
                read.undecodable += 1
                continue
            }
            switch SyncAdmission.admit(item, now: now) {
            case let .admitted(admitted, warning):
                item = admitted
                if let warning { read.warnings.append(warning) }
            case let .refused(reason):
                read.refused.append((item.uid, reason))
                continue
            }
            read.entries[item.uid] = .init(item: item, url: resource.url, etag: resource.etag, data: data)
        }
        for url in changes.removed {
            if let state = stateByURL[url], read.entries[state.uid] == nil { read.entries[state.uid] = .init(item: nil, url: url, etag: nil) }
        }
        guard changes.complete else { return read }
        for state in states.values where read.entries[state.uid] == nil && !seenURLs.contains(state.url) {
            read.entries[state.uid] = .init(item: nil, url: state.url, etag: nil)
        }
        // README: an empty calendar, or one whose listing holds none of the agreed items, is a
        // new calendar: everything is sent again and nothing deleted here.
        if !states.isEmpty, states.keys.allSatisfy({ read.entries[$0]?.item == nil }) {
            read.startOver = true
            read.entries = read.entries.filter { $0.value.item != nil }
        }
        return read
    }

    /// Whether an answer to a delta request lists members it did not need to (a server that
    /// forgot the token answers with every member as changed, as DAViCal does, instead of
    /// RFC 6578's error): it lists, unchanged, nearly every item agreed with a calendar of some
    /// size. A listing of the calendar then says which agreed items are gone. (A sync's own
    /// writes are read back once by the next sync, unchanged too: hence the size; smaller
    /// calendars are checked against a listing after a few days, `reconcilesWithListing`.)
    package static func looksLikeFullListing(_ changes: RemoteChanges, states: [String: SyncState]) -> Bool {
        guard !changes.complete, states.count >= 20 else { return false }
        let stateByURL = Dictionary(states.values.map { ($0.url, $0.etag) }, uniquingKeysWith: { a, _ in a })
        let unchanged = changes.changed.filter { r in r.etag != nil && stateByURL[r.url].flatMap { $0 } == r.etag }.count
        return unchanged * 10 >= states.count * 9
    }

    /// A delta answer completed by a listing of the calendar: every agreed member not listed
    /// is removed.
    package static func reconciled(_ changes: RemoteChanges, listing: CollectionListing, states: [String: SyncState]) -> RemoteChanges {
        let present = Set(listing.members.map(\.url))
        var out = changes
        let removed = states.values.map(\.url).filter { !present.contains($0) && !changes.removed.contains($0) }
        out.removed += removed.sorted()
        return out
    }

    /// Whether the item named `uid` was made by focus (tasks and subtasks get `focus-…@focus`,
    /// sessions `session-…@focus`): only these are the same work under two names. Another
    /// app's two to-dos of one title stay two (README: titles are told apart only here).
    static func isFocusName(_ uid: String) -> Bool {
        uid.hasSuffix("@focus") && (uid.hasPrefix("focus-") || uid.hasPrefix("session-"))
    }
}

extension SyncPlan {
    /// Whether items wait to be sent (`pending`: changed, added, removed since the versions
    /// agreed, as `focus sync status` counts them): a sync whose changes here left some (a
    /// subtask that went with its task here while still there) sends them before it ends.
    package static func leavesWaiting(_ pending: (changed: Int, added: Int, removed: Int)) -> Bool {
        pending.changed + pending.added + pending.removed > 0
    }
}
