import FoundationEssentials

/// What a round observed, once the server's answer and the items here are read and unified.
package struct RoundInput: Sendable {
    package var calendarURL: String
    package var entries: [String: RemoteRead.Entry]
    package var states: [String: SyncState]
    package var local: [String: SyncItem]
    /// `touched(…)`, in order.
    package var touched: [String]
    /// The agreed texts of the touched items that have one.
    package var bases: [String: Data]
    package var now: Date
    /// `Unified.renamedParents`.
    package var renamedParents: Set<String> = []
    /// Tasks and subtasks this machine deleted there lately (`focus task rm`): one that
    /// arrives again came back with work another machine recorded in it.
    package var deletedHere: Set<String> = []

    package init(calendarURL: String, entries: [String: RemoteRead.Entry], states: [String: SyncState], local: [String: SyncItem],
                 touched: [String], bases: [String: Data], now: Date, renamedParents: Set<String> = []) {
        self.renamedParents = renamedParents
        self.calendarURL = calendarURL
        self.entries = entries
        self.states = states
        self.local = local
        self.touched = touched
        self.bases = bases
        self.now = now
    }
}

extension SyncPlan {
    /// Merges every touched item (`SyncMerge`) and sorts the outcomes into changes here, versions
    /// agreed and writes there, under the rule that sessions are facts (README): a deletion
    /// removes only what the deleting machine had seen. A task or subtask deleted there that
    /// holds work recorded here the other side never saw is kept and sent again; one deleted
    /// here in which work recorded elsewhere arrives comes back.
    package static func decide(_ input: RoundInput, decode: (Data) -> SyncItem?) -> RoundPlan {
        var plan = RoundPlan()
        let unseenHere = work(input.local.values.filter { input.states[$0.uid] == nil })
        let unseenThere = work(input.entries.values.compactMap(\.item).filter { input.states[$0.uid] == nil && input.local[$0.uid] == nil })
        let holdsSessions = work(input.local.values.filter { $0.kind == .session })
        // The tasks and subtasks whose sessions (agreed with the calendar, or arriving in this
        // read) this read does not report deleted there.
        let sessionsThere = work(input.local.values.filter { item in
            item.kind == .session && input.states[item.uid] != nil && input.entries[item.uid].map { $0.item != nil } ?? true
        }).union(work(input.entries.values.compactMap(\.item).filter { $0.kind == .session }))
        for uid in input.touched {
            let state = input.states[uid]
            let base = input.bases[uid].flatMap(decode)
            let there = input.entries[uid]
            let remoteItem: SyncItem? = there.map(\.item) ?? base
            let url = there?.url ?? state?.url ?? Publication.resourceURL(calendar: input.calendarURL, uid: uid)
            let etag = there != nil ? there?.etag : state?.etag
            let mine = input.local[uid].map { learned(disambiguatedHere($0, theirs: remoteItem ?? base), from: base, state: state) }
            var outcome = SyncMerge.merge(base: base, local: mine, remote: remoteItem)
            let label = label(outcome.result ?? mine ?? remoteItem, in: input)
            if outcome.result == nil, let mine, mine.kind != .session, outcome.writeLocal, unseenHere.contains(uid) {
                // Deleted there, but holding work the deleting machine never saw: kept, sent again.
                outcome = MergeOutcome(result: mine, writeLocal: false, writeRemote: true)
                plan.kept.append(label)
                plan.conflicts.append((label, SyncConflict(uid: uid, field: "deleted", local: "kept", remote: "deleted", chosen: .local)))
                plan.writes.append(.put(mine, url: url, etag: nil, exists: false, over: there?.data ?? input.bases[uid]))
                continue
            }
            if outcome.result == nil, let mine, mine.kind != .session, outcome.writeLocal, sessionsThere.contains(uid) {
                // Deleted there while its sessions stay there: another app's deletion ("I won't
                // do it"), not `focus task rm`, which deletes the sessions it had seen first.
                plan.localChanges.append(.archive(uid: uid, kind: mine.kind))
                if state != nil { plan.forgotten.append(uid) }
                plan.deletedElsewhere.append(label)
                plan.conflicts.append((label, SyncConflict(uid: uid, field: "deleted elsewhere", local: "archived", remote: "deleted", chosen: .local)))
                continue
            }
            if state == nil, mine == nil, there?.item != nil, input.deletedHere.contains(uid) {
                plan.cameBack.append(label)
                plan.conflicts.append((label, SyncConflict(uid: uid, field: "deleted", local: "deleted", remote: "kept", chosen: .remote)))
            }
            if outcome.result == nil, mine == nil, let remoteItem, remoteItem.kind != .session, outcome.writeRemote, unseenThere.contains(uid) {
                // Deleted here while another machine recorded work in it: it comes back.
                outcome = MergeOutcome(result: remoteItem, writeLocal: true, writeRemote: false)
                plan.kept.append(label)
                plan.conflicts.append((label, SyncConflict(uid: uid, field: "deleted", local: "deleted", remote: "kept", chosen: .remote)))
            }
            if let ticked = tickedSeries(outcome.result, base: base, theirs: remoteItem) {
                // Another app knows no series (focus writes no RRULE): ticking one done there
                // means this period's work is done. Its current instance is done here, and the
                // series is written back open, as it goes on.
                outcome = MergeOutcome(result: ticked, writeLocal: true, writeRemote: true)
                plan.localChanges.append(.completeInstance(seriesUID: uid))
                plan.seriesTicked.append(label)
            }
            if outcome.result != nil, input.renamedParents.contains(uid) || there?.madeTask == true { outcome.writeRemote = true }
            plan.conflicts += outcome.conflicts.map { (label, $0) }
            if outcome.writeLocal {
                if let result = outcome.result {
                    plan.localChanges.append(.upsert(result))
                } else if let gone = mine {
                    plan.localChanges.append(.delete(uid: uid, kind: gone.kind))
                    if gone.kind == .session || holdsSessions.contains(uid) { plan.deletesSessions = true }
                }
            }
            if let result = outcome.result {
                // The calendar object as it is there (as read now, else as last agreed): what
                // another program wrote in it that focus does not know is written back with it.
                let original = there?.data ?? input.bases[uid]
                if outcome.writeRemote {
                    plan.writes.append(.put(result, url: url, etag: etag, exists: remoteItem != nil || state != nil, over: original))
                } else if let remoteItem, there != nil || state == nil {
                    let text = there?.data ?? Data(SyncCodec.encode(remoteItem, stamp: input.now).utf8)
                    plan.agreed.append(SyncState(uid: uid, kind: result.kind, url: url, etag: etag, base: text, digest: remoteItem.digest))
                }
            } else if outcome.writeRemote, remoteItem != nil {
                plan.writes.append(.delete(uid: uid, url: url, etag: etag))
            } else if state != nil {
                plan.forgotten.append(uid)
            }
        }
        plan.localChanges += goneParents(of: plan.localChanges, in: input)
        plan.writes = plan.writes.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
        return plan
    }

