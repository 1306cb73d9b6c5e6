import FocusCore
import FocusStorage

extension StartCommand {
    /// What to work on: the path given; with none, the subtask of the scheduled block running
    /// now or next today (the session is then linked to that block).
    func workTarget(catalog: TaskCatalog, db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> (PathTarget, blockID: Int64?) {
        if let path { return (try catalog.resolve(path), nil) }
        let now = env.now()
        let today = env.calendar.day(of: now)
        let blocks = try db.blocks(overlapping: env.calendar.startOfDay(today), env.calendar.startOfDay(today.adding(days: 1)))
        let candidates = blocks.map { ScheduledBlock(id: $0.id, subtaskID: $0.subtaskID, startedAt: $0.start, endedAt: $0.end, status: $0.status) }
        guard let block = BlockSelection.pick(candidates, now: now, calendar: env.calendar),
              let subtask = try db.subtask(id: block.subtaskID) else {
            throw FocusError.usage("name what to work on: `focus start \"Thesis/Chapter 2\"` (see `focus task list`).")
        }
        let target = PathTarget.subtask(taskID: subtask.taskID, id: block.subtaskID)
        env.console.note("working on the block \(env.calendar.timeOfDay(of: block.startedAt))–\(env.calendar.timeOfDay(of: block.endedAt)): \(Sanitized.terminal(catalog.path(of: target))).")
        return (target, block.id)
    }
}
