import FocusRendering
import FocusText
import ArgumentParser
import FocusCore
import FocusStorage
import FoundationEssentials

/// `focus status [--json | --format FMT | --waybar | --i3blocks] [--follow]`: for prompts and
/// status bars, which run it every second, or once with `--follow`. Each output reads only what
/// it shows: the running session, and the next block and today's focus (one indexed query each)
/// only when asked for.
package struct StatusCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the running session (for prompts and status bars).",
        discussion: """
            --format placeholders: {state} {task} {subtask} {path} {phase} {remaining} {elapsed} \
            {cycle} {cycles} {next} (the next planned block, `14:00 Thesis/Chapter 2`) {today} \
            (focus today, `1h35m`). Idle prints `idle`; with --format an empty line, or, when the \
            template has {next} or {today}, the template with the session's placeholders empty. --waybar prints JSON for waybar's custom module \
            (return-type json); --i3blocks prints full_text, short_text and colour lines. \
            --follow keeps running and prints again only when the output changes: each second \
            while a session runs, at once when a session starts, stops, pauses or resumes, at \
            midnight and when the next block changes; it ends when its reader goes away or on \
            SIGINT/SIGTERM. With --follow, --i3blocks prints one JSON object a line \
            (full_text, short_text, color) for i3blocks' interval=persist and format=json.
            """)

    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("A template, e.g. '{path} {remaining}'.", valueName: "format")) var format: String?
    @Flag(help: "Print JSON for a waybar custom module.") var waybar = false
    @Flag(help: "Print the three lines an i3blocks block reads.") var i3blocks = false
    @Flag(help: "Keep running; print again whenever the output changes (for status bars).") var follow = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let chosen = [json ? "--json" : nil, format != nil ? "--format" : nil, waybar ? "--waybar" : nil, i3blocks ? "--i3blocks" : nil].compactMap { $0 }
        if chosen.count > 1 { throw FocusError.usage("\(chosen.joined(separator: " and ")) cannot be used together; choose one.") }
        if follow {
            try StatusFollower(command: self, env: env).run()
            return
        }
        let now = env.now()
        // Nothing recorded yet (no database file): an empty database's reading, without making
        // one in memory first (its migrations cost a status bar polling a new machine 10 ms and
        // half a megabyte a time).
        let reading = env.databaseExists()
            ? try read(env.openDatabase(), now: now, calendar: env.calendar)
            : emptyReading(now: now, calendar: env.calendar)
        env.console.line(text(reading, now: now, calendar: env.calendar))
    }

    /// What `read` finds in an empty database.
    func emptyReading(now: Date, calendar: LocalCalendar) -> StatusReading {
        var reading = StatusReading(active: nil, day: calendar.day(of: now))
        if !json, wantsToday { reading.loggedToday = 0 }
        return reading
    }

    /// Whether the output shows the next block / today's focus (each costs a query).
    var wantsNext: Bool { waybar || i3blocks || format?.contains("{next}") == true }
    var wantsToday: Bool { waybar || i3blocks || format?.contains("{today}") == true }

    /// Reads what the output needs at `now`.
    func read(_ db: AppDatabase, now: Date, calendar: LocalCalendar) throws(FocusError) -> StatusReading {
        let active = try db.activeSession()
        var reading = StatusReading(active: active, day: calendar.day(of: now))
        if let active {
            let names = try db.titles(taskID: active.taskID, subtaskID: active.subtaskID)
            reading.task = names.task
            reading.subtask = names.subtask
        }
        if json, active != nil { reading.provenPID = SessionLock.owner(database: db.path).provenPID }
        // Plain `status` on an idle machine names a session running on another (README, "Two machines").
        if active == nil, !json, format == nil, !waybar, !i3blocks { reading.elsewhere = try db.runningElsewhere() }
        if !json, wantsNext { reading.next = try db.nextBlock(at: now, excluding: active?.blockID) }
        if !json, wantsToday {
            let today = reading.day
            reading.loggedToday = try db.focusedSeconds(from: calendar.startOfDay(today), to: calendar.startOfDay(today.adding(days: 1)))
        }
        return reading
    }

    /// The output (one line, or i3blocks' three) for a reading at `now`.
    func text(_ reading: StatusReading, now: Date, calendar: LocalCalendar) -> DisplayText {
        let session = reading.session(at: now)
        if json {
            // The process the kernel names as the session's (the lock holder), not a pid merely stored.
            let pid = Int(reading.provenPID ?? reading.active?.pid ?? 0)
            return StatusRenderer.json(session, startedAt: reading.active?.snapshot.phaseStartedAt ?? now, pid: pid, now: now)
        }
        var facts = StatusFacts()
        facts.session = session
        if let block = reading.next {
            facts.next = StatusRenderer.next(start: block.start, path: block.path, now: now, calendar: calendar)
        }
        if let logged = reading.loggedToday {
            let running = session.map { $0.phase == .work ? $0.elapsedSeconds : 0 } ?? 0
            facts.todaySeconds = logged + running
        }
        if waybar { return StatusRenderer.waybar(facts) }
        if i3blocks { return follow ? StatusRenderer.i3blocksJSON(facts) : StatusRenderer.i3blocks(facts) }
        if let format { return StatusRenderer.template(format, facts, idleShown: wantsNext || wantsToday) }
        return StatusRenderer.line(facts, elsewhere: reading.elsewhere.lazy.compactMap { $0.line(at: now) }.first)
    }
}

