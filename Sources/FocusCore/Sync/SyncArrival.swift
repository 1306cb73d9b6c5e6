import FoundationEssentials

// How an item another machine or app wrote is applied here (README, "Two machines"): Storage
// reads what the item's names refer to here (`SyncArrivalHere`), `SyncArrival.steps` decides,
// Storage performs the steps in order. The ids named are this machine's own rows, read for the
// item: they say which row to write, never which of two items wins.

/// What this machine holds under the names an arriving item refers to.
package struct SyncArrivalHere: Sendable, Equatable {
    /// The row of the item's kind under its name.
    package var row: Int64?
    /// The row of the other kind (task or subtask) under its name: the item changed kind in
    /// another app (a to-do dragged under a task, or out from under one).
    package var otherKind: Int64?
    /// The task a subtask or session belongs to (its task's name).
    package var task: Int64?
    /// The subtask a session belongs to; for a task, its stand-in (`SyncIdentity.standInUID`).
    package var subtask: Int64?
    /// An instance's series of recurring work.
    package var series: Int64?
    /// An instance this machine made for the same series and period, under another name.
    package var samePeriod: Int64?
    /// A new session's twin here under no shared name: the same task, subtask and start (both
    /// machines imported one file).
    package var sameSession: Int64?

    package init(row: Int64? = nil, otherKind: Int64? = nil, task: Int64? = nil, subtask: Int64? = nil, series: Int64? = nil,
                 samePeriod: Int64? = nil, sameSession: Int64? = nil) {
        self.row = row
        self.otherKind = otherKind
        self.task = task
        self.subtask = subtask
        self.series = series
        self.samePeriod = samePeriod
        self.sameSession = sameSession
    }
}

/// The rows here by name, as Storage keeps them while it applies a sync.
package protocol SyncRowNames {
    func task(_ uid: String) throws -> Int64?
    func subtask(_ uid: String) throws -> Int64?
    func session(_ uid: String) throws -> Int64?
    /// The instance of series `series` for the period starting on `period` (`YYYY-MM-DD`).
    func instance(series: Int64, period: String) throws -> Int64?
    /// The session of `task` and `subtask` that started at `start` (Unix seconds).
    func session(task: Int64, subtask: Int64?, start: Int64) throws -> Int64?
}

extension SyncArrivalHere {
    /// What `names` hold for the names `item` refers to.
    package static func read(for item: SyncItem, from names: some SyncRowNames) throws -> SyncArrivalHere {
        var here = SyncArrivalHere()
        switch item {
        case let .task(t):
            here.row = try names.task(t.uid)
            here.otherKind = try names.subtask(t.uid)
            here.subtask = try names.subtask(SyncIdentity.standInUID(taskUID: t.uid))
        case let .subtask(arrived):
            let s = arrived.stored
            here.row = try names.subtask(s.uid)
            here.otherKind = try names.task(s.uid)
            here.task = try names.task(s.taskUID)
            here.series = try s.seriesUID.flatMap { try names.subtask($0) }
            if here.row == nil, let series = here.series, let period = s.periodStart {
                here.samePeriod = try names.instance(series: series, period: period)
            }
        case let .session(arrived):
            let s = arrived.stored
            here.row = try names.session(s.uid)
            here.task = try names.task(s.taskUID)
            here.subtask = try s.subtaskUID.flatMap { try names.subtask($0) }
            if here.row == nil, let task = here.task, s.subtaskUID == nil || here.subtask != nil {
                here.sameSession = try names.session(task: task, subtask: here.subtask, start: Int64(s.start.timeIntervalSince1970))
            }
        }
        return here
    }
}

/// A row an arriving item's steps refer to.
package enum SyncRowRef: Sendable, Equatable {
    /// A row that was here before the item arrived.
    case here(Int64)
    /// The row the item's own write step made or updated.
    case written
    /// The stand-in subtask an earlier step for the same item made.
    case standIn
}

/// One step of applying an arriving item here (`SyncArrival.steps`), performed in order.
package enum SyncApplyStep: Sendable, Equatable {
    /// Not applied: why, as `focus sync` warns. No version is agreed, so the next sync tries again.
    case skip(String)
    /// The instance this machine made for the same period under another name takes the item's
    /// name first: one instance per period (README, "Planning").
    case adoptInstance(id: Int64)
    /// The item's row with these values (as kept: `SyncItem+Stored`), written over row `over`,
    /// or made when nil; the item's edit time is the row's, and a task or subtask deleted
    /// elsewhere or here is back (it travels again).
    case writeTask(SyncedTask, over: Int64?)
    case writeSubtask(SyncedSubtask, task: Int64, series: Int64?, over: Int64?)
    case writeSession(SyncedSession, task: Int64, subtask: SyncRowRef?, over: Int64?)
    /// A session here under no shared name takes the arriving one's name and tags; the rest of
    /// it stays as recorded here.
    case nameSession(SyncedSession, id: Int64)
    /// A task's stand-in subtask (`SyncIdentity.standInUID`) made under `task`, of the task's title.
    case makeStandIn(uid: String, task: SyncRowRef)
    /// What the stand-in `uid` carries: its task's due date and estimate; done once the task
    /// is archived; the task's name as written here (when no other subtask of it has that
    /// name); the task's edit time.
    case setStandIn(uid: String, due: Date?, estimateSeconds: Int?, done: Bool, modified: Int64, planning: StandInPlanning = StandInPlanning())
    /// The task written had been a subtask here (`old`): its sessions go to the task, then it goes.
    case takeSessionsOfSubtask(old: Int64)
    /// The subtask written had been a task here whose stand-in `uid` was this work itself: the
    /// stand-in's sessions are the subtask's now (under `parent`), and it goes unless one of
    /// them cannot move.
    case takeStandInWork(uid: String, parent: Int64)
    /// The subtask written had been a task here (`old`): its subtasks go to `parent`, its
    /// sessions too (those on no subtask to the subtask written); then
    /// `SyncArrival.afterTakingWork` says what becomes of `old`.
    case takeWorkOfTask(old: Int64, parent: Int64)
    /// A task that gave its work away goes...
    case deleteTask(id: Int64)
    /// ...or, when some of its subtasks could not move (a title taken there), stays without the name.
    case unnameTask(id: Int64)
    /// A task or subtask (of `task`) another app deleted, made here for the sessions that arrive
    /// in it (`LocalSyncChange.keepGone`): archived (a subtask done), "deleted elsewhere".
    case keepGoneTask(title: String)
    case keepGoneSubtask(title: String, task: Int64)
}

