import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus agenda [DATE] [--week | --days N] [--json]`.
package struct AgendaCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "agenda", abstract: "A day (or a week): events, work blocks, sessions, free time left, what is due.",
        discussion: """
            The seven days from DATE (default today), with overdue and at-risk work listed once at the end:
            `focus agenda --week`
            --days N shows N days. Free time counts each day's working hours (hours.mon … hours.sun, \
            and days off), as the config shows them:
            `focus config`
            """)

    @Argument(help: ArgumentHelp("The day (default today; 2026-11-23, fri, 'in 3 days').", valueName: "date"))
    var date: String?
    @Flag(help: "Seven days from the day: the week ahead.")
    var week = false
    @Option(help: ArgumentHelp("This many days from the day (1 to \(AgendaCommand.maximumDays)).", valueName: "n"))
    var days: Int?
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    /// The most days one agenda shows.
    static let maximumDays = 62

    package func validate() throws {
        if week && days != nil { throw FocusError.usage("use either --week or --days, not both.") }
        if let days, !(1...AgendaCommand.maximumDays).contains(days) {
            throw FocusError.invalidValue(what: "--days", value: String(days), expected: "a number of days from 1 to \(AgendaCommand.maximumDays)")
        }
    }

    package func run(in env: FocusEnvironment) async throws {
        let now = env.now()
        let day = try date.map { d throws(FocusError) in try DateParser.date(d, today: env.today) } ?? env.calendar.day(of: now)
        let db = try env.openDatabase()
        // Blocks that passed unworked are settled and their work placed again before the
        // agenda shows the day, as after a write (they were shown as missed until one).
        if try db.planIsStaleByTime(now: now) || db.instancesAreDue(now: now, calendar: env.calendar) {
            Planning.replanQuietly(env.services, db)
        }
        let rules = Planning.rules(env.services)
        let first = day
        let count = week ? 7 : (days ?? 1)
        let agendas = try (0..<count).map { offset throws(FocusError) in
            try Self.load(day: first.adding(days: offset), now: now, env: env, db: db, rules: rules)
        }
        let atRisk = try db.savedRisks()
        let overdue = try db.overdueWork(now: now)
        // A live calendar whose copy is too old: the day's free time may not be true.
        let stale = try db.calendars().filter { $0.connected || CalendarFeed.isFeed(source: $0.source) }.compactMap { c in
            CalendarStaleness.note(name: c.name, state: FeedState.decode(c.feedState), importedAt: c.importedAt,
                                   refreshSeconds: env.config.calendarRefreshSeconds, now: now).map { (c, $0) }
        }
        if json {
            env.console.line(AgendaRenderer.json(agendas, from: first, range: week || days != nil, atRisk: atRisk, overdue: overdue,
                                                 stale: stale.map(\.0)))
            return
        }
        env.console.show(AgendaRenderer.text(agendas, staleNotes: stale.map(\.1), overdue: overdue, atRisk: atRisk, now: now, calendar: env.calendar))
    }

    static func load(day: LocalDate, now: Date, env: FocusEnvironment, db: AppDatabase, rules: SchedulingRules) throws(FocusError) -> AgendaDay {
        let cal = env.calendar
        let start = cal.startOfDay(day)
        let end = cal.startOfDay(day.adding(days: 1))
        let events = try db.busyEvents(from: start, to: end, zone: cal, expand: Planning.expansion(env.services, db))
        // Every session covering part of the day, as for events: one across midnight is on both days.
        let sessions = try db.sessions(overlapping: start, end)
        var blocks = try db.blocks(overlapping: start, end)
        // Blocks whose time has passed show the status the next re-plan will give them.
        for index in blocks.indices where blocks[index].status == .planned && blocks[index].end <= now {
            let b = blocks[index]
            let block = ScheduledBlock(id: b.id, subtaskID: b.subtaskID, startedAt: b.start, endedAt: b.end)
            let linked = sessions.filter { $0.log.blockID != nil && $0.log.blockID == b.id }.map(\.log)
            let others = sessions.filter { $0.log.blockID == nil && $0.log.subtaskID == b.subtaskID }.map(\.log)
            blocks[index].status = Replanner.status(of: block, linked: linked, others: others)
        }
        let window = rules.hours.hours(on: day)
        let free = DayFreeTime.seconds(
            day: day, now: now, rules: rules,
            events: events.map { DayFreeTime.Event(interval: DateInterval(start: $0.start, end: max($0.start, $0.end)), allDay: $0.allDay) },
            planned: blocks.filter { $0.status == .planned }.map { DateInterval(start: $0.start, end: $0.end) })
        return AgendaDay(day: day, events: events, declined: try db.declinedEvents(from: start, to: end), blocks: blocks, sessions: sessions,
                         freeSeconds: free, hours: window, due: try db.subtasksDue(after: start, through: end))
    }
}
