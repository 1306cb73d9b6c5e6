import FoundationEssentials

extension SyncPlan {
    /// The tasks and subtasks that sessions arriving in `changes` belong to, which this machine
    /// never had and which are gone there (another app deleted the to-do before this machine
    /// read it): each is made here from the session's own label ("Thesis/Chapter 2"), archived
    /// (a subtask done) and "deleted elsewhere", as the machines that had it keep it (README,
    /// "Two machines": another app's deletion never deletes sessions). Tasks first, in the
    /// order their sessions come; a stand-in subtask (`SyncIdentity.standInUID`) is made again
    /// with its task by the session itself, as when its due date went.
    package static func goneParents(of changes: [LocalSyncChange], in input: RoundInput) -> [LocalSyncChange] {
        var arriving = Set<String>()
        for case let .upsert(item) in changes where item.kind != .session { arriving.insert(item.uid) }
        // Gone: neither here nor there, and not arriving. One agreed before is gone when this
        // read reports it deleted there too: this machine deleted it (`focus task rm`, which
        // deletes only the sessions it had seen) while another app deleted its to-do; work
        // recorded elsewhere brings it back as the machines that had it keep it. One agreed
        // and unchanged there comes back whole instead (`decide`).
        func gone(_ uid: String) -> Bool {
            input.local[uid] == nil && input.entries[uid]?.item == nil && !arriving.contains(uid)
                && (input.states[uid] == nil || input.entries[uid] != nil)
        }
        var tasks: [LocalSyncChange] = [], subtasks: [LocalSyncChange] = []
        var made = Set<String>()
        for case let .upsert(.session(s)) in changes {
            var (task, subtask) = titles(label: s.label)
            if case let .task(here)? = input.local[s.taskUID] ?? input.entries[s.taskUID]?.item { task = here.title }
            if gone(s.taskUID), made.insert(s.taskUID).inserted {
                tasks.append(.keepGone(.task(SyncedTask(uid: s.taskUID, title: task, notes: nil, archived: true, modified: 0)), label: task))
            }
            if let uid = s.subtaskUID, uid != SyncIdentity.standInUID(taskUID: s.taskUID), gone(uid), made.insert(uid).inserted {
                let title = subtask ?? task
                subtasks.append(.keepGone(.subtask(SyncedSubtask(uid: uid, taskUID: s.taskUID, title: title, notes: nil, estimateSeconds: nil,
                                                                 startDate: nil, due: nil, spanSeconds: nil, earliestMinutes: nil, done: true,
                                                                 modified: 0)), label: task + "/" + title))
            }
        }
        return tasks + subtasks
    }

    /// A session's label read as its task's and subtask's titles: the task's title holds no
    /// `/` (`Titles.validateTask`), so the first one ends it. Clamped as arriving titles are.
    static func titles(label: String) -> (task: String, subtask: String?) {
        guard let slash = label.firstIndex(of: "/") else { return (SyncAdmission.clamp(label, kind: "task").0, nil) }
        return (SyncAdmission.clamp(String(label[..<slash]), kind: "task").0,
                SyncAdmission.clamp(String(label[label.index(after: slash)...]), kind: "subtask").0)
    }
}
