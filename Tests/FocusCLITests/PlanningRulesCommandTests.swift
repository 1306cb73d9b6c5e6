import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

/// `--priority`, `--max-per-day`, config `buffer` and `max_per_day` (README, "Planning").
@Suite struct PlanningRulesCommandTests {
    @Test func priorityAndDailyCapAreStoredShownAndListed() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("task", "add", "Book/Read", "--estimate", "6h", "--due", "2026-11-27", "--max-per-day", "2h",
                                   "--priority", "high")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("at most 2h a day · high priority"), "\(r.out)")
        let show = await world.output("task", "show", "Book/Read")
        #expect(show.out.contains("max per day   2h\n"), "\(show.out)")
        #expect(show.out.contains("priority      high\n"), "\(show.out)")
        let list = await world.output("task", "list", "--json")
        #expect(list.out.contains(#""priority": "high", "max_per_day_seconds": 7200"#), "\(list.out)")

        #expect(await world.run("task", "edit", "Book/Read", "--priority", "LOW", "--max-per-day", "none") == 0)
        let edited = try world.database.subtask(id: 2)
        #expect(edited?.priority == .low)
        #expect(edited?.maxPerDaySeconds == nil)
    }

    @Test func theDailyCapSpreadsWorkOverTheDays() async throws {
        let world = try TestWorld(now: "2026-11-23T07:00:00Z")
        await world.run("task", "add", "Book/Read", "--estimate", "6h", "--due", "2026-11-27", "--max-per-day", "2h", "--span", "1h")
        let blocks = try world.database.blocks(startingFrom: TestWorld.instant("2026-11-23T00:00:00Z"))
        var perDay: [LocalDate: Int] = [:]
        for block in blocks { perDay[world.calendar.day(of: block.start), default: 0] += Int(block.end.timeIntervalSince(block.start)) }
        #expect(perDay.values.allSatisfy { $0 == 7200 }, "\(perDay)")
        #expect(perDay.count == 3)
    }

    @Test func theConfigDefaultCapAppliesToSubtasksWithoutTheirOwn() async throws {
        let world = try TestWorld(now: "2026-11-23T07:00:00Z")
        #expect(await world.run("config", "set", "max_per_day", "1h") == 0)
        world.config.maxPerDaySeconds = 3600
        #expect(await world.output("config", "get", "max_per_day").out == "1h\n")
        // Three hours by tomorrow night: two days at 1h a day leave it at risk, and the cap is named.
        let refused = await world.output("task", "add", "Essay/Write", "--estimate", "3h", "--due", "2026-11-24")
        #expect(refused.code == 65)
        #expect(refused.err.contains("at 1h a day (its daily cap; raise it with --max-per-day)"), "\(refused.err)")
        #expect(await world.run("task", "add", "Essay/Write", "--estimate", "3h", "--due", "2026-11-24", "--force") == 0)
        let plan = await world.output("plan", "--json")
        #expect(plan.out.contains(#""cap_seconds": 3600"#), "\(plan.out)")
        #expect(await world.output("plan").out.contains("held to 1h a day by its daily cap"))
    }

    /// #41: work saved at risk with --force can be edited without it when the edit makes
    /// nothing worse (loosening its cap); an edit that makes it worse is still refused.
    @Test func anEditThatMakesNothingWorseIsSavedWithoutForce() async throws {
        let world = try TestWorld(now: "2026-11-23T07:00:00Z")
        #expect(await world.run("task", "add", "Essay/Write", "--estimate", "3h", "--due", "2026-11-24", "--max-per-day", "1h", "--force") == 0)
        let loosened = await world.output("task", "edit", "Essay/Write", "--max-per-day", "80m")
        #expect(loosened.code == 0, "\(loosened.err)")
        #expect(loosened.err.contains("warning: saved although it does not fit"), "\(loosened.err)")
        #expect(try world.database.subtask(id: 2)?.maxPerDaySeconds == 4800)
        let worse = await world.output("task", "edit", "Essay/Write", "--estimate", "4h")
        #expect(worse.code == 65, "\(worse.err)")
        #expect(try world.database.subtask(id: 2)?.estimateSeconds == 3 * 3600)
    }

    @Test func theBufferKeepsFreeTimeAroundCalendarEvents() async throws {
        let world = try TestWorld(now: "2026-11-23T07:00:00Z")
        let ics = try temporaryFile("meeting.ics", oneEventCalendar("Meeting", "20261123T090000Z", "20261123T100000Z"))
        #expect(await world.run("calendar", "import", ics) == 0)
        #expect(await world.run("config", "set", "buffer", "15m") == 0)
        world.config.bufferSeconds = 900
        #expect(await world.output("config", "get", "buffer").out == "15m\n")
        await world.run("task", "add", "Essay/Write", "--estimate", "3h", "--due", "2026-11-23 22:00")
        let blocks = try world.database.blocks(startingFrom: TestWorld.instant("2026-11-23T00:00:00Z"))
        #expect(!blocks.isEmpty)
        let start = TestWorld.instant("2026-11-23T08:45:00Z"), end = TestWorld.instant("2026-11-23T10:15:00Z")
        #expect(blocks.allSatisfy { $0.end <= start || $0.start >= end }, "\(blocks)")
        #expect(blocks.contains { $0.start == end })
    }

    @Test(arguments: [
        (["task", "add", "A/B", "--priority", "urgent"], "invalid priority 'urgent'"),
        (["task", "add", "A/B", "--max-per-day", "0m"], "invalid max per day '0m'"),
        (["task", "add", "A/B", "--max-per-day", "25h"], "invalid max per day '25h'"),
        (["config", "set", "buffer", "5h"], "invalid buffer '5h'"),
        (["config", "set", "max_per_day", "soon"], "invalid max_per_day 'soon'"),
    ])
    func badValuesGetOneLineAndExit64(args: [String], fragment: String) async throws {
        let world = try TestWorld()
        let r = await world.output(args)
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: ") && r.err.contains(fragment) && r.err.split(separator: "\n").count == 1, "\(r.err)")
    }
}
