import FoundationEssentials

extension SyncItem {
    /// The same item under another name.
    func named(_ uid: String) -> SyncItem {
        switch self {
        case var .task(t): t.uid = uid; return .task(t)
        case var .subtask(s): s.uid = uid; return .subtask(s)
        case var .session(s): s.uid = uid; return .session(s)
        }
    }

    /// The item with the names of its task and subtask mapped.
    func reparented(_ map: (String) -> String) -> SyncItem {
        switch self {
        case .task: return self
        case var .subtask(s): s.taskUID = map(s.taskUID); return .subtask(s)
        case var .session(s):
            s.taskUID = map(s.taskUID)
            s.subtaskUID = s.subtaskUID.map(map)
            return .session(s)
        }
    }

    /// The task and subtask this item belongs to (none for a task).
    package var parents: [String] {
        switch self {
        case .task: []
        case let .subtask(s): [s.taskUID]
        case let .session(s): [s.taskUID] + (s.subtaskUID.map { [$0] } ?? [])
        }
    }

    /// What makes two items the same work: a task's title, a subtask's title in its task, a
    /// session's task, subtask and start.
    var workKey: String {
        switch self {
        case let .task(t): "t\u{1F}" + TaskCatalog.key(t.title)
        case let .subtask(s): "s\u{1F}\(s.taskUID)\u{1F}" + TaskCatalog.key(s.title)
        case let .session(s): "e\u{1F}\(s.taskUID)\u{1F}\(s.subtaskUID ?? "")\u{1F}\(Int64(s.start.timeIntervalSince1970.rounded(.down)))"
        }
    }
}

extension SyncPlan {
    /// To-dos nested deeper than a task and its subtasks (tasks.org and Thunderbird make
    /// grandchildren) attach to the nearest task above them; a to-do that is its own parent,
    /// or is in a cycle of parents, is a task. A subtask whose parent is nowhere (neither here
    /// nor there) is a task too, so that it applies rather than waits for good; as whether its
    /// parent is here differs between machines (another may keep the task, `decide`), it is
    /// written back as a task (`madeTask`), or the machines would hold it as two kinds for
    /// good and the sessions one records in it would never find it on the others. A task agreed
    /// before (`states`) that a read of changes does not list is there as it was, even when it
    /// was deleted here: a subtask added to it elsewhere stays its subtask (the task comes back
    /// with the work in it, `decide`), and the subtask's sessions find it.
    package static func nestedParents(_ entries: [String: RemoteRead.Entry], local: [String: SyncItem],
                                      states: [String: SyncState] = [:]) -> [String: RemoteRead.Entry] {
        func item(_ uid: String) -> SyncItem? { entries[uid]?.item ?? local[uid] }
        func agreedTask(_ uid: String) -> Bool { entries[uid] == nil && states[uid]?.kind == .task }
        var out = entries
        for (uid, entry) in entries {
            guard case let .subtask(s)? = entry.item else { continue }
            var seen: Set<String> = [uid]
            var parent = s.taskUID
            var task: String?
            while !seen.contains(parent) {
                seen.insert(parent)
                switch item(parent) {
                case .task?: task = parent
                case let .subtask(p)?: parent = p.taskUID; continue
                case nil where agreedTask(parent): task = parent
                default: break
                }
                break
            }
            if let task {
                if task != s.taskUID { out[uid]?.item = entry.item?.reparented { _ in task } }
            } else {
                // Its due date and estimate go with it (a task holds them on its stand-in, as
                // another app's to-do with a due date): the task written back says them, and
                // every machine reads the same task from it.
                out[uid]?.item = .task(SyncedTask(uid: uid, title: s.title.replacing("/", with: "-"), notes: s.notes, archived: s.done,
                                                  modified: s.modified, due: s.due, estimateSeconds: s.estimateSeconds,
                                                  planning: StandInPlanning(startDate: s.startDate, spanSeconds: s.spanSeconds,
                                                                            earliestMinutes: s.earliestMinutes, priority: s.priority,
                                                                            maxPerDaySeconds: s.maxPerDaySeconds)))
                out[uid]?.madeTask = true
            }
        }
        return out
    }

    /// Finds the same work under two names and keeps the smaller name on every machine: a row
    /// here named otherwise takes it (its old name is then deleted there, as any item gone
    /// here), an item there under the larger name is left for the machine that holds it to
    /// rename, and what belongs to it belongs to the kept one. Tasks, then subtasks (in their
    /// kept tasks), then sessions, so a whole tree merges in one round.
    package static func unify(local: [String: SyncItem], entries: [String: RemoteRead.Entry], states: [String: SyncState]) -> Unified {
        var out = Unified(local: local, entries: entries)
        var alias: [String: String] = [:]
        func canonical(_ uid: String) -> String { alias[uid] ?? uid }
        for kind in [SyncKind.task, .subtask, .session] {
            var groups: [String: Set<String>] = [:]
            for item in out.local.values where item.kind == kind && isFocusName(item.uid) {
                groups[item.reparented(canonical).workKey, default: []].insert(item.uid)
            }
            for (uid, entry) in out.entries where out.local[uid] == nil && states[uid] == nil && isFocusName(uid) {
                guard let item = entry.item, item.kind == kind else { continue }
                groups[item.reparented(canonical).workKey, default: []].insert(uid)
            }
            for names in groups.values where names.count > 1 {
                guard let kept = names.min() else { continue }
                for name in names where name != kept { alias[name] = kept }
            }
        }
        guard !alias.isEmpty else { return out }
        var local: [String: SyncItem] = [:]
        for (uid, item) in out.local {
            let name = canonical(uid)
            if name != uid {
                guard out.local[name] == nil else { local[uid] = item.reparented(canonical); continue }
                out.rekeys.append((item.kind, uid, name))
            }
            local[name] = item.named(name).reparented(canonical)
        }
        out.local = local
        var entries: [String: RemoteRead.Entry] = [:]
        for (uid, var entry) in out.entries {
            if alias[uid] != nil, out.local[uid] == nil, states[uid] == nil { continue }  // the other machine renames it
            let item = entry.item?.reparented(canonical)
            if item != entry.item { out.renamedParents.insert(uid) }
            entry.item = item
            entries[uid] = entry
        }
        out.entries = entries
        out.rekeys.sort { ($0.kind.rawValue, $0.from) < ($1.kind.rawValue, $1.from) }
        return out
    }

    /// The names whose copies must be compared this round: every item the server reported,
    /// and every item here whose content is not the version agreed.
    package static func touched(_ entries: [String: RemoteRead.Entry], states: [String: SyncState], local: [String: SyncItem]) -> [String] {
        var uids = Set(local.keys)
        uids.formUnion(entries.keys)
        uids.formUnion(states.keys)
        return uids.filter { uid in
            guard entries[uid] == nil, let state = states[uid], let mine = local[uid] else { return true }
            return mine.digest != state.digest
        }.sorted()
    }
}
