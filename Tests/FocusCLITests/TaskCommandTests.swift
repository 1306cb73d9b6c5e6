import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

@Suite struct TaskCommandTests {
    @Test func addingASubtaskCreatesItsTaskAndShowsTheConstraints() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("task", "add", "Thesis/Chapter 2", "--estimate", "6h", "--due", "2026-11-27 17:00", "--span", "50m", "--earliest", "09:00")
        #expect(r.code == 0)
        #expect(r.out == "Created task Thesis.\nAdded Thesis/Chapter 2 (#2) · estimate 6h · due Fri 27 Nov 17:00 (in 5 days) · span 50m · not before 09:00.\n")
        let list = await world.output("task", "list", "--json")
        #expect(list.out == """
            [{"id": 1, "title": "Thesis", "notes": null, "subtasks": [{"id": 2, "title": "Chapter 2", "estimate_seconds": 21600, \
            "logged_seconds": 0, "start_date": null, "due": "2026-11-27T16:00:00Z", "span_seconds": 3000, "earliest_time": "09:00", \
            "priority": "normal", "max_per_day_seconds": null, "done": false, "progress_percent": 0, "at_risk": false, "overdue": false}], "archived": false, "logged_seconds": 0}]

            """)
    }

    @Test func listShowsProgressAndHowFarTheDueDateIs() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        await world.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-25")
        await world.run("task", "add", "Thesis/Old part", "--estimate", "1h", "--due", "2026-11-20", "--force")
        await world.run("task", "add", "Groceries")
        let ids = try world.database.catalog()
        let sub = try ids.resolve("Thesis/Chapter 2")
        _ = try world.database.recordSession(TimeLog(taskID: sub.taskID, subtaskID: sub.subtaskID, startedAt: world.now - 3600, endedAt: world.now - 1800,
                                                     plannedSeconds: 1800, focusedSeconds: 1800, status: .completed), now: world.now)
        let r = await world.output("task", "list")
        #expect(r.code == 0)
        // Soonest due first (an overdue subtask is the soonest), work without a due date after.
        #expect(r.out == """
            Thesis #1  30m logged
              #3  Old part                      0m / 1h         0%    due Fri 20 Nov (end of day) (overdue by 2 days) overdue
              #2  Chapter 2                     30m / 2h        25%   due Wed 25 Nov (end of day) (in 3 days)
            Groceries #4  0m logged

