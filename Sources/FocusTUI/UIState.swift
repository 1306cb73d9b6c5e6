import FocusCore
import FocusRendering
import FocusStorage
import FocusTime
import FoundationEssentials

/// The five screens, numbered as the top bar and the keys 1–5 name them.
package enum Screen: Int, CaseIterable, Hashable, Sendable {
    case today = 1, week, tasks, timer, stats

    package var title: String {
        switch self {
        case .today: "Today"
        case .week: "Week"
        case .tasks: "Tasks"
        case .timer: "Timer"
        case .stats: "Stats"
        }
    }
}

/// The session running now (whichever process runs it), as the row other processes read.
package struct RunningSession: Sendable, Equatable {
    package var active: ActiveSession
    package var task: String
    package var subtask: String?

    package init(active: ActiveSession, task: String, subtask: String?) {
        self.active = active
        self.task = task
        self.subtask = subtask
    }

    /// What `focus status` says of it at `now`.
    package func facts(at now: Date) -> StatusFacts.Session {
        let snap = active.snapshot
        return StatusFacts.Session(
            task: task, subtask: subtask, phase: snap.phase, isPaused: snap.isPaused,
            remainingSeconds: active.remainingSeconds(at: now), plannedSeconds: snap.plannedSeconds,
            cycle: snap.cycle, cycles: snap.cycles, openElapsed: snap.isOpen ? active.elapsedSeconds(at: now) : nil)
    }
}