/// How an arriving item is applied here (README, "Two machines").
package enum SyncArrival {
    /// The steps that apply `item` (as it arrived: its values are kept within their columns'
    /// ranges here) given what is `here`.
    package static func steps(_ item: SyncItem, here: SyncArrivalHere) -> [SyncApplyStep] {
        switch item {
        case let .task(t): taskSteps(t.stored, here)
        case let .subtask(s): subtaskSteps(s.stored, here)
        case let .session(s): sessionSteps(s.stored, here)
        }
    }

    /// A task or subtask kept for the sessions arriving in it after another app deleted it
    /// (`LocalSyncChange.keepGone`): made unless a row of its name is here (or, for a subtask,
    /// its task is not).
    package static func keptGone(_ item: SyncItem, here: SyncArrivalHere) -> [SyncApplyStep] {
        guard here.row == nil else { return [] }
        switch item {
        case let .task(t): return [.keepGoneTask(title: t.title)]
        case let .subtask(s): return here.task.map { [.keepGoneSubtask(title: s.title, task: $0)] } ?? []
        case .session: return []
        }
    }

    /// After `.takeWorkOfTask(old:…)`: the task goes unless some of its subtasks stayed.
    package static func afterTakingWork(of old: Int64, subtasksLeft: Bool) -> SyncApplyStep {
        subtasksLeft ? .unnameTask(id: old) : .deleteTask(id: old)
    }

    /// A task; one with a due date or estimate (another app's to-do without a parent) has a
    /// stand-in subtask of its title that carries them, so it is planned, done once the to-do
    /// is. One whose due date and estimate went keeps its stand-in and its work, without them.
    private static func taskSteps(_ t: SyncedTask, _ here: SyncArrivalHere) -> [SyncApplyStep] {
        var task = t
        task.title = Titles.normalized(t.title)
        var steps: [SyncApplyStep] = [.writeTask(task, over: here.row)]
        let standIn = SyncIdentity.standInUID(taskUID: t.uid), planned = t.due != nil || t.estimateSeconds != nil
        if here.subtask == nil, planned { steps.append(.makeStandIn(uid: standIn, task: .written)) }
        if here.subtask != nil || planned {
            steps.append(.setStandIn(uid: standIn, due: t.due, estimateSeconds: t.estimateSeconds, done: t.archived, modified: t.modified,
                                      planning: t.planning))
        }
        if here.row == nil, let old = here.otherKind { steps.append(.takeSessionsOfSubtask(old: old)) }
        return steps
    }

    /// A subtask, under its task here; an instance of recurring work under its series here.
    private static func subtaskSteps(_ s: SyncedSubtask, _ here: SyncArrivalHere) -> [SyncApplyStep] {
        guard let task = here.task else { return [.skip("'\(s.title)' belongs to a task this machine does not have")] }
        if s.seriesUID != nil, here.series == nil {
            return [.skip("'\(s.title)' is an instance of recurring work this machine does not have")]
        }
        var row = s
        row.title = Titles.normalized(s.title)
        let rule = s.every.flatMap(Recurrence.Every.init(rawValue:)).map { Recurrence(every: $0, stored: s.onDay) }
        (row.every, row.onDay) = (rule?.every.rawValue, rule?.on)
        if here.series == nil { row.periodStart = nil }
        let adopted = here.row == nil ? here.samePeriod : nil
        let steps: [SyncApplyStep] = (adopted.map { [.adoptInstance(id: $0)] } ?? [])
            + [.writeSubtask(row, task: task, series: here.series, over: here.row ?? adopted)]
        guard here.row == nil, adopted == nil, let old = here.otherKind else { return steps }
        return steps + [.takeStandInWork(uid: SyncIdentity.standInUID(taskUID: s.uid), parent: task), .takeWorkOfTask(old: old, parent: task)]
    }

    /// A session, on its task here and its subtask here (a task's stand-in whose due date is
    /// gone since is made again for it).
    private static func sessionSteps(_ s: SyncedSession, _ here: SyncArrivalHere) -> [SyncApplyStep] {
        guard let task = here.task else { return [.skip("a session of '\(s.label)' belongs to a task this machine does not have")] }
        var steps: [SyncApplyStep] = []
        var subtask: SyncRowRef?
        if let uid = s.subtaskUID {
            if let id = here.subtask {
                subtask = .here(id)
            } else if uid == SyncIdentity.standInUID(taskUID: s.taskUID) {
                steps.append(.makeStandIn(uid: uid, task: .here(task)))
                subtask = .standIn
            } else {
                return [.skip("a session of '\(s.label)' belongs to a subtask this machine does not have")]
            }
        }
        if here.row == nil, let twin = here.sameSession { return [.nameSession(s, id: twin)] }
        return steps + [.writeSession(s, task: task, subtask: subtask, over: here.row)]
    }
}
