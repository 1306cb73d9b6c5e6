import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing
import FocusSQLite

/// The plan stays true: every change re-plans through one path, overdue work is never silent,
/// `--force` never takes time from work that fits, and what is not planned says why.
/// Sunday 29 November 2026, 20:00 in Berlin (working hours 08:00–22:00).
@Suite struct PlanStaysTrueTests {
    static let sundayEvening = "2026-11-29T19:00:00Z"

    func plan(_ world: TestWorld) async throws -> [String: Any] {
        let r = await world.output("plan", "--json", "--dry-run")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    }

    func seconds(of path: String, in plan: [String: Any]) -> Int {
        let blocks = plan["blocks"] as? [[String: Any]] ?? []
        let parts = path.split(separator: "/").map(String.init)
        return blocks.filter { $0["task"] as? String == parts[0] && $0["subtask"] as? String == parts[1] && $0["status"] as? String == "planned" }
            .reduce(0) { total, b in
                let start = TestWorld.instant(b["start"] as? String ?? "")
                let end = TestWorld.instant(b["end"] as? String ?? "")
                return total + Int(end.timeIntervalSince(start))
            }
    }

    func labels(_ key: String, in plan: [String: Any]) -> [String] {
        (plan[key] as? [[String: Any]] ?? []).map { "\($0["task"] as? String ?? "")/\($0["subtask"] as? String ?? "")" }
    }