/// A window of Stats typed as `stats --from FROM --to TO` takes it (`r`); the loader reads it
/// with that option's parser.
package struct StatsRange: Hashable, Sendable {
    package var from: String
    package var to: String

    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// Which days and window the screens show: what the performer loads.
package struct LoadRequest: Hashable, Sendable {
    package var day: LocalDate
    package var weekStart: LocalDate
    package var statsDays: Int
    /// A range typed on Stats (`r`), instead of the last `statsDays` days.
    package var statsRange: StatsRange?
    /// The task Stats is restricted to (Enter on a task), as `stats --task PATH` restricts.
    package var statsTask: String?
    /// The text Tasks is searched for (`task list --search`).
    package var search: String?

    package init(day: LocalDate, weekStart: LocalDate, statsDays: Int, search: String? = nil) {
        self.day = day
        self.weekStart = weekStart
        self.statsDays = statsDays
        self.search = search
    }
}

/// Everything the screens show, read through the queries the subcommands use: the day as
/// `focus agenda` reads it, the week as `agenda --week`, the tasks as `task list`, the risks
/// as `plan`, the window as `stats --last N`, the session as `status`.
package struct UIData {
    package var day: AgendaDay
    package var week: [AgendaDay]
    package var tasks: [TaskOverview]
    package var risks: [RiskView]
    package var stats: StatsReport
    package var session: RunningSession?
    /// Why the range typed on Stats, or the task drilled into, could not be read (the last 7
    /// days, or all tasks, are shown instead).
    package var statsProblem: String?

    package init(day: AgendaDay, week: [AgendaDay], tasks: [TaskOverview], risks: [RiskView], stats: StatsReport,
                 session: RunningSession?) {
        self.day = day
        self.week = week
        self.tasks = tasks
        self.risks = risks
        self.stats = stats
        self.session = session
    }
}

/// What happens to the view.
package enum UIEvent {
    case key(Key)
    case resized(width: Int, height: Int)
    /// The clock moved on (a second while a session runs, a minute otherwise).
    case tick(Date)
    /// Another process changed the database.
    case changed
    case loaded(UIData, LoadRequest)
    /// A load or a command failed: the sentence of its error.
    case failed(String)
    /// What a command said it did.
    case said(String)
    /// The planner's dry run of the add form's draft (`task add` with these arguments).
    case previewed([String], FormVerdict?)
}

/// What the view asks the performer to do.
package enum Effect: Hashable, Sendable {
    case load(LoadRequest)
    /// `focus start PATH` in a process of its own, detached from the terminal: the session is
    /// the same as one started in another terminal (`focus status` sees it, `focus stop` stops it).
    case startSession(path: String)
    /// A focus subcommand (`pause`, `resume`, `stop`), its answer shown on the message line.
    case run([String])
    /// The same, in the background (it may wait on the network): its answer comes when it ends.
    case runInBackground([String])
    /// Plan again through the planning service every change goes through.
    case replan
    /// A request for the running session (`skip`), left in its row as `focus pause` leaves one.
    case control(ActiveSession.Request)
    /// `R`: the calendars fetched again, then a sync round when sync is set up (in the background).
    case refreshAndSync
    /// The add form's draft changed: its dry run, once no key has come for a moment (debounced).
    case preview([String])
    case quit
}

/// The whole view at one moment.
package struct UIState {
    package var screen: Screen = .today
    package var width: Int
    package var height: Int
    package var now: Date
    package var calendar: LocalCalendar
    /// The day Today shows.
    package var day: LocalDate
    /// The Monday of the week Week shows, and the selected day in it (0–6).
    package var weekStart: LocalDate
    package var weekDay: Int
    /// The days Stats sums: 7, 14 or 30.
    package var statsDays = 7
    package var data: UIData?
    /// The selected row of each list, and the item it stands for (kept across reloads).
    package var selection: [Screen: Int] = [:]
    /// The screens whose other pane has the keys (h/l, Tab): Today's and Tasks' details, Stats'
    /// bars; on the others the list (the timeline, the tree, the tasks' shares) has them.
    package var otherPane: Set<Screen> = []
    /// The other pane's cursor: the first line of the details shown (Today, Tasks), the day
    /// picked in the bars (Stats).
    package var paneCursor: [Screen: Int] = [:]
    package var selectedKey: [Screen: String] = [:]
    package var showingHelp = false
    /// The add form, while it is open (its draft survives a reload and a refusal).
    package var form: TaskForm?
    /// The search of Tasks, and whether its line is being typed in.
    package var search: String?
    package var searching = false
    /// The `:` command line, while it is typed.
    package var commandLine: String?
    /// Stats' range line (`r`), while it is typed: `FROM TO`.
    package var rangeLine: String?
    /// The range Stats shows instead of the last 7, 14 or 30 days.
    package var statsRange: StatsRange?
    /// The task Stats shows alone (Enter on it; Esc goes back to all tasks).
    package var statsTask: String?
    /// A question waiting for y or n (`D`, `q`): what it asks, and the command a yes runs (none:
    /// a yes quits the view).
    package var confirm: (question: String, arguments: [String])?
    /// Whether this view started a session (Enter on work): `q` asks before quitting while it runs.
    package var startedHere = false
    /// A line above the keys: a load that failed.
    package var message: String?

    package init(now: Date, calendar: LocalCalendar, width: Int, height: Int) {
        self.now = now
        self.calendar = calendar
        self.width = width
        self.height = height
        day = calendar.day(of: now)
        weekStart = UIState.monday(of: day)
        weekDay = day.dayNumber - weekStart.dayNumber
    }

    package var request: LoadRequest {
        var request = LoadRequest(day: day, weekStart: weekStart, statsDays: statsDays, search: search)
        request.statsRange = statsRange
        request.statsTask = statsTask
        return request
    }

    /// Where keys go now.
    package var keyContext: KeyContext {
        form != nil ? .form : searching ? .search : commandLine != nil ? .command : rangeLine != nil ? .range
            : confirm != nil ? .confirm : .screen
    }

    package var today: LocalDate { calendar.day(of: now) }

    /// The Monday on or before `day` (ISO 8601 weeks start on Monday).
    package static func monday(of day: LocalDate) -> LocalDate { day.adding(days: -((day.weekday + 6) % 7)) }

    package func selected(_ screen: Screen) -> Int { selection[screen] ?? 0 }
}