            """)
    }

    @Test func anUnknownPathSuggestsAndExits64() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let r = await world.output("task", "show", "thesi x")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: no task matches 'thesi x'. Did you mean 'Thesis'? Run `focus task list` to see all.\n")
    }

    @Test func anAmbiguousPrefixListsCandidates() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        await world.run("task", "add", "Theatre")
        let r = await world.output("task", "show", "the")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: 'the' matches 2 tasks: 'Theatre', 'Thesis'. Type more of the name, or use #ID.\n")
    }

    @Test func aDuplicateTitleIsRefused() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let r = await world.output("task", "add", "thesis")
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: 'thesis' already exists."))
    }

    @Test(arguments: [
        (["task", "add", "Thesis/Ch", "--estimate", "6x"], "invalid estimate '6x'"),
        (["task", "add", "Thesis/Ch", "--due", "someday"], "invalid due date 'someday'"),
        (["task", "add", "Thesis/Ch", "--earliest", "25:00"], "invalid earliest time '25:00'"),
        (["task", "add", "Thesis", "--estimate", "2h"], "belong to subtasks"),
        (["task", "add", "Thesis/Ch", "--start", "2026-12-01", "--due", "2026-11-30"], "invalid start date"),
        (["task", "frobnicate"], "See `focus task --help`."),
        (["task", "add"], "missing <path>"),
        (["task", "add", "/Ch"], "invalid task name ''"),
    ])
    func badValuesGetOneLineAndExit64(args: [String], fragment: String) async throws {
        let world = try TestWorld()
        let code = await world.run(args)
        #expect(code == 64)
        let err = world.console.stderr
        #expect(err.hasPrefix("focus: error: "))
        #expect(err.contains(fragment), "stderr: \(err)")
        #expect(err.filter { $0 == "\n" }.count == 1)
        #expect(try world.database.overview(all: true).isEmpty, "nothing written")
    }

    @Test func removingATaskWithHistoryNeedsForce() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let id = try world.database.catalog().resolve("Thesis").taskID
        _ = try world.database.recordSession(TimeLog(taskID: id, startedAt: world.now - 100, endedAt: world.now, plannedSeconds: 100,
                                                     focusedSeconds: 100, status: .completed), now: world.now)
        var r = await world.output("task", "rm", "Thesis")
        #expect(r.code == 64)
        #expect(r.err.contains("has 1 logged session. Run `focus task rm Thesis --force` to delete it with its history, or `focus task done Thesis` to keep it."))
        r = await world.output("task", "rm", "Thes", "--force")
        #expect(r.code == 64, "a prefix is not enough to delete")
        r = await world.output("task", "rm", "thesis", "--force")
        #expect(r.code == 0)
        #expect(r.out == "Deleted Thesis and its 1 session.\n")
        #expect(try world.database.overview(all: true).isEmpty)
    }

    @Test func doneHidesASubtaskFromTheListUntilAll() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis/Intro", "--estimate", "1h")
        let r = await world.output("task", "done", "thesis/intro")
        #expect(r.out == "Done: Thesis/Intro · 0m logged of 1h estimated.\n")
        #expect(await world.output("task", "list").out == "Thesis #1  0m logged\n")
        #expect(await world.output("task", "list", "--all").out.contains("✓ Intro"))
        _ = await world.output("task", "done", "thesis/intro", "--undo")
        #expect(await world.output("task", "list").out.contains("#2  Intro"))
    }

    /// `task done Thesis` archived 29 h of open, planned work without a word: with open subtasks
    /// that have blocks ahead it names them and needs --force, as `task rm` does for history.
    @Test func archivingATaskWithPlannedOpenWorkNeedsForce() async throws {
        let world = try TestWorld(now: "2026-11-23T07:00:00Z")
        await world.run("task", "add", "Thesis/Chapter 4", "--estimate", "3h", "--due", "2026-11-27")
        await world.run("task", "add", "Thesis/Notes", "--estimate", "1h", "--due", "2026-11-27")
        await world.run("task", "done", "Thesis/Notes")
        let refused = await world.output("task", "done", "Thesis")
        #expect(refused.code == 64)
        #expect(refused.out.isEmpty)
        #expect(refused.err.hasPrefix("focus: error: archiving 'Thesis' would close 1 open subtask with planned work: Chapter 4 (3h in "), "\(refused.err)")
        #expect(refused.err.contains("Run `focus task done Thesis --force` to archive it anyway"), "\(refused.err)")
        #expect(try world.database.overview(all: false).map(\.task.title) == ["Thesis"])

        let forced = await world.output("task", "done", "Thesis", "--force")
        #expect(forced.code == 0, "\(forced.err)")
        #expect(forced.out.hasPrefix("Archived task Thesis"))
        #expect(try world.database.overview(all: false).isEmpty)

        // With nothing planned ahead there is nothing to ask.
        await world.run("task", "add", "Groceries/Milk")
        let plain = await world.output("task", "done", "Groceries")
        #expect(plain.code == 0, "\(plain.err)")
    }

    @Test func editChangesAndClearsFields() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2026-11-30")
        var r = await world.output("task", "edit", "Thesis/Intro", "--estimate", "90m", "--due", "none", "--title", "Introduction")
        #expect(r.code == 0)
        #expect(r.out == "Updated Thesis/Introduction · estimate 1h 30m.\n")
        r = await world.output("task", "show", "#2", "--json")
        #expect(r.out.contains("\"estimate_seconds\": 5400"))
        #expect(r.out.contains("\"due\": null"))
        #expect(r.out.contains("\"task\": \"Thesis\""))
    }

    @Test func aSpringForwardDueTimeSaysHowItWasRead() async throws {
        let world = try TestWorld(now: "2026-03-01T12:00:00Z", zone: "America/New_York")
        let r = await world.output("task", "add", "Taxes/Forms", "--due", "2026-03-08 02:30")
        #expect(r.code == 0)
        #expect(r.err == "focus: 2026-03-08 02:30 does not exist in America/New_York (clocks jump forward); using 2026-03-08T03:30:00-04:00.\n")
    }

    @Test func configSetValidatesAndWritesTheFile() async throws {
        let world = try TestWorld()
        var r = await world.output("config", "set", "work", "50")
        #expect(r.code == 0)
        #expect(r.out == "work = 50m\n")
        let text = try String(contentsOfFile: world.configPath, encoding: .utf8)
        #expect(text.contains("work = \"50m\""))
        r = await world.output("config", "set", "work", "soon")
        #expect(r.code == 64)
        r = await world.output("config", "get", "nope")
        #expect(r.code == 64)
        #expect(r.err.contains("unknown config key 'nope'"))
    }

    /// Issue #39: the command a message suggests for a name that starts with `-` runs as printed.
    @Test func theSuggestedCommandForANameStartingWithADashRunsAsPrinted() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        #expect(await world.run("task", "add", "--", "--force") == 0)
        #expect(await world.run("log", "add", "--start", "2026-11-24 09:00", "--duration", "25m", "--", "--force") == 0, "\(world.console.stderr)")
        let refused = await world.output("task", "rm", "--", "--force")
        #expect(refused.err.contains("Run `focus task rm --force -- --force` to delete it"), "\(refused.err)")
        #expect(refused.err.contains("or `focus task done -- --force` to keep it"), "\(refused.err)")
        // As printed, without `focus`.
        #expect(await world.run("task", "rm", "--force", "--", "--force") == 0, "\(world.console.stderr)")
        #expect(await world.output("task", "list", "--all").out.contains("--force") == false)
    }
}