    @Test func removingATaskGivesItsTimeBackToTheOthersAtOnce() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Hog/All", "--estimate", "12h", "--due", "2026-11-30 22:00") == 0)
        #expect(await world.run("task", "add", "Report/Draft", "--estimate", "2h", "--due", "2026-11-30 22:00", "--force") == 0)
        #expect(try world.database.savedRisks().map(\.subtask) == ["Draft"])
        #expect(await world.run("task", "rm", "Hog", "--force") == 0)
        // No `focus plan` in between: the removal re-planned.
        #expect(try world.database.savedRisks().isEmpty)
        let p = try await plan(world)
        #expect(seconds(of: "Report/Draft", in: p) == 7200)
    }

    @Test func aSessionLoggedByHandRePlansTheRest() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-12-01")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-29 18:00", "--duration", "25m")
        let blocks = try world.database.blocks(startingFrom: TestWorld.instant(Self.sundayEvening))
        #expect(blocks.filter { $0.status == .planned }.reduce(0) { $0 + Int($1.end.timeIntervalSince($1.start)) } == 1500)
    }

    @Test func aChangeMadeOutsideFocusIsRePlannedByTheNextCommandThatWrites() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-12-01")
        // A hand edit (as `sqlite3` would make it) marks the plan stale through the triggers.
        try world.database.writer.write { db in try db.execute(sql: "UPDATE subtask SET estimateSeconds = 6000") }
        #expect(try world.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT stale FROM planState") } == 1)
        await world.run("task", "add", "Groceries")
        #expect(try world.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT stale FROM planState") } == 0)
        let planned = try world.database.blocks(startingFrom: TestWorld.instant(Self.sundayEvening)).filter { $0.status == .planned }
        #expect(planned.reduce(0) { $0 + Int($1.end.timeIntervalSince($1.start)) } == 6000)
    }

    @Test func changingWorkingHoursRePlans() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-12-01")
        let before = try world.database.blocks(startingFrom: TestWorld.instant(Self.sundayEvening)).map(\.start)
        #expect(before == [TestWorld.instant("2026-11-29T19:00:00Z")])
        #expect(await world.run("config", "set", "day_end", "20:00") == 0)
        let after = try world.database.blocks(startingFrom: TestWorld.instant(Self.sundayEvening)).filter { $0.status == .planned }.map(\.start)
        #expect(after == [TestWorld.instant("2026-11-30T07:00:00Z")])
    }

    @Test func overdueWorkIsRefusedUnlessForcedAndThenListedEverywhere() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        var r = await world.output("task", "add", "X/Past due", "--estimate", "1h", "--due", "2026-11-20")
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("focus: error: 'X/Past due' is overdue: it was due Fri 20 Nov (end of day) and still needs 1h of work."))
        #expect(try world.database.catalog().tasks.isEmpty)
        // One minute ago is overdue too, like a year ago.
        r = await world.output("task", "add", "X/Just missed", "--estimate", "1h", "--due", "2026-11-29 19:59")
        #expect(r.code == 65)
        r = await world.output("task", "add", "X/Past due", "--estimate", "1h", "--due", "2026-11-20", "--force")
        #expect(r.code == 0)
        #expect(r.err.contains("warning: saved although 'X/Past due' is overdue"))
        let p = try await plan(world)
        #expect(labels("overdue", in: p) == ["X/Past due"])
        let text = await world.output("plan")
        #expect(text.out.contains("Overdue (1):\n  X/Past due  was due Fri 20 Nov (end of day)  needs 1h\n"))
        let agenda = await world.output("agenda")
        #expect(agenda.out.contains("Overdue (1):"))
        let list = await world.output("task", "list")
        #expect(list.out.contains("overdue"))
        let json = await world.output("task", "list", "--json")
        #expect(json.out.contains("\"overdue\": true"))
    }

    @Test func forcedWorkNeverTakesTimeFromWorkThatFits() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Report/Draft", "--estimate", "2h", "--due", "2026-12-01 10:00") == 0)
        // 20 hours by Monday night cannot fit whatever happens: refused, then forced.
        var r = await world.output("task", "add", "Hog/All", "--estimate", "20h", "--due", "2026-11-30 22:00")
        #expect(r.code == 65)
        r = await world.output("task", "add", "Hog/All", "--estimate", "20h", "--due", "2026-11-30 22:00", "--force")
        #expect(r.code == 0)
        let p = try await plan(world)
        #expect(seconds(of: "Report/Draft", in: p) == 7200)
        #expect(labels("at_risk", in: p) == ["Hog/All"])
        #expect(seconds(of: "Hog/All", in: p) > 0)
    }

    @Test func workWithoutADueDateSaysItIsNotPlanned() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        let r = await world.output("task", "add", "Someday/Idea", "--estimate", "2h")
        #expect(r.code == 0)
        #expect(r.err == "focus: note: 'Someday/Idea' has no due date, so it is not planned; give it one to plan it: `focus task edit Someday/Idea --due DATE`.\n")
        let text = await world.output("plan")
        #expect(text.out.contains("Not planned (1):\n  Someday/Idea  not planned: no due date · needs 2h\n"))
        let p = try await plan(world)
        #expect(labels("not_planned", in: p) == ["Someday/Idea"])
        let show = await world.output("task", "show", "Someday/Idea")
        #expect(show.out.contains("plan          not planned: no due date"))
    }

    @Test func taskShowNamesTheSpanItPlansWith() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Short", "--estimate", "30m", "--due", "2026-12-01")
        await world.run("task", "add", "Thesis/Long", "--estimate", "2h", "--due", "2026-12-01", "--span", "50m")
        #expect(await world.output("task", "show", "Thesis/Short").out.contains("span          25m (the work length)"))
        #expect(await world.output("task", "show", "Thesis/Long").out.contains("span          50m\n"))
    }

    @Test func anEarliestTimeAfterTheWorkingDayIsRefusedWithItsRealCause() async throws {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        var r = await world.output("task", "add", "Night/Owl", "--estimate", "1h", "--due", "2026-12-04", "--earliest", "23:00")
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("focus: error: 'Night/Owl' can never be planned: its earliest time, 23:00, leaves nothing before working hours end at 22:00"))
        r = await world.output("task", "add", "Early/Bird", "--estimate", "1h", "--due", "2026-12-04", "--earliest", "06:00")
        #expect(r.code == 0)
        #expect(r.err.contains("note: working hours start at 08:00, so 'Early/Bird' is planned from 08:00, not 06:00"))
    }
}
