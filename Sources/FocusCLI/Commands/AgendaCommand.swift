import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// `focus agenda [DATE] [--json]`.
package struct AgendaCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "agenda", abstract: "One day: events, work blocks, sessions, free time left, what is due.")

    @Argument(help: ArgumentHelp("The day (default today).", valueName: "date"))
    var date: String?
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let now = env.now()
        let day = try date.map { d throws(FocusError) in try DateParser.date(d, today: env.today) } ?? env.calendar.day(of: now)
        let agenda = try Self.load(day: day, now: now, env: env)
        if json {
            var pairs = PlanRenderer.json(blocks: agenda.blocks, atRisk: agenda.atRisk, overdue: agenda.overdue)
            pairs += [
                ("events", .array(agenda.events.map(CalendarBusyCommand.json))),
                ("sessions", .array(agenda.sessions.map(LogCommand.json))),
                ("date", .string(day.description)),
                ("free_seconds", .int(agenda.freeSeconds)),
                ("due", .array(agenda.due.map { d in
                    .object([("task", .string(d.task)), ("subtask", .string(d.subtask)), ("due", .string(Timestamp.utc(d.due))),
                             ("estimate_seconds", .optional(d.estimateSeconds)), ("logged_seconds", .int(d.loggedSeconds)),
                             ("done", .bool(d.done))])
                })),
            ]
            env.console.line(JSON.object(pairs).rendered())
        } else {
            env.console.out(AgendaRenderer.text(agenda, now: now, calendar: env.calendar))
        }
    }

    static func load(day: LocalDate, now: Date, env: FocusEnvironment) throws(FocusError) -> AgendaDay {
        let cal = env.calendar
        let start = cal.startOfDay(day)
        let end = cal.startOfDay(day.adding(days: 1))
        let db = try env.openDatabase()
        let events = try db.busyEvents(from: start, to: end, zone: cal, expand: Planning.expand)
        let sessions = try db.sessions(overlapping: start, end).filter { $0.log.startedAt >= start }
        var blocks = try db.blocks(overlapping: start, end)
        // Blocks whose time has passed show the status the next re-plan will give them.
        for index in blocks.indices where blocks[index].status == .planned && blocks[index].end <= now {
            let b = blocks[index]
            let block = ScheduledBlock(id: b.id, subtaskID: b.subtaskID, startedAt: b.start, endedAt: b.end)
            let linked = sessions.filter { $0.log.blockID != nil && $0.log.blockID == b.id }.map(\.log)
            let others = sessions.filter { $0.log.blockID == nil && $0.log.subtaskID == b.subtaskID }.map(\.log)
            blocks[index].status = Replanner.status(of: block, linked: linked, others: others)
        }
        var busy = events.map { DateInterval(start: $0.start, end: max($0.start, $0.end)) }
        busy += blocks.filter { $0.status == .planned }.map { DateInterval(start: $0.start, end: $0.end) }
        let workStart = cal.instant(day, env.config.dayStart)
        let workEnd = env.config.dayEnd.minutes >= 1440 ? end : cal.instant(day, env.config.dayEnd)
        let free = freeSeconds(in: DateInterval(start: max(workStart, now), end: max(workStart, now, workEnd)), busy: busy)
        return AgendaDay(day: day, events: events, blocks: blocks, sessions: sessions, freeSeconds: free,
                         due: try db.subtasksDue(after: start, through: end), atRisk: try db.savedRisks(),
                         overdue: try db.overdueWork(now: now))
    }

    /// Seconds of `window` not covered by any busy interval.
    static func freeSeconds(in window: DateInterval, busy: [DateInterval]) -> Int {
        guard window.duration > 0 else { return 0 }
        let clipped = busy.compactMap { b -> (Double, Double)? in
            let s = max(b.start, window.start).timeIntervalSince1970
            let e = min(b.end, window.end).timeIntervalSince1970
            return e > s ? (s, e) : nil
        }.sorted { $0.0 < $1.0 }
        var covered = 0.0
        var reach = window.start.timeIntervalSince1970
        for (s, e) in clipped where e > reach {
            covered += e - max(s, reach)
            reach = e
        }
        return Int((window.duration - covered).rounded())
    }
}
