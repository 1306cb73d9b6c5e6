import FocusCore
import FocusStorage
import FoundationEssentials

/// Work named through a series of recurring work is work on its current instance (README,
/// "Planning"): `start`, `continue`, `log add` and `task done` on `Admin/Weekly review` act on
/// this period's instance (`RecurringWork.current`), added first when its period just began.
enum SeriesTarget {
    /// `target`, or the instance it stands for when it names a series; `reopening` picks the
    /// instance `task done --undo` reopens.
    static func resolve(_ target: PathTarget, shown: String, db: AppDatabase, env: FocusEnvironment,
                        reopening: Bool = false) throws(FocusError) -> PathTarget {
        guard case let .subtask(taskID, id) = target, let subtask = try db.subtask(id: id), subtask.isSeries else { return target }
        guard let instance = try db.currentInstance(ofSeries: id, now: env.now(), calendar: env.calendar, reopening: reopening) else {
            throw FocusError.usage(reopening
                ? "'\(shown)' has no done instance to reopen in this period or the next."
                : "'\(shown)' is done for this period and the next; `\(Quoted.command("focus task done", shown, then: "--undo"))` reopens the last one.")
        }
        return .subtask(taskID: taskID, id: instance)
    }

    /// Where a session that began at `start` is recorded when `target` names a series
    /// (`RecurringWork.home`): a past period's instance, the series itself (with a note to say
    /// so), or the current instance as `resolve` finds it.
    static func resolve(_ target: PathTarget, shown: String, db: AppDatabase, env: FocusEnvironment,
                        sessionAt start: Date) throws(FocusError) -> (target: PathTarget, note: String?) {
        guard case let .subtask(taskID, id) = target, let series = try db.subtask(id: id), series.isSeries else { return (target, nil) }
        switch RecurringWork.home(ofSessionAt: start, series: series, instances: try db.instances(ofSeries: id), now: env.now(),
                                  calendar: env.calendar) {
        case .current: return (try resolve(target, shown: shown, db: db, env: env), nil)
        case .instance(let instance): return (.subtask(taskID: taskID, id: instance), nil)
        case .series:
            return (target, "note: '\(shown)' has no instance for the period of \(env.calendar.day(of: start)): recorded on the series itself.")
        }
    }

    /// The work `continue` takes up: when the last session was on an instance of recurring work,
    /// the series' current instance (last week's review continues as this week's), else itself.
    static func continuing(_ target: PathTarget, db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> PathTarget {
        guard case let .subtask(taskID, id) = target, let series = try db.subtask(id: id)?.seriesID,
              let instance = try db.currentInstance(ofSeries: series, now: env.now(), calendar: env.calendar) else { return target }
        return .subtask(taskID: taskID, id: instance)
    }
}
