import FocusCore
import FoundationEssentials
import FocusSQLite

/// What applying a sync's local changes did.
package struct AppliedSync: Sendable {
    package var inserted = 0
    package var updated = 0
    package var deleted = 0
    /// Tasks and subtasks archived here, deleted in another app (`LocalSyncChange.archive`).
    package var archived = 0
    /// Tasks and subtasks made here, archived, for sessions that arrived in them
    /// (`LocalSyncChange.keepGone`): their names and labels.
    package var keptGone: [(uid: String, label: String)] = []
    /// Changes that could not be applied now, in the order met.
    package var skipped: [SkippedChange] = []
    /// The local tables' fingerprint once applied, when nothing else changed them since they
    /// were read for the merge; nil otherwise.
    package var fingerprint: String?

    /// A change not applied: an arriving item that cannot apply yet (a session whose task is
    /// nowhere), read again by the next sync (`syncRetry`); or a deletion that `waits` for the
    /// session running now to end.
    package struct SkippedChange: Sendable {
        package var uid: String
        package var reason: String
        package var waits = false
    }

    /// No version is agreed for these, so the next sync tries again (and never reads their
    /// absence here as a deletion).
    package var skippedUIDs: Set<String> { Set(skipped.map(\.uid)) }
    /// The arriving items not applied, as `focus sync status` lists them.
    package var unapplied: [(label: String, conflict: SyncConflict)] {
        skipped.filter { !$0.waits }.map { ($0.reason, SyncConflict(uid: $0.uid, field: "not applied", local: "", remote: $0.reason, chosen: .local)) }
    }
    /// A deletion here waits: the sync token stays where it was, so the next sync reads the
    /// deletion again. An item that cannot apply never holds the token (README).
    package var waits: Bool { skipped.contains { $0.waits } }
}

extension AppDatabase {
    /// Applies a sync's local changes and the versions now agreed, in one transaction: inserts
    /// and updates parents first, deletions children first. Each changed row's `modifiedAt`
    /// is the merged item's, not the time of the sync.
    /// `readAs`: the fingerprint the merge's items were read with.
    /// `renaming`: rows that take another machine's name for the same work (`SyncPlan.unify`),
    /// renamed first. `addresses`: where each item read there is; those not applied are read
    /// again by the next sync (`syncRetry`, in place of the ones before).
    package func applySync(_ changes: [LocalSyncChange], states: [SyncState], forgetting gone: [String],
                           renaming: [(kind: SyncKind, from: String, to: String)] = [], now: Date,
                           readAs: String? = nil, addresses: [String: String] = [:]) throws(FocusError) -> AppliedSync {
        try write { db in
            // Another program's edit since the merge read the tables: its result is not agreed yet.
            let untouched = try readAs != nil && AppDatabase.localFingerprint(db) == readAs
            for rename in renaming {
                try db.cachedStatement(sql: "UPDATE \(AppDatabase.table(rename.kind)) SET syncUid = ? WHERE syncUid = ?")
                    .execute(arguments: [rename.to, rename.from])
            }
            var pass = SyncApplyPass(now: now, db)
            for change in LocalSyncChange.inApplyOrder(changes) { try pass.apply(change) }
            var applied = pass.applied
            try AppDatabase.record(states.filter { !applied.skippedUIDs.contains($0.uid) }, forgetting: gone.filter { !applied.skippedUIDs.contains($0) }, db)
            try AppDatabase.purgeEmptyDeletedElsewhere(db)
            let retries = applied.skipped.filter { !$0.waits }.reduce(into: [String: String]()) { $0[$1.uid] = addresses[$1.uid] }
            try AppDatabase.replaceSyncRetries(retries, db)
            if untouched { applied.fingerprint = try AppDatabase.localFingerprint(db) }
            return applied
        }
    }

