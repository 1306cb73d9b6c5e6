import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// Dates as people say them, wherever a command takes a date (README, "Commands"): the world's
/// now is Sunday 2026-11-22 10:00 in Berlin.
@Suite struct SpokenDatesTests {
    @Test func aDueDateSaidAsAWeekdayAndATimeIsThatLocalMoment() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("task", "add", "Thesis/Chapter 2", "--estimate", "1h", "--due", "fri 17:00", "--start", "tomorrow")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("due Fri 27 Nov 17:00"), "\(r.out)")
        let list = await world.output("task", "list", "--json").out
        #expect(list.contains("\"due\": \"2026-11-27T16:00:00Z\"") && list.contains("\"start_date\": \"2026-11-23\""), "\(list)")
        // A day alone is due by the end of that local day.
        #expect(await world.run("task", "edit", "Thesis/Chapter 2", "--due", "end of month") == 0)
        #expect(await world.output("task", "list", "--json").out.contains("\"due\": \"2026-11-30T23:00:00Z\""))
    }

    @Test func aSessionLoggedYesterdayMorningStartsThen() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        #expect(await world.run("task", "add", "Thesis/Chapter 2") == 0)
        let r = await world.output("log", "add", "Thesis/Chapter 2", "--start", "yesterday 9am", "--end", "yesterday 9:25am")
        #expect(r.code == 0, "\(r.err)")
        let log = await world.output("log", "--json").out
        #expect(log.contains("2026-11-21T08:00:00Z") && log.contains("2026-11-21T08:25:00Z"), "\(log)")
        let stats = await world.output("stats", "--from", "last sat", "--to", "yesterday", "--json")
        #expect(stats.code == 0 && stats.out.contains("1500"), "\(stats.out)")
    }

    @Test func aDayOffSaidAsAWeekdayIsStoredAsItsDate() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("config", "set", "off", "next mon, in 2 weeks")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == "off = 2026-11-23,2026-12-06\n")
    }

    @Test func anUnknownFormIsRefusedOnOneLineNamingTheFormsThatWork() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("task", "add", "Thesis/Chapter 2", "--due", "next week")
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: invalid due date 'next week': expected ") && r.err.contains("fri 17:00"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(!(await world.output("task", "list", "--json").out.contains("Thesis")), "nothing half-written")
        let agenda = await world.output("agenda", "someday")
        #expect(agenda.code == 64 && agenda.err.contains("in 3 days"), "\(agenda.err)")
    }
}
