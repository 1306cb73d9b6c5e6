import FocusCore
import FocusTestSupport
import FocusText
import Foundation
import Testing
import FocusStorage

@Suite struct StatsCommandTests {
    typealias F = CLIFixtures

    static func world() throws -> TestWorld {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z", zone: "Europe/Berlin")
        try F.seed(world, F.smallHistory)
        return world
    }

    @Test func jsonSplitsTheLateSessionAtMidnightAndMatchesTheContract() async throws {
        let r = await (try Self.world()).output("stats", "--last", "3", "--json")
        #expect(r.code == 0)
        #expect(r.err == "")
        #expect(r.out == #"""
            {"from": "2026-11-20", "to": "2026-11-22", "timezone": "Europe/Berlin", \#
            "days": [{"date": "2026-11-20", "focused_seconds": 1500, "completed": 1, "interrupted": 0}, \#
            {"date": "2026-11-21", "focused_seconds": 1440, "completed": 0, "interrupted": 1}, \#
            {"date": "2026-11-22", "focused_seconds": 3960, "completed": 1, "interrupted": 0}], \#
            "tasks": [{"task": "Thesis", "focused_seconds": 3900, "completed": 1, "interrupted": 1, \#
            "subtasks": [{"subtask": "Chapter 2", "focused_seconds": 1500, "completed": 1, "interrupted": 0}]}, \#
            {"task": "Reading", "focused_seconds": 3000, "completed": 1, "interrupted": 0, "subtasks": []}], \#
            "totals": {"focused_seconds": 6900, "completed": 2, "interrupted": 1}, \#
            "summary": {"focused_seconds": 6900, "daily_average_seconds": 2300, "days_with_focus": 3, \#
            "best_day": {"date": "2026-11-22", "focused_seconds": 3960}, "streak_days": 3, "streak_end": "2026-11-22", \#
            "completion_percent": 67, "previous_from": "2026-11-17", "previous_to": "2026-11-19", \#
            "previous_focused_seconds": 0, "change_percent": null}, \#
            "estimates": {"subtasks": [], "median_ratio": null, "ratio_sample": 0, "sentence": null}, \#
            "insights": {"by_hour": [{"hour": 9, "sessions": 2, "completed": 2, "interrupted": 0, "completion_percent": 100}, \#
            {"hour": 23, "sessions": 1, "completed": 0, "interrupted": 1, "completion_percent": 0}], \#
            "by_planned_length": [{"bucket": "16_25m", "min_seconds": 901, "max_seconds": 1500, "sessions": 1, \#
            "completed": 1, "interrupted": 0, "completion_percent": 100}, \#
            {"bucket": "46_60m", "min_seconds": 2701, "max_seconds": 3600, "sessions": 2, \#
            "completed": 1, "interrupted": 1, "completion_percent": 50}], "best_hour": 9, "worst_hour": 23, \#
            "suggested_span_seconds": 1500}, "task_filter": null, "tags": [], "tag_filter": null}

            """#)
    }

    @Test func theDefaultWindowIsTheLastSevenDaysWithEmptyDaysAsZeros() async throws {
        let r = await (try Self.world()).output("stats", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["from"] as? String == "2026-11-16")
        #expect(json["to"] as? String == "2026-11-22")
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == (16...22).map { "2026-11-\($0)" })
        #expect(days.map { $0["focused_seconds"] as? Int } == [0, 0, 0, 0, 1500, 1440, 3960])
    }

    @Test func fromToIsWholeLocalDaysWithToIncluded() async throws {
        let r = await (try Self.world()).output("stats", "--from", "2026-11-21", "--to", "2026-11-21", "--json")
        #expect(r.code == 0)
        #expect(r.out.hasPrefix(#"{"from": "2026-11-21", "to": "2026-11-21", "timezone": "Europe/Berlin", "days": [{"date": "2026-11-21", "focused_seconds": 1440, "completed": 0, "interrupted": 1}], "tasks": [{"task": "Thesis", "focused_seconds": 1440,"#))
    }

    @Test func anotherZoneCutsDaysElsewhere() async throws {
        // In UTC the late session (22:30–23:20Z) does not cross midnight.
        let r = await (try Self.world()).output("stats", "--last", "2", "--tz", "UTC", "--csv")
        #expect(r.code == 0)
        #expect(r.out == """
            date,weekday,focused_seconds,completed,interrupted
            2026-11-21,Sat,2400,0,1
            2026-11-22,Sun,3000,1,0

            """)
    }

    @Test func csvHasAHeaderAndOneRowPerDay() async throws {
        let r = await (try Self.world()).output("stats", "--last", "3", "--csv")
        #expect(r.code == 0)
        #expect(r.out == """
            date,weekday,focused_seconds,completed,interrupted
            2026-11-20,Fri,1500,1,0
            2026-11-21,Sat,1440,0,1
            2026-11-22,Sun,3960,1,0

            """)
    }

    @Test(arguments: [
        ("Thesis", "Thesis", 3900, 1, 1, ["Thesis"]),
        ("thes", "Thesis", 3900, 1, 1, ["Thesis"]),
        ("Thesis/Chapter 2", "Thesis/Chapter 2", 1500, 1, 0, ["Thesis"]),
        ("thesis/ch", "Thesis/Chapter 2", 1500, 1, 0, ["Thesis"]),
        ("Reading", "Reading", 3000, 1, 0, ["Reading"]),
    ])
    func taskKeepsOnlyThatTaskOrSubtask(path: String, shown: String, seconds: Int, completed: Int, interrupted: Int, tasks: [String]) async throws {
        let r = await (try Self.world()).output("stats", "--last", "7", "--task", path, "--json")
        #expect(r.code == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["task_filter"] as? String == shown)
        let totals = try #require(json["totals"] as? [String: Int])
        #expect(totals == ["focused_seconds": seconds, "completed": completed, "interrupted": interrupted])
        #expect((json["tasks"] as? [[String: Any]])?.map { $0["task"] as? String } == tasks)
    }

    @Test func taskBySubtaskIDAndTheTerminalViewNamesTheFilter() async throws {
        let world = try Self.world()
        let target = try world.database.catalog().resolve("Thesis/Chapter 2")
        let id = try #require(target.subtaskID)
        let r = await world.output("stats", "--task", "#\(id)")
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("Focus · 2026-11-16 → 2026-11-22 · Europe/Berlin · Thesis/Chapter 2\n\n"))
        #expect(r.out.contains("Chapter 2"))
        #expect(!r.out.contains("Reading"))
    }

    @Test func theTerminalViewMarksTodayAndFitsTheWidth() async throws {
        let r = await (try Self.world()).output("stats", "--last", "7")
        #expect(r.code == 0)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Focus · 2026-11-16 → 2026-11-22 · Europe/Berlin")
        #expect(lines.contains { $0.hasPrefix("Sun 22 Nov") && $0.hasSuffix("◂ today") })
        #expect(lines.allSatisfy { TerminalText.width(String($0)) <= 80 })
        #expect(!r.out.contains("\u{1B}["))
    }

    @Test func anEmptyHistorySaysSo() async throws {
        let world = try TestWorld()
        let r = await world.output("stats")
        #expect(r.code == 0)
        #expect(r.out.contains("No focus sessions between 2026-11-16 and 2026-11-22."))
    }

    @Test(arguments: [
        (["stats", "--last", "0"], "focus: error: invalid --last '0': expected a number of days from 1 to 36600.\n"),
        (["stats", "--last", "36601"], "focus: error: invalid --last '36601': expected a number of days from 1 to 36600.\n"),
        (["stats", "--from", "2026-11-01"], "focus: error: --from needs --to: give both, e.g. --from 2026-11-01 --to 2026-11-30 (whole local days, --to included).\n"),
        (["stats", "--to", "2026-11-01"], "focus: error: --to needs --from: give both, e.g. --from 2026-11-01 --to 2026-11-30 (whole local days, --to included).\n"),
        (["stats", "--from", "2026-11-10", "--to", "2026-11-01"], "focus: error: invalid --to date '2026-11-01': expected a day on or after --from (2026-11-10).\n"),
        (["stats", "--from", "someday", "--to", "2026-11-01"], "focus: error: invalid --from date 'someday': expected a date like 2026-11-22, today, tomorrow, yesterday, fri, next fri, last fri, in 3 days, in 2 weeks, 3 days ago, end of week or end of month.\n"),
        (["stats", "--json", "--csv"], "focus: error: use either --json or --csv, not both.\n"),
        (["stats", "--last", "7", "--from", "2026-11-01", "--to", "2026-11-02"], "focus: error: use either --last or --from/--to, not both.\n"),
        (["stats", "--task", "Nope"], "focus: error: no task matches 'Nope'. Run `focus task list` to see all.\n"),
        (["stats", "--tz", "Mars/Olympus"], "focus: error: invalid time zone 'Mars/Olympus': expected an IANA zone name like Europe/Berlin or America/New_York.\n"),
    ])
    func badFlagsGetOneLineAndExit64(args: [String], message: String) async throws {
        let world = try Self.world()
        let r = await world.output(args)
        #expect(r.code == 64)
        #expect(r.err == message)
        #expect(r.out == "")
    }

    @Test(arguments: [["stats", "--last", "x"], ["stats", "--last"], ["stats", "--bogus"], ["report", "--last", "7"]])
    func unparsableCommandLinesExit64(args: [String]) async throws {
        let r = await (try Self.world()).output(args)
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: "))
        #expect(r.err.contains("See `focus \(args[0]) --help`"))
        #expect(r.err.split(separator: "\n").count == 1)
    }

    @Test func estimatesComeFromTheSubtasksOfTheTasksShown() async throws {
        let world = try Self.world()
        await world.run("task", "edit", "Thesis/Chapter 2", "--estimate", "1h")
        await world.run("task", "add", "Other/Part", "--estimate", "2h")
        let r = await world.output("stats", "--json")
        #expect(r.out.contains(#""estimates": {"subtasks": [{"task": "Thesis", "subtask": "Chapter 2", "estimate_seconds": 3600, "logged_seconds": 1500, "progress_percent": 42, "done": false, "actual_ratio": null}], "median_ratio": null"#))
    }
}

extension TestWorld {
    func output(_ arguments: [String]) async -> (code: Int32, out: String, err: String) {
        let outBefore = console.stdout.count
        let errBefore = console.stderr.count
        let code = await run(arguments)
        return (code, String(console.stdout.dropFirst(outBefore)), String(console.stderr.dropFirst(errBefore)))
    }
}
