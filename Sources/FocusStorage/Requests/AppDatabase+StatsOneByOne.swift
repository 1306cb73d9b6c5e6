import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// The reference for `statsInput`, read the obvious way: every session overlapping
    /// `[startOfDay(window.historyFrom), startOfDay(window.to + 1))` one by one with its names
    /// (`sessions(overlapping:)`), no day totals, no quarter-hour sums, no streak probes, and
    /// the estimate progress of the tasks that have a session in the window (`progress`, the
    /// one query both readers share). It reads 12 weeks
    /// of sessions and more for any window, so no command uses it: `statsInput` must give the
    /// report this gives (StatsReaderEqualityTests), and a change to either is checked there.
    package func statsInputOneByOne(window: StatsWindow, calendar: LocalCalendar, now: Date, taskPath: String?) throws(FocusError) -> StatsInput {
        try read { db in
            let catalog = try AppDatabase.catalog(db)
            let target = try taskPath.map { try catalog.resolve($0) }
            let from = calendar.startOfDay(window.historyFrom)
            let windowStart = calendar.startOfDay(window.from)
            let windowEnd = calendar.startOfDay(window.to.adding(days: 1))
            let entries = try AppDatabase.sessions(db, from, windowEnd, subtaskID: target?.subtaskID,
                                                   taskID: target?.subtaskID == nil ? target?.taskID : nil)
            let shown = Set(entries.filter { $0.log.endedAt > windowStart || $0.log.startedAt >= windowStart }.map(\.log.taskID))
            let progress = try AppDatabase.progress(db, taskIDs: shown.sorted(), subtaskID: target?.subtaskID, now: now)
            return StatsInput(window: window, calendar: calendar, now: now, sessions: entries, progress: progress,
                              taskFilter: target.map { catalog.path(of: $0) }, historyFrom: window.historyFrom)
        }
    }
}
