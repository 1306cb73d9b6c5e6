import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage
import FocusSQLite

/// `task add --every/--on` and the commands on a series (README, "Planning"). Europe/Berlin;
/// 2026-11-25 is a Wednesday.
@Suite struct RecurringWorkCommandTests {
    func weeklyReview(_ world: TestWorld) async -> (code: Int32, out: String, err: String) {
        await world.output("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week", "--on", "fri")
    }

    @Test func aSeriesIsListedOnceWithItsRuleAndTheCurrentInstancesDueDate() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        let added = await weeklyReview(world)
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out.contains("estimate 1h · every week on Fri, next due Fri 27 Nov"), "\(added.out)")
        let list = await world.output("task", "list")
        #expect(list.out.contains("Weekly review"), "\(list.out)")
        #expect(list.out.contains("next due Fri 27 Nov"), "\(list.out)")
        #expect(list.out.contains("every week on Fri"), "\(list.out)")
        #expect(!list.out.contains("·  2026"), "\(list.out)")
        #expect(list.out.components(separatedBy: "Weekly review").count == 2, "\(list.out)")
        let json = await world.output("task", "list", "--json")
        #expect(json.out.contains(#""due": "2026-11-27T23:00:00Z""#), "\(json.out)")
        #expect(json.out.contains(#""every": "week", "on": "fri""#), "\(json.out)")
        // Both this week's and next week's instances are planned, each inside its own week.
        let plan = await world.output("plan", "--json")
        #expect(plan.out.contains("Weekly review · 2026-11-27"), "\(plan.out)")
        #expect(plan.out.contains("Weekly review · 2026-12-04"), "\(plan.out)")
        #expect(!plan.out.contains(#""subtask": "Weekly review""#), "\(plan.out)")
    }

    @Test func workAndDoneGoToTheCurrentInstanceAndTheNextOneTakesOver() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        _ = await weeklyReview(world)
        let logged = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-11-25 08:00", "--duration", "20m")
        #expect(logged.code == 0, "\(logged.err)")
        #expect(logged.out.contains("Admin/Weekly review · 2026-11-27"), "\(logged.out)")
        #expect(await world.output("task", "list").out.contains("20m / 1h"))
        let show = await world.output("task", "show", "Admin/Weekly review")
        #expect(show.out.contains("repeats       every week on Fri\n"), "\(show.out)")
        #expect(show.out.contains("next due      Fri 27 Nov"), "\(show.out)")
        #expect(show.out.contains("20m     Weekly review · 2026-11-27"), "\(show.out)")
        let done = await world.output("task", "done", "Admin/Weekly review")
        #expect(done.code == 0, "\(done.err)")
        #expect(done.out.contains("Done: Admin/Weekly review · 2026-11-27 · 20m logged of 1h estimated"), "\(done.out)")
        let list = await world.output("task", "list")
        #expect(list.out.contains("next due Fri 4 Dec"), "\(list.out)")
        #expect(list.out.contains("0m / 1h"), "\(list.out)")
        // Stats count the instances' time under the series.
        let stats = await world.output("stats", "--last", "1", "--json")
        #expect(stats.out.contains(#""subtask": "Weekly review""#), "\(stats.out)")
        let only = await world.output("stats", "--last", "1", "--task", "Admin/Weekly review", "--json")
        #expect(only.out.contains(#""focused_seconds": 1200"#), "\(only.out)")
        // A session moved to the series goes to its current instance, now next week's.
        #expect(await world.run("task", "add", "Admin/Inbox") == 0)
        #expect(await world.run("log", "add", "Admin/Inbox", "--start", "2026-11-25 07:00", "--duration", "5m") == 0)
        #expect(await world.run("log", "edit", "2", "--task", "Admin/Weekly review") == 0)
        #expect(await world.output("log", "--json").out.contains(#""subtask": "Weekly review · 2026-12-04""#))
        // --undo reopens this week's.
        #expect(await world.run("task", "done", "Admin/Weekly review", "--undo") == 0)
        #expect(await world.output("task", "list").out.contains("next due Fri 27 Nov"))
    }

    @Test func aMissedInstanceNeverBlocksThePlanAndTheNextWeeksIsThere() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        _ = await weeklyReview(world)
        // A week and a half later, with nothing done: last week's is missed, not overdue.
        world.now = TestWorld.instant("2026-12-09T09:00:00Z")
        let plan = await world.output("plan", "--json")
        #expect(plan.code == 0, "\(plan.err)")
        #expect(plan.out.contains("Weekly review · 2026-12-11"), "\(plan.out)")
        #expect(plan.out.contains("Weekly review · 2026-12-18"), "\(plan.out)")
        #expect(!plan.out.contains("2026-11-27"), "\(plan.out)")
        #expect(!(await world.output("plan").out.contains("overdue")))
        #expect(await world.output("task", "list").out.contains("next due Fri 11 Dec"))
        let logged = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-12-09 08:00", "--duration", "10m")
        #expect(logged.out.contains("Weekly review · 2026-12-11"), "\(logged.out)")
        // The stats' estimate lines leave the missed weeks out.
        let stats = await world.output("stats", "--last", "1")
        #expect(stats.out.contains("Weekly review · 2026-12-11") && !stats.out.contains("2026-11-27"), "\(stats.out)")
    }

    /// #41: last Friday's review, logged this week, is last week's, not this week's.
    @Test func aPastSessionGoesToTheInstanceWhosePeriodHoldsItsStart() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        _ = await weeklyReview(world)
        world.now = TestWorld.instant("2026-12-01T09:00:00Z")
        let last = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-11-27 15:00", "--duration", "45m")
        #expect(last.code == 0, "\(last.err)")
        #expect(last.out.contains("Weekly review · 2026-11-27"), "\(last.out)")
        // This week's instance is untouched: all of its hour still to do.
        #expect(await world.output("task", "list").out.contains("0m / 1h"))
        // A week before the series began has no instance: the series holds it, and says so.
        let earlier = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-11-13 15:00", "--duration", "10m")
        #expect(earlier.code == 0, "\(earlier.err)")
        #expect(earlier.err.contains("has no instance for the period of 2026-11-13: recorded on the series itself"), "\(earlier.err)")
        // From this period on, the current instance as before.
        let now = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-12-01 08:00", "--duration", "10m")
        #expect(now.out.contains("Weekly review · 2026-12-04"), "\(now.out)")
    }

    @Test func removingASeriesRemovesItsInstancesWithTheSessionRuleOfASubtask() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        _ = await weeklyReview(world)
        _ = await world.output("log", "add", "Admin/Weekly review", "--start", "2026-11-25 08:00", "--duration", "20m")
        let refused = await world.output("task", "rm", "Admin/Weekly review")
        #expect(refused.code != 0)
        #expect(refused.err.contains("1 logged session"), "\(refused.err)")
        let removed = await world.output("task", "rm", "Admin/Weekly review", "--force")
        #expect(removed.code == 0, "\(removed.err)")
        let json = await world.output("task", "list", "--all", "--json")
        #expect(!json.out.contains("Weekly review"), "\(json.out)")
        #expect(try world.database.blocks(startingFrom: TestWorld.instant("2026-11-25T00:00:00Z")).isEmpty)
    }

    @Test func editingTheRuleAppliesFromTheCurrentPeriodOn() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        _ = await weeklyReview(world)
        let edited = await world.output("task", "edit", "Admin/Weekly review", "--every", "month", "--estimate", "2h")
        #expect(edited.code == 0, "\(edited.err)")
        #expect(edited.out.contains("every month"), "\(edited.out)")
        let json = await world.output("task", "list", "--json")
        #expect(json.out.contains(#""every": "month", "on": null"#), "\(json.out)")
        #expect(json.out.contains(#""due": "2026-11-30T23:00:00Z""#), "\(json.out)")
        #expect(json.out.contains(#""estimate_seconds": 7200"#), "\(json.out)")
        let plan = await world.output("plan", "--json")
        #expect(!plan.out.contains("2026-11-27"), "\(plan.out)")
        #expect(plan.out.contains("Weekly review · 2026-11-30"), "\(plan.out)")
        // --on alone changes the day of the rule it has.
        #expect(await world.run("task", "edit", "Admin/Weekly review", "--on", "15") == 0)
        #expect(await world.output("task", "list").out.contains("every month on day 15"))
    }

    @Test(arguments: [
        (["task", "add", "Admin", "--every", "week"], "--every makes recurring work, which is a subtask"),
        (["task", "add", "Admin/Review", "--every", "week", "--due", "fri"], "recurring work has no --due"),
        (["task", "add", "Admin/Review", "--on", "fri"], "--on goes with --every"),
        (["task", "add", "Admin/Review", "--every", "fortnight"], "invalid --every 'fortnight'"),
        (["task", "add", "Admin/Review", "--every", "week", "--on", "32"], "invalid --on '32'"),
        (["task", "add", "Admin/Review", "--every", "day", "--on", "mon"], "--on goes with --every week"),
    ])
    func badFormsAreUsageErrorsNamingTheForms(args: [String], fragment: String) async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        let r = await world.output(args)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.hasPrefix("focus: error: ") && r.err.contains(fragment) && r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(try world.database.overview(all: true).isEmpty)
    }

    @Test func everyOnPlainWorkOrATaskIsRefused() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        #expect(await world.run("task", "add", "Admin/Inbox", "--estimate", "1h") == 0)
        let plain = await world.output("task", "edit", "Admin/Inbox", "--every", "week")
        #expect(plain.code == 64)
        #expect(plain.err.contains("is not recurring work"), "\(plain.err)")
        let task = await world.output("task", "edit", "Admin", "--every", "week")
        #expect(task.code == 64)
        #expect(task.err.contains("--every day|weekdays|week|month"), "\(task.err)")
        _ = await weeklyReview(world)
        let due = await world.output("task", "edit", "Admin/Weekly review", "--due", "fri")
        #expect(due.code == 64)
        #expect(due.err.contains("recurring work has no --due"), "\(due.err)")
    }

    @Test func helpOfTaskAddShowsRecurringWorkWithinEightyColumns() async throws {
        let world = try TestWorld()
        let help = await world.output("task", "add", "--help")
        let text = help.out + help.err
        #expect(text.contains("--every"), "\(text)")
        #expect(text.contains(#"focus task add "Admin/Weekly review" --estimate 1h --every week --on fri"#), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text)")
        let edit = await world.output("task", "edit", "--help")
        let editText = edit.out + edit.err
        #expect(editText.contains("--every and --on change the rule"), "\(editText)")
        #expect(editText.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(editText)")
    }

    /// Issue #39: a series starting 9999-12-31 made every `plan` and `task add` fail (65): its
    /// instances fell in year 10000. Typed, it is refused (64); one already stored (from sync,
    /// or a hand edit) makes no instance and breaks no plan.
    @Test(arguments: [("week", "9999-12-31"), ("month", "9999-12-01"), ("day", "9999-12-31")])
    func aSeriesWhosePeriodsLeaveYear9999IsRefusedAndAStoredOneBreaksNoPlan(every: String, start: String) async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        let refused = await world.output("task", "add", "Admin/Far", "--estimate", "1h", "--every", every, "--start", start)
        #expect(refused.code == 64, "\(refused.err)")
        #expect(refused.err.contains("start date") && refused.err.contains("9999-12-30"), "\(refused.err)")
        #expect(await world.run("task", "add", "Admin/Far", "--estimate", "1h", "--every", every) == 0)
        _ = try world.database.write { db in
            try db.execute(sql: "UPDATE subtask SET startDate = ? WHERE title = 'Far'", arguments: [start])
            try db.execute(sql: "DELETE FROM subtask WHERE seriesId IS NOT NULL")
        }
        let plan = await world.output("plan")
        #expect(plan.code == 0, "\(plan.err)")
        let added = await world.output("task", "add", "Thesis/Draft", "--estimate", "1h", "--due", "2026-11-27")
        #expect(added.code == 0 && !added.err.contains("not updated"), "\(added.err)")
    }
}
