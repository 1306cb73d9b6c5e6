import ArgumentParser
import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// A to-do from another app with a due date and no parent (README, "Two machines"): a task
/// with a stand-in subtask of its title that carries the due date, so it is planned; the to-do
/// keeps its date-only due date and gains no child in the other app.
private let calendarURL = TestWorld.syncCalendarURL
private let endpoint = TestWorld.syncEndpoint

private func machine(_ server: FakeCalDAVServer) throws -> TestWorld { try TestWorld.syncMachine(server) }

@discardableResult
private func sync(_ world: TestWorld, _ server: FakeCalDAVServer) throws -> SyncEngine.Summary { try world.syncRound(server) }

private func todo(due: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Tasks//EN", "BEGIN:VTODO", "UID:milk@example.org", "DTSTAMP:20261124T100000Z",
     "SUMMARY:Buy milk", "DUE;VALUE=DATE:\(due)", "STATUS:NEEDS-ACTION", "PRIORITY:1", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
}

private func subtasks(_ world: TestWorld) async -> [[String: Any]] {
    let out = await world.output("task", "list", "--all", "--json").out
    let tasks = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
    return tasks.filter { $0["title"] as? String == "Buy milk" }.flatMap { $0["subtasks"] as? [[String: Any]] ?? [] }
}

private func texts(_ server: FakeCalDAVServer) -> [String] {
    server.contents(calendarURL).values.map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "") }
}

@Suite struct SyncForeignDueTests {
    @Test func aToDoWithADueDateAndNoParentIsPlannedAndKeepsItsDateThere() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        try sync(laptop, server)

        var standIn = await subtasks(laptop)
        #expect(standIn.count == 1 && standIn.first?["title"] as? String == "Buy milk", "\(standIn)")
        #expect(standIn.first?["due"] as? String == "2026-11-27T23:00:00Z", "the end of Friday 27 November in Berlin")

        // Given an estimate here, it is planned before Friday, and the to-do keeps its date.
        #expect(await laptop.run("task", "edit", "Buy milk/Buy milk", "--estimate", "30m") == 0)
        let plan = await laptop.output("plan", "--json").out
        #expect(plan.contains("\"subtask\": \"Buy milk\""), "\(plan)")
        try sync(laptop, server)
        let todos = texts(server).filter { $0.contains("BEGIN:VTODO") }
        #expect(todos.count == 1, "no child to-do in the other app: \(todos)")
        #expect(todos.first?.contains("DUE;VALUE=DATE:20261127") == true && todos.first?.contains("PRIORITY:1") == true, "\(todos)")
        #expect(todos.first?.contains("X-FOCUS-ESTIMATE:1800") == true, "\(todos)")

        // The other machine plans it alike and records work in it; the first receives the work.
        try sync(desktop, server)
        standIn = await subtasks(desktop)
        #expect(standIn.first?["estimate_seconds"] as? Int == 1800 && standIn.first?["due"] as? String == "2026-11-27T23:00:00Z", "\(standIn)")
        #expect(await desktop.run("log", "add", "Buy milk/Buy milk", "--start", "2026-11-24 18:00", "--duration", "20m") == 0)
        try sync(desktop, server)
        try sync(laptop, server)
        #expect(await subtasks(laptop).first?["logged_seconds"] as? Int == 1200)

