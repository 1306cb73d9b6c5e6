import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

@Suite struct PlanCommandTests {
    @Test func planPlacesBlocksAsEarlyAsPossibleAndPrintsTheContractsJSON() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-23")
        let r = await world.output("plan", "--json")
        #expect(r.code == 0)
        #expect(r.out == """
            {"blocks": [{"id": 1, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:00:00Z", "end": "2026-11-22T09:25:00Z", "status": "planned"}, \
            {"id": 2, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:30:00Z", "end": "2026-11-22T09:55:00Z", "status": "planned"}], \
            "at_risk": [], "overdue": [], "not_planned": []}

            """)
        let text = await world.output("plan")
        #expect(text.out == """
            Sun 22 Nov 2026
              10:00–10:25  Thesis/Intro  planned  block 1
              10:30–10:55  Thesis/Intro  planned  block 2

            """)
    }

    @Test func aDryRunShowsTheNewPlanAndSavesNothing() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-23")
        world.now = TestWorld.instant("2026-11-22T13:00:00Z")
        let dry = await world.output("plan", "--dry-run")
        #expect(dry.out == """
            Dry run: nothing saved.

            Sun 22 Nov 2026
              10:00–10:25  Thesis/Intro  missed  block 1
              10:30–10:55  Thesis/Intro  missed  block 2
              14:00–14:25  Thesis/Intro  planned
              14:30–14:55  Thesis/Intro  planned

            """)
        let saved = try world.database.blocks(startingFrom: TestWorld.instant("2026-11-22T00:00:00Z"))
        #expect(saved.map(\.status) == [.planned, .planned])
    }

    @Test func rePlanningKeepsMissedAndPartialBlocksAndPlacesTheRestFromNow() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "75m", "--due", "2026-11-23")
        // Ten minutes worked in the first block (no link), nothing in the second and third.
        world.now = TestWorld.instant("2026-11-22T10:30:00Z")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-22 10:00", "--duration", "10m")
        let r = await world.output("plan", "--json")
        #expect(r.out == """
            {"blocks": [{"id": 1, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:00:00Z", "end": "2026-11-22T09:25:00Z", "status": "partial"}, \
            {"id": 2, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:30:00Z", "end": "2026-11-22T09:55:00Z", "status": "missed"}, \
            {"id": 3, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T10:00:00Z", "end": "2026-11-22T10:25:00Z", "status": "missed"}, \
            {"id": 4, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T10:30:00Z", "end": "2026-11-22T10:55:00Z", "status": "planned"}, \
            {"id": 5, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T11:00:00Z", "end": "2026-11-22T11:25:00Z", "status": "planned"}, \
            {"id": 6, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T11:30:00Z", "end": "2026-11-22T11:45:00Z", "status": "planned"}], \
            "at_risk": [], "overdue": [], "not_planned": []}