/// What `focus status` read from the database: enough to render it at any later instant until
/// the database changes, the day ends or the next block ends (`focus status --follow` redraws
/// each second from one reading).
struct StatusReading {
    var active: ActiveSession?
    var task = ""
    var subtask: String?
    /// The next planned block, when the output shows it.
    var next: BlockView?
    /// Focus logged on `day` (sessions that ended), when the output shows it.
    var loggedToday: Int?
    /// The local day the reading was made on.
    var day: LocalDate
    /// The session's process as the kernel names it (the session lock's holder), for `--json`.
    var provenPID: Int32?
    /// Sessions other machines said were running (sync), for plain `status` when idle.
    var elsewhere: [RunningCheckpoint] = []

    init(active: ActiveSession?, day: LocalDate) {
        self.active = active
        self.day = day
    }

    /// An empty reading: no database yet.
    static func empty(day: LocalDate) -> StatusReading {
        var reading = StatusReading(active: nil, day: day)
        reading.loggedToday = 0
        return reading
    }

    func session(at now: Date) -> StatusFacts.Session? {
        guard let active else { return nil }
        let snap = active.snapshot
        return StatusFacts.Session(
            task: task, subtask: subtask, phase: snap.phase, isPaused: snap.isPaused,
            remainingSeconds: active.remainingSeconds(at: now), plannedSeconds: snap.plannedSeconds,
            cycle: snap.cycle, cycles: snap.cycles, openElapsed: snap.isOpen ? active.elapsedSeconds(at: now) : nil)
    }

    /// When the remaining time next changes (it is rounded up to whole seconds), if it runs; for
    /// an open session, when its time so far next changes.
    func nextTick(after now: Date) -> Date? {
        if let active, active.snapshot.isOpen, !active.snapshot.isPaused {
            let since = now.timeIntervalSince(active.checkpointAt)
            return now.addingTimeInterval(since.rounded(.down) + 1 - since + 0.005)
        }
        guard let active, !active.snapshot.isPaused, let ends = active.snapshot.endsAt, ends > now else { return nil }
        let left = ends.timeIntervalSince(now)
        let fraction = left - left.rounded(.down)
        // Just past the instant the rounded-up count drops (a whole second when exactly on it).
        return now.addingTimeInterval((fraction == 0 ? 1 : fraction) + 0.005)
    }
}