        // Moved to Monday in the other app: moved here; done there: done here.
        var moved = try #require(texts(server).first { $0.contains("BEGIN:VTODO") })
        moved = moved.replacingOccurrences(of: "DUE;VALUE=DATE:20261127", with: "DUE;VALUE=DATE:20261130")
            .replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED")
        server.store(calendarURL + "milk.ics", moved)
        try sync(laptop, server)
        standIn = await subtasks(laptop)
        #expect(standIn.first?["due"] as? String == "2026-11-30T23:00:00Z" && standIn.first?["done"] as? Bool == true, "\(standIn)")
        #expect(texts(server).filter { $0.contains("BEGIN:VTODO") }.count == 1)
    }

    /// The stand-in's other planning (start date, attention span, earliest time, priority,
    /// daily cap) set on one machine travels in the to-do: every machine plans it alike, and
    /// the other app's own DTSTART and PRIORITY are left as it wrote them (seen in
    /// scripts/torture's sync family: an edit of a stand-in stayed on its machine).
    @Test func theStandInsPlanningSetOnOneMachineIsTheSameOnEveryMachine() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await laptop.run("task", "edit", "Buy milk/Buy milk", "--estimate", "2h", "--span", "30m", "--earliest", "14:00",
                                 "--priority", "low", "--max-per-day", "1h", "--start", "2026-11-25", "--force") == 0)
        try sync(laptop, server)
        let todo = try #require(texts(server).first { $0.contains("BEGIN:VTODO") })
        for line in ["X-FOCUS-SPAN:1800", "X-FOCUS-EARLIEST:14:00", "X-FOCUS-PRIORITY:low", "X-FOCUS-START:2026-11-25", "PRIORITY:1"] {
            #expect(todo.contains(line + "\r\n"), "\(line) in \(todo)")
        }
        try sync(desktop, server)
        let here = await subtasks(laptop), there = await subtasks(desktop)
        for key in ["span_seconds", "earliest_time", "priority", "max_per_day_seconds", "start_date", "estimate_seconds", "due"] {
            #expect("\(here.first?[key] ?? "none")" == "\(there.first?[key] ?? "none")", "\(key): \(here) / \(there)")
        }
        #expect(there.first?["span_seconds"] as? Int == 1800 && there.first?["priority"] as? String == "low", "\(there)")
        let planned = [await laptop.sharedOutput("plan", "--json"), await desktop.sharedOutput("plan", "--json")]
        #expect(planned[0] == planned[1] && planned[0].contains("Buy milk"), "\(planned)")
        // Cleared on the other machine: cleared here.
        #expect(await desktop.run("task", "edit", "Buy milk/Buy milk", "--span", "none", "--earliest", "none") == 0)
        try sync(desktop, server)
        try sync(laptop, server)
        let cleared = await subtasks(laptop)
        #expect(cleared.first?["span_seconds"] is NSNull && cleared.first?["earliest_time"] is NSNull, "\(cleared)")
    }

    /// The stand-in's name and notes are the task's, and it goes with its task: a change that
    /// could not travel is refused with the command that does it (exit 64), nothing changed.
    @Test func theStandInsNameNotesAndDeletionAreTheTasks() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        try sync(laptop, server)
        let renamed = await laptop.output("task", "edit", "Buy milk/Buy milk", "--title", "Milk")
        #expect(renamed.code == 64 && renamed.err.contains("'Buy milk/Buy milk' stands for the to-do 'Buy milk' itself"), "\(renamed)")
        #expect(renamed.err.contains("focus task edit \"Buy milk\" --title NAME"), "\(renamed.err)")
        #expect(await laptop.output("task", "edit", "Buy milk/Buy milk", "--notes", "2 litres").code == 64)
        let removed = await laptop.output("task", "rm", "Buy milk/Buy milk", "--force")
        #expect(removed.code == 64 && removed.err.contains("focus task rm \"Buy milk\" deletes the to-do"), "\(removed)")
        let standIn = await subtasks(laptop)
        #expect(standIn.count == 1 && standIn.first?["title"] as? String == "Buy milk", "\(standIn)")
        // Its planning still changes; the task's name and notes too.
        #expect(await laptop.run("task", "edit", "Buy milk/Buy milk", "--span", "20m") == 0)
        #expect(await laptop.run("task", "edit", "Buy milk", "--notes", "2 litres") == 0)
    }

    /// The stand-in takes its task's name wherever the task is renamed (here, on the other
    /// machine, in the other app), and done is the to-do done: the task archived with it. Both
    /// machines then hold the same tasks (seen in scripts/torture's sync family).
    @Test func theStandInFollowsItsTasksNameAndClosesTheTaskOnEveryMachine() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        try sync(laptop, server)
        try sync(desktop, server)
        func same() async -> Bool {
            await laptop.sharedOutput("task", "list", "--all", "--json") == (await desktop.sharedOutput("task", "list", "--all", "--json"))
        }
        // Renamed in the other app, then here.
        var renamed = try #require(texts(server).first { $0.contains("BEGIN:VTODO") })
        renamed = renamed.replacingOccurrences(of: "SUMMARY:Buy milk", with: "SUMMARY:Buy oat milk")
        server.store(calendarURL + "milk.ics", renamed)
        try sync(laptop, server)
        #expect(await laptop.run("task", "show", "Buy oat milk/Buy oat milk") == 0)
        #expect(await laptop.run("task", "edit", "Buy oat milk", "--title", "Milk") == 0)
        #expect(await laptop.run("task", "show", "Milk/Milk") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await desktop.run("task", "show", "Milk/Milk") == 0)
        #expect(await same())
        // Done on the desktop: the to-do is done, and the task archived, there and here.
        #expect(await desktop.run("task", "done", "Milk/Milk") == 0)
        #expect(!(await desktop.output("task", "list").out.contains("Milk")))
        try sync(desktop, server)
        try sync(laptop, server)
        #expect(texts(server).first { $0.contains("BEGIN:VTODO") }?.contains("STATUS:COMPLETED") == true)
        #expect(!(await laptop.output("task", "list").out.contains("Milk")))
        #expect(await same())
        // Reopened here: open there too.
        #expect(await laptop.run("task", "done", "Milk", "--undo") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await desktop.output("task", "list").out.contains("Milk"))
        #expect(await same())
    }

    /// The other app moves the to-do under another one: its stand-in was that work itself, so
    /// its sessions go to the subtask it became, and no stand-in is left to travel on its own.
    @Test func aToDoMovedUnderAnotherTakesItsStandInsSessions() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        #expect(await laptop.run("task", "add", "Errands/Post office") == 0)
        try sync(laptop, server)
        #expect(await laptop.run("log", "add", "Buy milk/Buy milk", "--start", "2026-11-24 18:00", "--duration", "20m") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        let errands = try #require(texts(server).first { $0.contains("SUMMARY:Errands\r\n") })
        let parent = try #require(errands.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        var moved = try #require(texts(server).first { $0.contains("SUMMARY:Buy milk\r\n") })
        moved = moved.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "RELATED-TO:\(parent)\r\nSTATUS:NEEDS-ACTION")
        server.store(calendarURL + "milk.ics", moved)
        for world in [laptop, desktop, laptop, desktop] { try sync(world, server) }
        for world in [laptop, desktop] {
            let log = await world.output("log", "--json", "--last", "30").out
            #expect(log.contains("\"subtask\": \"Buy milk\"") && log.contains("\"task\": \"Errands\""), "\(log)")
            #expect(!(await world.output("task", "list", "--all").out.contains("Buy milk/Buy milk")))
        }
        #expect(!texts(server).contains { $0.contains("#due") }, "no stand-in of its own there")
    }

    /// The other app deletes the to-do while work recorded in a subtask of it stays: its stand-in
    /// goes with it (it was the to-do itself), so a machine that reads the task only from that
    /// work holds the same tasks as the one that had the stand-in (seen in scripts/torture's
    /// sync family).
    @Test func aDeletedToDosStandInGoesWithItOnEveryMachine() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        server.store(calendarURL + "milk.ics", todo(due: "20261127"))
        try sync(laptop, server)
        #expect(await laptop.run("task", "add", "Buy milk/Receipt") == 0)
        #expect(await laptop.run("log", "add", "Buy milk/Receipt", "--start", "2026-11-24 18:00", "--duration", "10m") == 0)
        try sync(laptop, server)
        server.remove(calendarURL + "milk.ics")
        for world in [laptop, desktop, laptop, desktop] { try sync(world, server) }
        let listed = [await laptop.sharedOutput("task", "list", "--all", "--json"), await desktop.sharedOutput("task", "list", "--all", "--json")]
        #expect(listed[0] == listed[1], "\(listed)")
        #expect(listed[0].contains("\"logged_seconds\": 600") && !listed[0].contains("\"title\": \"Buy milk\", \"estimate"), "\(listed[0])")
    }
}
