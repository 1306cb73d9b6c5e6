import FocusTime
import FoundationEssentials

/// Recurring work's decisions (README, "Planning"): which instances a series must have, which of
/// them work is logged against, and how a listing shows a series. Pure, over values.
///
/// A series is a subtask row holding the rule (`Subtask.recurrence`) and the fields its instances
/// copy; it is never planned itself. Each period's instance is an ordinary subtask pointing to it
/// (`seriesID`, `periodStart`), due at the period's end (or at the end of its `--on` day) and
/// starting at the period's start, so the scheduler plans it like any other work.
package enum RecurringWork {
    /// An instance as the decisions read it.
    package struct Instance: Sendable, Equatable {
        package var id: Int64
        package var periodStart: LocalDate
        package var due: Date?
        package var done: Bool

        package init(id: Int64, periodStart: LocalDate, due: Date?, done: Bool) {
            self.id = id
            self.periodStart = periodStart
            self.due = due
            self.done = done
        }

        /// Past due and not done: it stays (with its sessions) but is never planned.
        package func isMissed(now: Date) -> Bool {
            !done && (due.map { $0 <= now } ?? false)
        }
    }

    /// Whether the planner places work of `s`: never a series (its instances carry the work),
    /// nor a missed instance (the next period's is there to plan).
    package static func isPlanned(_ s: Subtask, now: Date) -> Bool {
        guard !s.isSeries else { return false }
        guard s.seriesID != nil, let due = s.due else { return true }
        return s.done || due > now
    }

    /// The title of an instance after its series was renamed from `old` to `new`.
    package static func renamed(_ title: String, from old: String, to new: String) -> String {
        title.hasPrefix(old + " · ") ? new + title.dropFirst(old.count) : title
    }

    /// `Weekly review · 2026-12-04`: the series' title and the instance's due day, so titles stay
    /// unique within the task (as every subtask title must).
    package static func instanceTitle(series: String, dueDay: LocalDate) -> String {
        series + " · " + dueDay.description
    }

    /// The first day of the series: its start date if it has one, else the day it was made.
    package static func since(_ series: Subtask, calendar: LocalCalendar) -> LocalDate {
        series.startDate ?? calendar.day(of: series.createdAt)
    }

    /// The instances `series` must gain on `today`: the current period's (unless its due day is
    /// over, or came before the series began) and the next period's, each unless an instance
    /// of that period exists already, whether open, done or missed (`existing`: their
    /// period starts). Done and missed instances thus never block the next one.
    package static func missing(
        series: Subtask, existing: some Sequence<LocalDate>, today: LocalDate, calendar: LocalCalendar, now: Date
    ) -> [Subtask] {
        guard let rule = series.recurrence, let seriesID = series.id else { return [] }
        let have = Set(existing)
        return rule.instances(today: today, since: since(series, calendar: calendar))
            .filter { !have.contains($0.start) }
            .map { period in
                var s = Subtask(taskID: series.taskID, title: instanceTitle(series: series.title, dueDay: period.dueDay),
                                createdAt: now)
                s.startDate = period.start
                s.due = period.due(in: calendar)
                s.seriesID = seriesID
                s.periodStart = period.start
                return copyingFields(of: series, to: s)
            }
    }

    /// `instance` with the fields every instance takes from its series: estimate, attention
    /// span, earliest time, priority and daily cap.
    package static func copyingFields(of series: Subtask, to instance: Subtask) -> Subtask {
        var s = instance
        s.estimateSeconds = series.estimateSeconds
        s.spanSeconds = series.spanSeconds
        s.earliest = series.earliest
        s.priority = series.priority
        s.maxPerDaySeconds = series.maxPerDaySeconds
        return s
    }

    /// The instance work on the series is logged against (`start`, `log add`, `task done`): the
    /// earliest open instance (not done, not missed), which is the one whose period has begun
    /// when there is one, else the next. Nil when none is open.
    package static func current(_ instances: [Instance], now: Date) -> Instance? {
        instances.filter { !$0.done && !$0.isMissed(now: now) }.min { $0.periodStart < $1.periodStart }
    }

    /// Where a session on a series belongs (`log add`, README "Planning").
    package enum SessionHome: Sendable, Equatable {
        /// The current instance (`current`): the session began in this period or later.
        case current
        /// The instance whose period holds the session's start, a period before this one.
        case instance(Int64)
        /// No instance was made for that period: the series itself.
        case series
    }

    /// A session that began before this period goes to the instance whose period holds its
    /// start (last Friday's review is last week's), or to the series when none was made for it;
    /// one from this period on goes to the current instance.
    package static func home(ofSessionAt start: Date, series: Subtask, instances: [Instance], now: Date,
                             calendar: LocalCalendar) -> SessionHome {
        guard let rule = series.recurrence else { return .current }
        let day = calendar.day(of: start)
        guard day < rule.period(containing: calendar.day(of: now)).start else { return .current }
        let period = rule.period(containing: day)
        guard period.start <= day, let held = instances.first(where: { $0.periodStart == period.start }) else { return .series }
        return .instance(held.id)
    }

    /// The instance `task done --undo` on the series reopens: the latest done one whose due
    /// date is still ahead.
    package static func lastDone(_ instances: [Instance], now: Date) -> Instance? {
        instances.filter { $0.done && ($0.due.map { $0 > now } ?? true) }.max { $0.periodStart < $1.periodStart }
    }

    /// On a change of the rule (`task edit --every/--on`), from the current period on: the open
    /// instances with no time logged go (the new rule makes its own); those with logged time,
    /// and done and missed ones, stay as they are.
    package static func droppedOnRuleChange(_ instances: [(instance: Instance, loggedSeconds: Int)], now: Date) -> [Int64] {
        instances.filter { !$0.instance.done && !$0.instance.isMissed(now: now) && $0.loggedSeconds == 0 }.map(\.instance.id)
    }

    /// An instance's state for the decisions (nil for a subtask that is no instance).
    package static func state(_ s: Subtask) -> Instance? {
        guard s.seriesID != nil, let id = s.id, let start = s.periodStart else { return nil }
        return Instance(id: id, periodStart: start, due: s.due, done: s.done)
    }

    /// What an edit of a series does to its instances: a changed rule drops the open ones with
    /// no time logged (`droppedOnRuleChange`; the new rule makes its own from the current
    /// period on); the rest are renamed with the series, and those still open take its fields
    /// (`copyingFields`), while done and missed ones keep what they had.
    package static func afterEdit(
        series: Subtask, previous: Subtask, instances: [(subtask: Subtask, loggedSeconds: Int)], now: Date
    ) -> (updated: [Subtask], dropped: [Int64]) {
        let states = instances.compactMap { i in state(i.subtask).map { (instance: $0, loggedSeconds: i.loggedSeconds) } }
        let dropped = previous.recurrence != series.recurrence ? droppedOnRuleChange(states, now: now) : []
        let updated = instances.map(\.subtask).filter { !dropped.contains($0.id ?? -1) }.map { instance in
            var s = instance
            s.title = renamed(s.title, from: previous.title, to: series.title)
            return state(s).map { !$0.done && !$0.isMissed(now: now) } == true ? copyingFields(of: series, to: s) : s
        }
        return (updated, dropped)
    }

    /// A listing's subtasks with each series shown once, as its current instance (its due date,
    /// logged time and at-risk flag; when it has none yet, the due date of the period the rule
    /// gives), and the instances themselves left out. Order: due ones first, soonest first, the
    /// rest as they came (the order `task list` reads subtasks in).
    package static func fold(_ subtasks: [SubtaskOverview], now: Date, calendar: LocalCalendar) -> [SubtaskOverview] {
        guard subtasks.contains(where: { $0.subtask.isSeries || $0.subtask.seriesID != nil }) else { return subtasks }
        var instances: [Int64: [SubtaskOverview]] = [:]
        for s in subtasks { if let series = s.subtask.seriesID { instances[series, default: []].append(s) } }
        var folded: [SubtaskOverview] = []
        for s in subtasks where s.subtask.seriesID == nil {
            guard s.subtask.isSeries, let id = s.subtask.id else { folded.append(s); continue }
            folded.append(shown(series: s, instances: instances[id] ?? [], now: now, calendar: calendar))
        }
        return folded.enumerated().sorted { a, b in
            let da = a.element.subtask.due, db = b.element.subtask.due
            if (da == nil) != (db == nil) { return da != nil }
            if let da, let db, da != db { return da < db }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The due date of the series' first instance from `now` on by its rule (the current
    /// period's, else the next's): what `task add` and `task edit` say of a series.
    package static func nextDue(_ series: Subtask, now: Date, calendar: LocalCalendar) -> Date? {
        guard let rule = series.recurrence else { return nil }
        return rule.instances(today: calendar.day(of: now), since: since(series, calendar: calendar)).first?.due(in: calendar)
    }

    /// `fold` over each task's subtasks.
    package static func fold(tasks: [TaskOverview], now: Date, calendar: LocalCalendar) -> [TaskOverview] {
        tasks.map { t in
            var t = t
            t.subtasks = fold(t.subtasks, now: now, calendar: calendar)
            return t
        }
    }

    /// One series as a listing shows it.
    static func shown(series: SubtaskOverview, instances: [SubtaskOverview], now: Date, calendar: LocalCalendar) -> SubtaskOverview {
        var row = series
        let states = instances.compactMap { state($0.subtask) }
        row.subtask.done = false
        if let current = current(states, now: now), let instance = instances.first(where: { $0.subtask.id == current.id }) {
            row.subtask.due = instance.subtask.due
            row.subtask.startDate = instance.subtask.startDate
            row.subtask.atRisk = instance.subtask.atRisk
            row.subtask.estimateSeconds = instance.subtask.estimateSeconds
            row.loggedSeconds = instance.loggedSeconds
            row.lastWorkedAt = instance.lastWorkedAt
            row.currentInstanceID = current.id
        } else if let rule = series.subtask.recurrence {
            let period = rule.instances(today: calendar.day(of: now), since: since(series.subtask, calendar: calendar)).first
            row.subtask.due = period?.due(in: calendar)
            row.subtask.startDate = period?.start
            row.loggedSeconds = 0
        }
        return row
    }
}