            """)
    }

    @Test func aBlockFullyWorkedByItsLinkedSessionIsDone() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-11-23")
        let sub = try world.database.catalog().resolve("Thesis/Intro")
        _ = try world.database.recordSession(TimeLog(taskID: sub.taskID, subtaskID: sub.subtaskID, startedAt: world.now + 20, endedAt: world.now + 1520,
                                                     plannedSeconds: 1500, focusedSeconds: 1500, status: .completed, blockID: 1), now: world.now)
        world.now = TestWorld.instant("2026-11-22T10:00:00Z")
        let r = await world.output("plan", "--json")
        #expect(r.out == """
            {"blocks": [{"id": 1, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:00:00Z", "end": "2026-11-22T09:25:00Z", "status": "done"}], "at_risk": [], "overdue": [], "not_planned": []}

            """)
    }

    @Test func aSubtaskThatCannotFitIsRefusedWithWhatItNeedsAndWhoCompetes() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-22 11:00")
        let r = await world.output("task", "add", "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00")
        #expect(r.code == 65)
        #expect(r.err == "focus: error: 'Course/Essay' does not fit before its due date, Sun 22 Nov 12:00: it needs 1h of work and "
                + "there is only 50m of free time before then, with 'Thesis/Intro' competing for it. "
                + "Move the due date, lower the estimate, or add --force to save it marked at risk.\n")
        // Nothing was saved, not even the new task.
        #expect(try world.database.catalog().tasks.map(\.title) == ["Thesis"])
        #expect(try world.database.blocks(startingFrom: world.now).count == 2)
    }

    @Test func aSubtaskThatPushesAnotherOutIsRefused() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00")
        let r = await world.output("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-22 11:00")
        #expect(r.code == 65)
        #expect(r.err == "focus: error: 'Thesis/Intro' would push 'Course/Essay' past its due date, Sun 22 Nov 12:00: "
                + "'Course/Essay' needs 1h of work and there is only 50m of free time before then, with 'Thesis/Intro' competing for it. "
                + "Move the due date, lower the estimate, or add --force to save it marked at risk.\n")
    }

    @Test func forceSavesItMarkedAtRiskAndThePlanListsIt() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-22 11:00")
        let r = await world.output("task", "add", "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00", "--force")
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: saved although it does not fit: 'Course/Essay' needs 1h, 50m free before its due date. Marked at risk; see `focus plan`.\n")
        #expect(try world.database.subtask(id: 4)?.atRisk == true)
        #expect(try world.database.subtask(id: 2)?.atRisk == false)
        let plan = await world.output("plan", "--json")
        #expect(plan.out.hasSuffix("""
            "at_risk": [{"task": "Course", "subtask": "Essay", "due": "2026-11-22T11:00:00Z", "needed_seconds": 3600, "free_seconds": 3000, "competitors": ["Thesis/Intro"]}], "overdue": [], "not_planned": []}

            """))
        let text = await world.output("plan")
        #expect(text.out.hasSuffix("""
            At risk (1):
              Course/Essay  due Sun 22 Nov 12:00  needs 1h, 50m free · competing: Thesis/Intro

            """))
    }

    @Test func editingTheEstimateBeyondTheFreeTimeIsRefusedAndChangesNothing() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-22 11:00")
        let r = await world.output("task", "edit", "Thesis/Intro", "--estimate", "2h")
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("focus: error: 'Thesis/Intro' does not fit before its due date, Sun 22 Nov 11:00: it needs 2h of work and there is only 50m of free time before then."))
        #expect(try world.database.subtask(id: 2)?.estimateSeconds == 3000)
    }

    @Test func startWithoutAPathAndNoBlockTodayIsAUsageError() async throws {
        let world = try TestWorld()
        world.config = TestWorld.roundTheWeek
        let r = await world.output("start")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: name what to work on: `focus start \"Thesis/Chapter 2\"` (see `focus task list`).\n")
    }

    @Test func agendaJSONHasThePlanShapeWithTheDaysEventsAndSessions() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let cal = try temporaryFile("day.ics", oneEventCalendar("Call", "20261122T120000Z", "20261122T130000Z", name: "Work"))
        await world.run("calendar", "import", cal)
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-11-22 18:00")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-22 08:00", "--duration", "5m")
        let r = await world.output("agenda", "--json")
        #expect(r.code == 0)
        // The session logged re-planned the rest: one 20-minute block, still block 1 (#41: a
        // block changed within its day keeps its id).
        #expect(r.out == """
            {"blocks": [{"id": 1, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T09:00:00Z", "end": "2026-11-22T09:20:00Z", "status": "planned"}], \
            "at_risk": [], "overdue": [], "not_planned": [], \
            "events": [{"start": "2026-11-22T12:00:00Z", "end": "2026-11-22T13:00:00Z", "summary": "Call", "calendar": "Work"}], \
            "sessions": [{"id": 1, "task": "Thesis", "subtask": "Intro", "start": "2026-11-22T07:00:00Z", "end": "2026-11-22T07:05:00Z", \
            "focused_seconds": 300, "planned_seconds": 300, "status": "completed", "block_id": null, "note": null, "tags": []}], \
            "date": "2026-11-22", "free_seconds": 38400, \
            "due": [{"task": "Thesis", "subtask": "Intro", "due": "2026-11-22T17:00:00Z", "estimate_seconds": 1500, "logged_seconds": 300, "done": false}], "working_hours": "08:00-22:00", "stale_calendars": []}

            """)
    }
}
