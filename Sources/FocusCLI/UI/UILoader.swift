import FocusCore
import FocusServices
import FocusStorage
import FocusTUI
import FoundationEssentials

/// Reads what the view shows through the queries the subcommands use: the day and the week as
/// `focus agenda` loads them, the tasks as `task list`, the risks as `plan`, the window as
/// `stats --last N`, the running session as `status`.
struct UILoader {
    var env: FocusEnvironment
    var db: AppDatabase

    func load(_ request: LoadRequest) throws(FocusError) -> UIData {
        let now = env.now()
        // As `focus agenda` does: blocks that passed unworked are settled and placed again first.
        let stale = try db.planIsStaleByTime(now: now)
        let due = try db.instancesAreDue(now: now, calendar: env.calendar)
        if stale || due {
            Planning.replanQuietly(env.services, db)
        }
        let rules = Planning.rules(env.services)
        let day = try AgendaCommand.load(day: request.day, now: now, env: env, db: db, rules: rules)
        let week = try (0..<7).map { offset throws(FocusError) in
            try AgendaCommand.load(day: request.weekStart.adding(days: offset), now: now, env: env, db: db, rules: rules)
        }
        let tasks = TaskListing.apply(RecurringWork.fold(tasks: try db.overview(all: false), now: now, calendar: env.calendar),
                                      filter: TaskFilter(search: request.search), sort: .due, now: now)
        let today = env.calendar.day(of: now)
        let (stats, problem) = try self.stats(request, today: today, now: now)
        var session: RunningSession?
        if let active = try db.activeSession() {
            let names = try db.titles(taskID: active.taskID, subtaskID: active.subtaskID)
            session = RunningSession(active: active, task: names.task, subtask: names.subtask)
        }
        var data = UIData(day: day, week: week, tasks: tasks, risks: try db.savedRisks(), stats: stats, session: session)
        data.statsProblem = problem
        return data
    }

    /// Stats' report as `stats --last N` (or `--from/--to`) and `--task PATH` read it; a range or
    /// a task that cannot be read (a task deleted meanwhile) says why, and the last days or all
    /// tasks are shown instead.
    private func stats(_ request: LoadRequest, today: LocalDate, now: Date) throws(FocusError) -> (StatsReport, String?) {
        var problems: [String] = []
        var window = try WindowOptions(last: request.statsDays).window(today: today)
        if let range = request.statsRange {
            do {
                window = try WindowOptions(from: range.from, to: range.to).window(today: today)
            } catch {
                problems.append(error.description)
            }
        }
        var input: StatsInput
        do throws(FocusError) {
            input = try db.statsInput(window: window, calendar: env.calendar, now: now, taskPath: request.statsTask)
        } catch {
            guard request.statsTask != nil else { throw error }
            problems.append(error.description)
            input = try db.statsInput(window: window, calendar: env.calendar, now: now, taskPath: nil)
        }
        return (StatsCalculator.report(input), problems.isEmpty ? nil : problems.joined(separator: " "))
    }
}