    /// A task or subtask kept for its sessions after another app deleted it goes once none of
    /// its sessions is left (deleted there too, or here): there is nothing left to keep, and a
    /// machine that read both deletions at once never kept it (README, "Two machines").
    static func purgeEmptyDeletedElsewhere(_ db: Database) throws {
        try db.executeCached(sql: """
            DELETE FROM subtask WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.subtaskId = subtask.id)
            """)
        try db.executeCached(sql: """
            DELETE FROM task WHERE deletedElsewhere = 1 AND NOT EXISTS (SELECT 1 FROM timeLog WHERE timeLog.taskId = task.id)
              AND NOT EXISTS (SELECT 1 FROM subtask WHERE subtask.taskId = task.id)
            """)
    }
}

/// One sync's changes applied in order, over the names of the rows here read once
/// (`SyncNamesHere`) and statements prepared once per connection.
private struct SyncApplyPass {
    let now: Date
    let db: Database
    let names: SyncNamesHere
    var titles = FreeTitles()
    var applied = AppliedSync()

    init(now: Date, _ db: Database) {
        self.now = now
        self.db = db
        names = SyncNamesHere(db)
    }

    mutating func apply(_ change: LocalSyncChange) throws {
        switch change {
        case let .upsert(item): try upsert(item)
        case let .completeInstance(seriesUID):
            // The earliest open instance is the current one (`RecurringWork`).
            try db.executeCached(sql: """
                UPDATE subtask SET done = 1 WHERE id = (SELECT i.id FROM subtask i JOIN subtask s ON s.id = i.seriesId
                  WHERE s.syncUid = ? AND i.done = 0 ORDER BY i.periodStart LIMIT 1)
                """, arguments: [seriesUID])
        case let .archive(uid, kind):
            let closed = kind == .task ? "archived = 1" : "done = 1"
            try db.executeCached(sql: "UPDATE \(AppDatabase.table(kind)) SET \(closed), deletedElsewhere = 1 WHERE syncUid = ?", arguments: [uid])
            applied.archived += db.changesCount
            // A task's stand-in is its to-do itself: it goes with it (kept while it holds sessions).
            if kind == .task {
                try db.executeCached(sql: "UPDATE subtask SET done = 1, deletedElsewhere = 1 WHERE syncUid = ?",
                                     arguments: [SyncIdentity.standInUID(taskUID: uid)])
            }
        case let .delete(uid, kind): try delete(uid, kind)
        case let .keepGone(item, label):
            var run = SyncArrivalRun(item, now: now, names: names, db)
            let steps = SyncArrival.keptGone(item, here: try SyncArrivalHere.read(for: item, from: names))
            for step in steps { try run.perform(step, titles: &titles) }
            if !steps.isEmpty { applied.keptGone.append((item.uid, label)) }
        }
    }

    /// The arriving item (`SyncArrival`): what its names refer to here, then the steps decided.
    private mutating func upsert(_ item: SyncItem) throws {
        var run = SyncArrivalRun(item, now: now, names: names, db)
        for step in SyncArrival.steps(item, here: try SyncArrivalHere.read(for: item, from: names)) {
            try run.perform(step, titles: &titles)
        }
        switch run.outcome {
        case .inserted: applied.inserted += 1
        case .updated: applied.updated += 1
        case let .skipped(reason): applied.skipped.append(AppliedSync.SkippedChange(uid: item.uid, reason: reason))
        }
    }

    private mutating func delete(_ uid: String, _ kind: SyncKind) throws {
        let table = AppDatabase.table(kind)
        // A session that is running now keeps its task and subtask until it ends.
        if kind != .session, try Bool.fetchOneCached(db, sql: """
            SELECT 1 FROM activeSession a JOIN \(table) x ON x.syncUid = ? AND (a.\(kind == .task ? "taskId" : "subtaskId") = x.id)
            """, arguments: [uid]) == true {
            applied.skipped.append(AppliedSync.SkippedChange(uid: uid, reason: "a deletion waits for the session running now to end", waits: true))
            return
        }
        try db.executeCached(sql: "DELETE FROM \(table) WHERE syncUid = ?", arguments: [uid])
        applied.deleted += db.changesCount
        names.forget()
    }
}

// A sync applies thousands of items with a few dozen statements: each is prepared once per
// connection (the statement cache), not once per item.
private extension Database {
    func executeCached(sql: String, arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

private extension DatabaseValueConvertible {
    static func fetchOneCached(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