    /// The series a merge would close because another app ticked it done (open in the version
    /// agreed, done there), reopened; nil for anything else.
    static func tickedSeries(_ result: SyncItem?, base: SyncItem?, theirs: SyncItem?) -> SyncItem? {
        guard case var .subtask(merged)? = result, merged.every != nil, merged.done,
              case let .subtask(agreed)? = base, !agreed.done, case let .subtask(remote)? = theirs, remote.done else { return nil }
        merged.done = false
        return .subtask(merged)
    }

    /// The tasks and subtasks that `items` (sessions and subtasks) belong to.
    static func work(_ items: some Sequence<SyncItem>) -> Set<String> {
        var out = Set<String>()
        for item in items where item.kind != .task { out.formUnion(item.parents) }
        return out
    }

    /// A title told apart only here (`Buy milk (2)` for the second of two to-dos named `Buy
    /// milk`) reads as the title there, so that it is never written over another app's item.
    package static func disambiguatedHere(_ mine: SyncItem, theirs: SyncItem?) -> SyncItem {
        func suffixed(_ title: String, of other: String) -> Bool {
            guard title.count > other.count, title.hasPrefix(other + " ("), title.hasSuffix(")") else { return false }
            let number = title.dropFirst(other.count + 2).dropLast()
            return number.allSatisfy(\.isASCII) && (Int(number) ?? 0) >= 2
        }
        switch (mine, theirs) {
        case let (.task(t), .task(o)?) where suffixed(t.title, of: o.title): return mine.with(["title": o.title])
        case let (.subtask(t), .subtask(o)?) where suffixed(t.title, of: o.title): return mine.with(["title": o.title])
        default: return mine
        }
    }

    /// A subtask unchanged here since the version agreed (its digest is that version's) takes
    /// that version's priority and daily cap where it has none. A version agreed before they
    /// travelled may hold another app's `PRIORITY` this machine never read into its subtask: that
    /// is no change made here, and must not be written over there.
    package static func learned(_ mine: SyncItem, from base: SyncItem?, state: SyncState?) -> SyncItem {
        guard case var .subtask(m) = mine, case let .subtask(b)? = base, let state, mine.digest == state.digest else { return mine }
        if m.priority == 0 { m.priority = b.priority }
        if m.maxPerDaySeconds == nil { m.maxPerDaySeconds = b.maxPerDaySeconds }
        return .subtask(m)
    }

    /// "Thesis/Chapter 2", for conflicts and warnings.
    static func label(_ item: SyncItem?, in input: RoundInput) -> String {
        switch item {
        case let .task(t): t.title
        case let .subtask(s):
            switch input.local[s.taskUID] ?? input.entries[s.taskUID]?.item {
            case let .task(t)?: t.title + "/" + s.title
            default: s.title
            }
        case let .session(s): "session of \(s.label) at \(Timestamp.utc(s.start))"
        case nil: "an item"
        }
    }
}

extension SyncPlan {
    /// What to do about writes the server refused (412, or 404), once a listing of the calendar
    /// says what is there. A member that is not there was deleted since it was read: DAViCal
    /// and Radicale answer `If-Match` on a missing member with 412 (RFC 7232 section 3.1), not
    /// 404. A put is then written again as new, a deletion is done. A member that is there
    /// changed meanwhile and is merged again in the next round (`retry`).
    package static func afterRefusal(_ refused: [SyncWrite], present: Set<String>) -> (again: [SyncWrite], gone: [String], retry: Bool) {
        var again: [SyncWrite] = []
        var gone: [String] = []
        var retry = false
        for write in refused {
            switch write {
            case let .put(item, url, _, exists, over):
                if exists, !present.contains(url) { again.append(.put(item, url: url, etag: nil, exists: false, over: over)) } else { retry = true }
            case let .delete(uid, url, _):
                if present.contains(url) { retry = true } else { gone.append(uid) }
            }
        }
        return (again, gone, retry)
    }

    /// Whether a sync checks what changed since its token against a listing of the calendar
    /// (hrefs and ETags): after a few days a server may have forgotten the token without saying
    /// so (DAViCal prunes tokens older than 7 days and answers with every member as `200 OK`
    /// rather than RFC 6578's error), and a delta would then never report a deletion.
    package static func reconcilesWithListing(lastSync: Date?, now: Date) -> Bool {
        guard let lastSync else { return false }
        return now.timeIntervalSince(lastSync) > 3 * 86_400
    }
}
