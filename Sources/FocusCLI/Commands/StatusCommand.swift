import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// `focus status [--json | --format FMT | --waybar | --i3blocks]`: for prompts and status bars,
/// which run it every second. Each output reads only what it shows: the running session, and
/// the next block and today's focus (one indexed query each) only when asked for.
package struct StatusCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the running session (for prompts and status bars).",
        discussion: """
            --format placeholders: {state} {task} {subtask} {path} {phase} {remaining} {elapsed} \
            {cycle} {cycles} {next} (the next planned block, `14:00 Thesis/Chapter 2`) {today} \
            (focus today, `1h35m`). Idle prints `idle`; with --format an empty line, or, when the \
            template has {next} or {today}, the template with the session's placeholders empty. --waybar prints JSON for waybar's custom module \
            (return-type json); --i3blocks prints full_text, short_text and colour lines.
            """)

    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("A template, e.g. '{path} {remaining}'.", valueName: "format")) var format: String?
    @Flag(help: "Print JSON for a waybar custom module.") var waybar = false
    @Flag(help: "Print the three lines an i3blocks block reads.") var i3blocks = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let chosen = [json ? "--json" : nil, format != nil ? "--format" : nil, waybar ? "--waybar" : nil, i3blocks ? "--i3blocks" : nil].compactMap { $0 }
        if chosen.count > 1 { throw FocusError.usage("\(chosen.joined(separator: " and ")) cannot be used together; choose one.") }
        let db = try env.openDatabase()
        let active = try db.activeSession()
        let now = env.now()

        if json {
            guard let active else {
                env.console.line(JSON.object([("state", .string("idle"))]).rendered())
                return
            }
            let s = try session(active, db: db, now: now)
            let snap = active.snapshot
            env.console.line(JSON.object([
                ("state", .string(s.state)),
                ("task", .string(s.task)),
                ("subtask", .optional(s.subtask)),
                ("phase", .string(s.phase.rawValue)),
                ("started_at", .string(Timestamp.utc(snap.phaseStartedAt))),
                ("ends_at", snap.isPaused ? .null : .string(Timestamp.utc(now.addingTimeInterval(Double(s.remainingSeconds))))),
                ("remaining_seconds", .int(s.remainingSeconds)),
                ("cycle", .int(s.cycle)),
                ("cycles", .int(s.cycles)),
                ("paused", .bool(s.isPaused)),
                ("elapsed_seconds", .int(s.elapsedSeconds)),
                // The process the kernel names as the session's (the lock holder), not a pid merely stored.
                ("pid", .int(Int(SessionLock.owner(database: db.path).provenPID ?? active.pid))),
            ]).rendered())
            return
        }

        let preset = waybar || i3blocks
        let wantsNext = preset || format?.contains("{next}") == true
        let wantsToday = preset || format?.contains("{today}") == true
        var facts = StatusFacts()
        if let active { facts.session = try session(active, db: db, now: now) }
        if wantsNext, let block = try db.nextBlock(at: now, excluding: active?.blockID) {
            facts.next = StatusRenderer.next(start: block.start, path: block.path, now: now, calendar: env.calendar)
        }
        if wantsToday {
            let today = env.calendar.day(of: now)
            let logged = try db.focusedSeconds(from: env.calendar.startOfDay(today), to: env.calendar.startOfDay(today.adding(days: 1)))
            let running = facts.session.map { $0.phase == .work ? $0.elapsedSeconds : 0 } ?? 0
            facts.todaySeconds = logged + running
        }

        if waybar {
            env.console.line(StatusRenderer.waybar(facts))
        } else if i3blocks {
            env.console.line(StatusRenderer.i3blocks(facts))
        } else if let format {
            if facts.session == nil {
                // Idle: an empty line, unless the template shows the next block or today's focus.
                let line = wantsNext || wantsToday ? StatusRenderer.fill(format, StatusRenderer.values(facts)) : ""
                env.console.line(Sanitized.terminal(line.trimmingSpaces()))
            } else {
                env.console.line(Sanitized.terminal(StatusRenderer.fill(format, StatusRenderer.values(facts))))
            }
        } else if let s = facts.session {
            let pausedText = s.isPaused ? " · paused" : ""
            env.console.line("\(Sanitized.terminal(s.path)) · \(s.phase.label)\(pausedText) · \(DurationParser.clock(s.remainingSeconds)) left")
        } else {
            env.console.line("idle")
        }
    }

    private func session(_ active: ActiveSession, db: AppDatabase, now: Date) throws(FocusError) -> StatusFacts.Session {
        let names = try db.titles(taskID: active.taskID, subtaskID: active.subtaskID)
        let snap = active.snapshot
        return StatusFacts.Session(
            task: names.task, subtask: names.subtask, phase: snap.phase, isPaused: snap.isPaused,
            remainingSeconds: active.remainingSeconds(at: now), plannedSeconds: snap.plannedSeconds,
            cycle: snap.cycle, cycles: snap.cycles)
    }
}
