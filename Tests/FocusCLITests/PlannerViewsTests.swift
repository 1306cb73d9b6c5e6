import FocusCLI
import FocusCore
import FocusRendering
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

/// Views a planner needs: a subtask's or task's blocks and sessions in `task show`, `task list`
/// in due order with filters, clearing a subtask's log in one step, and due times in words.
/// Sunday 29 November 2026, 20:00 in Berlin (working hours 08:00–22:00).
@Suite struct PlannerViewsTests {
    static let sundayEvening = "2026-11-29T19:00:00Z"

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    /// Adds a past block (as the plan leaves them once their time is gone) straight into the store.
    func pastBlock(_ world: TestWorld, subtask: Int64, start: String, minutes: Int, status: String) async throws {
        let s = Int64(TestWorld.instant(start).timeIntervalSince1970)
        try world.database.writer.write { db in
            try db.execute(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt, status) VALUES (?, ?, ?, ?)",
                           arguments: [subtask, s, s + Int64(minutes * 60), status])
        }
    }

    // MARK: task show

    @Test func taskShowListsASubtasksBlocksAheadThenEarlierOnesAndItsSessionsNewestFirst() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Chapter 2", "--estimate", "1h", "--due", "2026-12-01")
        await world.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-27 09:00", "--duration", "25m")
        await world.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-28 10:00", "--duration", "20m", "--interrupted", "--note", "phone")
        try await pastBlock(world, subtask: 2, start: "2026-11-27T08:00:00Z", minutes: 25, status: "done")
        try await pastBlock(world, subtask: 2, start: "2026-11-28T09:00:00Z", minutes: 25, status: "partial")
        let r = await world.output("task", "show", "Thesis/Chapter 2")
        #expect(r.code == 0)
        let blocks = try world.database.blocks(of: .subtask(taskID: 1, id: 2))
        let ahead = blocks.filter { $0.status == .planned }
        #expect(ahead.count == 1)  // 1h less the 45m logged: one 15-minute block, tonight
        let id = try #require(ahead.first?.id)
        let pastIDs = blocks.filter { $0.status != .planned }.map { $0.id ?? 0 }
        #expect(r.out.contains("""
              upcoming blocks:
                Sun 29 Nov 20:00–20:15  planned  block \(id)
              earlier blocks:
                Sat 28 Nov 10:00–10:25  partial  block \(pastIDs[1])
                Fri 27 Nov 09:00–09:25  done  block \(pastIDs[0])
              sessions, newest first (2, 45m):
                ✗ Sat 28 Nov 10:00–10:20  20m      #2  phone
                ✓ Fri 27 Nov 09:00–09:25  25m      #1

            """))
    }

    @Test func taskShowCountsTheSessionsItDoesNotList() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Chapter 2")
        for day in 1...25 {
            let date = String(format: "2026-10-%02d 09:00", day)
            #expect(await world.run("log", "add", "Thesis/Chapter 2", "--start", date, "--duration", "25m") == 0)
        }
        let out = await world.output("task", "show", "Thesis/Chapter 2").out
        #expect(out.contains("sessions, newest first (25, 10h 25m):\n    ✓ Sun 25 Oct 09:00–09:25"))
        #expect(out.components(separatedBy: "\n    ✓ ").count - 1 == 20)
        #expect(out.hasSuffix("    ✓ Tue 6 Oct  09:00–09:25  25m      #6\n    and 5 more (`focus log` lists sessions by day)\n"))
        // JSON has every one of them, newest first.
        let obj = try #require(try json(await world.output("task", "show", "Thesis/Chapter 2", "--json").out) as? [String: Any])
        let sessions = try #require(obj["sessions"] as? [[String: Any]])
        #expect(sessions.count == 25)
        #expect(sessions.first?["start"] as? String == "2026-10-25T08:00:00Z")
        #expect(sessions.last?["id"] as? Int == 1)
    }

    @Test func taskShowOfATaskListsItsSubtasksBlocksAndAllItsSessions() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-12-01")
        await world.run("task", "add", "Thesis/Methods", "--estimate", "50m", "--due", "2026-12-01")
        await world.run("task", "add", "Other/Work", "--estimate", "25m", "--due", "2026-12-01")
        await world.run("log", "add", "Thesis", "--start", "2026-11-26 09:00", "--duration", "30m")
        await world.run("log", "add", "Thesis/Methods", "--start", "2026-11-27 09:00", "--duration", "25m")
        await world.run("log", "add", "Other/Work", "--start", "2026-11-28 09:00", "--duration", "10m")
        let r = await world.output("task", "show", "Thesis")
        #expect(r.code == 0)
        let ids = try world.database.blocks(of: .task(id: 1)).map { $0.id ?? 0 }
        #expect(ids.count == 2)
        // Work due alike goes by its name (#40): Other/Work's 15 minutes first, at 20:00.
        #expect(r.out.contains("""
              upcoming blocks:
                Sun 29 Nov 20:20–20:45  Intro    planned  block \(ids[0])
                Sun 29 Nov 20:50–21:15  Methods  planned  block \(ids[1])
              sessions, newest first (2, 55m):
                ✓ Fri 27 Nov 09:00–09:25  25m     Methods  #2
                ✓ Thu 26 Nov 09:00–09:30  30m     –        #1

            """))
        #expect(!r.out.contains("Work"))
    }

    @Test func taskShowJSONGainsBlocksAndSessionsInTheShapesOfPlanAndLog() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-12-01")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-28 09:00", "--duration", "25m", "--note", "draft")
        for path in ["Thesis/Intro", "Thesis"] {
            let r = await world.output("task", "show", path, "--json")
            #expect(r.code == 0)
            let obj = try #require(try json(r.out) as? [String: Any])
            let blocks = try #require(obj["blocks"] as? [[String: Any]])
            #expect(blocks.count == 1)
            #expect(Set(blocks[0].keys) == ["id", "task", "subtask", "start", "end", "status"])
            #expect(blocks[0]["start"] as? String == "2026-11-29T19:00:00Z")
            #expect(blocks[0]["end"] as? String == "2026-11-29T19:25:00Z")
            #expect(blocks[0]["status"] as? String == "planned")
            #expect(blocks[0]["subtask"] as? String == "Intro")
            let sessions = try #require(obj["sessions"] as? [[String: Any]])
            #expect(sessions.count == 1)
            #expect(Set(sessions[0].keys) == ["id", "task", "subtask", "start", "end", "focused_seconds", "planned_seconds", "status", "block_id", "note", "tags"])
            #expect(sessions[0]["focused_seconds"] as? Int == 1500)
            #expect(sessions[0]["note"] as? String == "draft")
            // The keys it had keep their meaning.
            #expect(obj["title"] as? String == (path == "Thesis" ? "Thesis" : "Intro"))
            #expect(obj["logged_seconds"] as? Int == 1500)
        }
    }

    @Test func taskShowOfWorkWithNothingPlannedOrLoggedListsNeither() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Groceries")
        let r = await world.output("task", "show", "Groceries")
        #expect(r.out == "Groceries #1\n  0m logged in 0 sessions\n  No subtasks.\n")
        let obj = try #require(try json(await world.output("task", "show", "Groceries", "--json").out) as? [String: Any])
        #expect((obj["blocks"] as? [Any])?.isEmpty == true)
        #expect((obj["sessions"] as? [Any])?.isEmpty == true)
    }

    // MARK: task list

    func listed(_ world: TestWorld, _ args: String...) async -> [String] {
        let r = await world.output(["task", "list"] + args)
        return r.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.split(separator: " #").first ?? "") }
    }

    func listedJSON(_ world: TestWorld, _ args: String...) async throws -> [String] {
        let r = await world.output(["task", "list", "--json"] + args)
        let tasks = try #require(try json(r.out) as? [[String: Any]])
        return tasks.map { t in
            let subs = (t["subtasks"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "" }
            return ([t["title"] as? String ?? ""] + subs).joined(separator: "/")
        }
    }

    /// Three tasks due at different times, one with no due date, one whose only due subtask is done.
    func listWorld() async throws -> TestWorld {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Alpha/Late", "--estimate", "1h", "--due", "2026-12-20")
        await world.run("task", "add", "Beta/Soon", "--estimate", "1h", "--due", "2026-12-02 12:00", "--notes", "Ask the café")
        await world.run("task", "add", "Beta/Later", "--estimate", "2h", "--due", "2026-12-10")
        await world.run("task", "add", "Gamma/Mid", "--estimate", "1h", "--due", "2026-12-05")
        await world.run("task", "add", "Delta/Undated")
        await world.run("task", "add", "Epsilon/Finished", "--estimate", "1h", "--due", "2026-12-01")
        await world.run("task", "add", "Epsilon/Open")
        await world.run("task", "done", "Epsilon/Finished")
        await world.run("log", "add", "Alpha/Late", "--start", "2026-11-28 09:00", "--duration", "45m")
        await world.run("log", "add", "Gamma/Mid", "--start", "2026-11-28 10:00", "--duration", "15m")
        return world
    }

    @Test func taskListSortsByTheNearestOpenDueDateThenTitle() async throws {
        let world = try await listWorld()
        #expect(await listed(world) == ["Beta", "Gamma", "Alpha", "Delta", "Epsilon"])
        // A done subtask's due date does not count, even when it is listed.
        #expect(await listed(world, "--all") == ["Beta", "Gamma", "Alpha", "Delta", "Epsilon"])
        #expect(try await listedJSON(world) == ["Beta/Soon/Later", "Gamma/Mid", "Alpha/Late", "Delta/Undated", "Epsilon/Open"])
        #expect(await listed(world, "--sort", "title") == ["Alpha", "Beta", "Delta", "Epsilon", "Gamma"])
        #expect(await listed(world, "--sort", "DUE") == ["Beta", "Gamma", "Alpha", "Delta", "Epsilon"])
    }

    @Test func taskListByProgressPutsTheLeastDoneFirstAndUnestimatedWorkLast() async throws {
        let world = try await listWorld()
        // Beta 0 of 3h, Gamma 15m of 1h, Alpha 45m of 1h; Delta and Epsilon have no estimated open work.
        #expect(await listed(world, "--sort", "progress") == ["Beta", "Gamma", "Alpha", "Delta", "Epsilon"])
        // Beta: 1h of Soon's 1h and 2h of Later's 2h (each counted up to its estimate): all done.
        await world.run("log", "add", "Beta/Soon", "--start", "2026-11-26 09:00", "--duration", "1h")
        await world.run("log", "add", "Beta/Later", "--start", "2026-11-27 09:00", "--duration", "2h30m")
        #expect(await listed(world, "--sort", "progress") == ["Gamma", "Alpha", "Beta", "Delta", "Epsilon"])
        #expect(try await listedJSON(world, "--sort", "progress").first == "Gamma/Mid")
    }

    @Test func taskListRefusesAnUnknownOrder() async throws {
        let world = try await listWorld()
        let r = await world.output("task", "list", "--sort", "size")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid --sort 'size': expected due, title or progress.\n")
        #expect(r.out.isEmpty)
    }

    @Test func taskListSearchMatchesTitlesAndNotesInAnyCaseAndSpelling() async throws {
        let world = try await listWorld()
        // A task's own title: the whole task.
        #expect(try await listedJSON(world, "--search", "BETA") == ["Beta/Soon/Later"])
        // A subtask's notes, typed with a decomposed accent: only that subtask.
        #expect(try await listedJSON(world, "--search", "CAFE\u{301}") == ["Beta/Soon"])
        #expect(try await listedJSON(world, "--search", "mid") == ["Gamma/Mid"])
        #expect(try await listedJSON(world, "--search", "a") == ["Beta/Soon/Later", "Gamma/Mid", "Alpha/Late", "Delta/Undated"])
        let none = await world.output("task", "list", "--search", "zebra")
        #expect(none.code == 0)
        #expect(none.out == "No open tasks match.\n")
        #expect(try await listedJSON(world, "--search", "zebra") == [])
    }

    @Test func taskListDueBeforeCountsWholeLocalDaysAndOnlyOpenWork() async throws {
        let world = try await listWorld()
        // Beta/Soon is due Wed 2 Dec 12:00; Epsilon/Finished (due 1 Dec) is done.
        #expect(try await listedJSON(world, "--due-before", "2026-12-01") == [])
        #expect(try await listedJSON(world, "--due-before", "2026-12-02") == ["Beta/Soon"])
        #expect(try await listedJSON(world, "--due-before", "2026-12-02", "--all") == ["Beta/Soon"])
        // A due date given as a day (the midnight that ends it) is due before the end of that day.
        #expect(try await listedJSON(world, "--due-before", "2026-12-05") == ["Beta/Soon", "Gamma/Mid"])
        #expect(try await listedJSON(world, "--due-before", "2026-12-04") == ["Beta/Soon"])
        #expect(try await listedJSON(world, "--due-before", "2026-12-10", "--sort", "title") == ["Beta/Soon/Later", "Gamma/Mid"])
        #expect(await listed(world, "--due-before", "2026-12-05", "--search", "gamma") == ["Gamma"])
        let bad = await world.output("task", "list", "--due-before", "soon")
        #expect(bad.code == 64)
        #expect(bad.err.hasPrefix("focus: error: "))
        #expect(bad.err.contains("--due-before"))
    }

    @Test func taskListAtRiskShowsWorkMarkedAtRiskOrOverdue() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Fine/Easy", "--estimate", "25m", "--due", "2026-12-01")
        #expect(await world.run("task", "add", "Tight/Huge", "--estimate", "40h", "--due", "2026-11-30 22:00", "--force") == 0)
        #expect(await world.run("task", "add", "Late/Past", "--estimate", "1h", "--due", "2026-11-20", "--force") == 0)
        #expect(try await listedJSON(world, "--at-risk") == ["Late/Past", "Tight/Huge"])
        let text = await world.output("task", "list", "--at-risk").out
        #expect(text.contains("overdue") && text.contains("at risk") && !text.contains("Easy"))
        await world.run("task", "done", "Late/Past")
        #expect(try await listedJSON(world, "--at-risk") == ["Tight/Huge"])
    }

    // MARK: log rm --subtask PATH --all

    /// Thesis/Chapter 2 with two sessions (1h 15m), Thesis/Intro with one, Thesis itself one.
    func logWorld() async throws -> TestWorld {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Chapter 2")
        await world.run("task", "add", "Thesis/Intro")
        await world.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-27 09:00", "--duration", "25m")
        await world.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-28 09:00", "--duration", "50m")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-28 11:00", "--duration", "25m")
        await world.run("log", "add", "Thesis", "--start", "2026-11-28 14:00", "--duration", "10m")
        return world
    }

    func sessionCount(_ world: TestWorld, _ target: PathTarget) throws -> Int {
        try world.database.sessions(of: target, limit: 0).count
    }

    @Test func logRmAllWithoutATerminalRefusesUnlessForced() async throws {
        let world = try await logWorld()
        var r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: not deleting 2 sessions of Thesis/Chapter 2 (1h 15m) without asking, and there is no terminal to ask at; add --force to delete them.\n")
        #expect(try sessionCount(world, .subtask(taskID: 1, id: 2)) == 2)
        r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all", "--force")
        #expect(r.code == 0)
        #expect(r.out == "Deleted 2 sessions of Thesis/Chapter 2 (1h 15m).\n")
        #expect(try sessionCount(world, .subtask(taskID: 1, id: 2)) == 0)
        #expect(try sessionCount(world, .task(id: 1)) == 2)
        // The totals the triggers keep follow.
        let show = await world.output("task", "show", "Thesis/Chapter 2").out
        #expect(show.contains("logged        0m\n"))
        #expect(!show.contains("sessions"))
        r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all", "--force")
        #expect(r.code == 0)
        #expect(r.out == "No sessions recorded for Thesis/Chapter 2; nothing deleted.\n")
    }

    @Test func logRmAllAsksOnATerminalAndKeepsEverythingUnlessTheAnswerIsYes() async throws {
        let world = try await logWorld()
        world.answers = ["", "n", "YES"]
        var r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all")
        #expect(r.code == 0)
        #expect(r.err == "Delete 2 sessions of Thesis/Chapter 2 (1h 15m)? [y/N] \n")
        #expect(r.out == "Nothing deleted.\n")
        r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all")
        #expect(r.out == "Nothing deleted.\n")
        #expect(try sessionCount(world, .subtask(taskID: 1, id: 2)) == 2)
        r = await world.output("log", "rm", "--subtask", "Thesis/Chapter 2", "--all")
        #expect(r.code == 0)
        #expect(r.out == "Deleted 2 sessions of Thesis/Chapter 2 (1h 15m).\n")
        #expect(try sessionCount(world, .subtask(taskID: 1, id: 2)) == 0)
        #expect(try sessionCount(world, .subtask(taskID: 1, id: 3)) == 1)
    }

    @Test func logRmAllOfATaskDeletesItsSessionsAndItsSubtasks() async throws {
        let world = try await logWorld()
        await world.run("task", "add", "Other")
        await world.run("log", "add", "Other", "--start", "2026-11-28 16:00", "--duration", "5m")
        let r = await world.output("log", "rm", "--subtask", "thesis", "--all", "--force")
        #expect(r.code == 0)
        #expect(r.out == "Deleted 4 sessions of Thesis (1h 50m).\n")
        #expect(try sessionCount(world, .task(id: 1)) == 0)
        #expect(await world.output("task", "show", "Thesis").out.contains("0m logged in 0 sessions"))
        #expect(try sessionCount(world, .task(id: 4)) == 1)
    }

    // A running session (proven by the kernel's session lock, which an in-memory test world
    // cannot hold) refusing `log rm --all` is tested end to end: LivenessTests.
    @Test func logRmAllNeedsTheWholeNameAndOneWayOfSayingWhat() async throws {
        let world = try await logWorld()
        let cases: [([String], String)] = [
            (["--subtask", "Thesis/Chap", "--all", "--force"],
             "focus: error: 'Thesis/Chap' is only a prefix of 'Thesis/Chapter 2'; type the whole name (or #ID) to delete its sessions.\n"),
            (["--subtask", "Thesis/Chapter 2"],
             "focus: error: to delete every session of 'Thesis/Chapter 2', add --all (or give one session's ID: see `focus log`).\n"),
            (["--all", "--force"],
             "focus: error: give the session ID to delete (see `focus log`), or --subtask PATH --all to delete every session of a subtask.\n"),
            (["1", "--subtask", "Thesis/Chapter 2", "--all"], "focus: error: give either a session ID or --subtask PATH --all, not both.\n"),
            (["1", "--force"], "focus: error: --force goes with --subtask PATH --all; deleting one session never asks.\n"),
        ]
        for (args, err) in cases {
            let r = await world.output(["log", "rm"] + args)
            #expect(r.code == 64, "\(args)")
            #expect(r.err == err)
        }
        let unknown = await world.output("log", "rm", "--subtask", "Nope", "--all", "--force")
        #expect(unknown.code == 64)
        #expect(try sessionCount(world, .task(id: 1)) == 4)
        // One session by id still works as before.
        let one = await world.output("log", "rm", "1")
        #expect(one.code == 0)
        #expect(one.out.hasPrefix("Deleted #1  09:00–09:25"))
    }

    @Test func logRmAllKeepsTheSessionsInTodaysBackup() async throws {
        let w = try FileWorld()
        let now = "2026-11-29T19:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: "2026-11-28T19:00:00Z").code == 0)
        for start in ["2026-11-27 09:00", "2026-11-28 09:00"] {
            #expect(await w.run("log", "add", "Thesis", "--start", start, "--duration", "25m", now: "2026-11-28T19:00:00Z").code == 0)
        }
        // The first write of the 29th is the delete: today's backup is made before it.
        let r = await w.run("log", "rm", "--subtask", "Thesis", "--all", "--force", now: now)
        #expect(r.code == 0)
        #expect(r.out == "Deleted 2 sessions of Thesis (50m).\n")
        #expect(try FileWorld.sessions(in: w.db) == 0)
        #expect(try w.backupNames().contains("focus.sqlite.backup-2026-11-29"))
        #expect(try FileWorld.sessions(in: w.dir.path + "/data/focus.sqlite.backup-2026-11-29") == 2)
    }

    // MARK: due times in words

    @Test(arguments: [
        ("2026-12-02T23:00:00Z", "2026-12-02", "end of day"),   // due 2026-12-02 (the midnight ending it)
        ("2026-12-02T16:00:00Z", "2026-12-02", "17:00"),
        ("2026-12-02T23:30:00Z", "2026-12-03", "00:30"),
        ("2026-03-29T22:00:00Z", "2026-03-29", "end of day"),   // a 23-hour day (clocks go forward)
        ("2026-10-25T23:00:00Z", "2026-10-25", "end of day"),   // a 25-hour day (clocks go back)
        ("2026-10-25T01:30:00Z", "2026-10-25", "02:30"),        // the second 02:30 of that day
    ])
    func dueTextSaysEndOfDayForADueDateGivenAsADay(due: String, day: String, expected: String) throws {
        let calendar = LocalCalendar(zone: try #require(ZoneRules.fromTZ("Europe/Berlin")))
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let local = LocalDate(year: parts[0], month: parts[1], day: parts[2])
        #expect(DueText.time(of: TestWorld.instant(due), on: local, calendar: calendar) == expected)
    }

    @Test func aDueDateGivenAsADayIsStoredAsTheEndOfThatDay() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Chapter 2", "--estimate", "1h", "--due", "2026-12-02")
        await world.run("task", "add", "Thesis/Chapter 3", "--estimate", "1h", "--due", "2026-12-02 17:00")
        let due = try world.database.subtasksDue(after: TestWorld.instant("2026-12-01T23:00:00Z"), through: TestWorld.instant("2026-12-02T23:00:00Z"))
        let day = LocalDate(year: 2026, month: 12, day: 2)
        #expect(due.map { "\($0.subtask) \(DueText.time(of: $0.due, on: day, calendar: world.calendar))" } == ["Chapter 3 17:00", "Chapter 2 end of day"])
    }
}
