import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusSQLite
import FocusTestSupport
import Foundation
import Testing
import ArgumentParser

/// `focus sync` between two databases through an in-memory CalDAV server: every order of
/// syncs, and a sync cut off after any request, ends with one history on both machines.
private let calendarURL = TestWorld.syncCalendarURL
private let endpoint = TestWorld.syncEndpoint

@discardableResult
private func sync(_ world: TestWorld, _ server: FakeCalDAVServer) throws -> SyncEngine.Summary { try world.syncRound(server) }

private func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

/// `task list --all --json` and `log --json` without ids (each machine's own), keys sorted.
private func view(_ world: TestWorld) async -> String {
    func strip(_ value: Any?) -> Any? {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in object where k != "id" && !k.hasSuffix("_id") { out[k] = strip(v) }
            return out
        }
        if let array = value as? [Any] { return array.map { strip($0) as Any } }
        return value
    }
    var parts: [String] = []
    for args in [["task", "list", "--all", "--json"], ["log", "--json", "--last", "3650"]] {
        let out = await world.output(args[0], args[1], args[2], args[3], args.count > 4 ? args[4] : "--json").out
        let value = strip(json(out)) ?? []
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data()
        parts.append(String(decoding: data, as: UTF8.self))
    }
    return parts.joined(separator: "\n")
}

@Suite struct SyncEngineTests {
    @Test func twoMachinesEndWithOneHistoryAndAQuietSyncIsOneRequest() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-30") == 0)
        #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        #expect(await desktop.run("task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2026-11-28") == 0)
        #expect(await desktop.run("log", "add", "Thesis/Intro", "--start", "2026-11-24 14:00", "--duration", "50m", "--interrupted") == 0)

        let first = try sync(laptop, server)
        #expect(first.sent == 3 && first.received == 0)
        let second = try sync(desktop, server)
        #expect(second.received == 2, "Chapter 2 and its session; Thesis is the desktop's Thesis")
        try sync(laptop, server)
        #expect(await view(laptop) == view(desktop))
        #expect(server.contents(calendarURL).count == 5, "Thesis, two subtasks, two sessions: each once")

        let before = server.requests
        let quiet = try sync(laptop, server)
        #expect(quiet == SyncEngine.Summary())
        #expect(server.requests - before == 1)
    }

    /// A first sync of a long history into an empty calendar, on a server that writes a whole
    /// collection in one request (as Radicale does): one write instead of one per item, each
    /// item then found where the server put it, so later edits replace it and nothing doubles.
    @Test func aLongFirstSyncIntoAnEmptyCalendarIsOneWriteWhereTheServerTakesIt() async throws {
        let server = FakeCalDAVServer()
        server.takeCollectionPuts(true)
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Chapter 2") == 0)
        for i in 0..<60 {
            let start = "2026-11-\(i % 20 < 9 ? "0" : "")\(i % 20 + 1) \(8 + i / 20):00"
            #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", start, "--duration", "25m") == 0)
        }
        let before = server.requests
        let first = try sync(laptop, server)
        #expect(first.sent == 62, "a task, a subtask, 60 sessions")
        #expect(server.requests - before == 3, "read the calendar, list it, write it")
        #expect(server.contents(calendarURL).count == 62)
        try sync(desktop, server)
        #expect(await view(laptop) == view(desktop))

        // An edit on either side afterwards goes to the item the server made: still 62 items.
        let ids = (json(await laptop.output("log", "--json", "--last", "60").out) as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        #expect(ids.count == 60)
        #expect(await laptop.run("log", "edit", "\(ids[0])", "--note", "edited on the laptop") == 0)
        #expect(try sync(laptop, server).sent == 1)
        try sync(desktop, server)
        #expect(server.contents(calendarURL).count == 62)
        #expect(await view(laptop) == view(desktop))
        #expect(await desktop.output("log", "--json", "--last", "60").out.contains("edited on the laptop"))

        // A server that does not take such a write gets one request per item, as before.
        let other = FakeCalDAVServer()
        let third = try TestWorld.syncMachine(other)
        #expect(await third.run("task", "add", "Essay") == 0)
        for i in 0..<55 {
            #expect(await third.run("log", "add", "Essay", "--start", "2026-11-\(i % 20 < 9 ? "0" : "")\(i % 20 + 1) \(8 + i / 20):00", "--duration", "25m") == 0)
        }
        let start = other.requests
        #expect(try sync(third, other).sent == 56)
        #expect(other.requests - start == 1 + 1 + 1 + 56, "read, list, the refused write, then each item")
    }

    /// A quiet sync skips reading the items when the server reports nothing and the tables here
    /// are as the last sync left them; any change here, even a hand edit that sets an edit time
    /// back or a row deleted and another added, still goes with the next sync.
    @Test(arguments: [
        "UPDATE timeLog SET note = 'edited by hand'",
        "UPDATE timeLog SET note = 'clock set back', modifiedAt = 5",
        "UPDATE subtask SET estimateSeconds = 7200",
        "DELETE FROM timeLog WHERE id = (SELECT max(id) FROM timeLog)",
        "INSERT INTO timeLog (taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt) SELECT taskId, subtaskId, startedAt - 7200, endedAt - 7200, 1500, 1500, 'completed', createdAt FROM timeLog LIMIT 1",
        "DELETE FROM task WHERE title = 'Garden'",
    ])
    func aQuietSyncSkipsTheMergeButNeverAChangeMadeHere(_ change: String) async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Chapter 2") == 0)
        #expect(await laptop.run("task", "add", "Garden") == 0)
        #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-24 10:00", "--duration", "25m") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(try laptop.database.syncTarget()?.fingerprint != nil)
        let before = server.requests
        #expect(try sync(laptop, server) == SyncEngine.Summary())
        #expect(server.requests - before == 1)

        try laptop.database.writer.write { db in try db.execute(sql: change) }
        let sent = try sync(laptop, server)
        #expect(sent.sent + sent.deletedThere >= 1, "\(change)")
        try sync(desktop, server)
        #expect(await view(laptop) == view(desktop))
        #expect(try sync(laptop, server) == SyncEngine.Summary())
    }

    @Test func aSyncCutOffAfterAnyRequestNeverLosesOrDuplicatesASession() async throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let server = FakeCalDAVServer()
            let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
            #expect(await laptop.run("task", "add", "Thesis/Chapter 2") == 0)
            #expect(await desktop.run("task", "add", "Thesis") == 0)
            for i in 0..<4 {
                #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-2\(i) 09:00", "--duration", "25m") == 0)
                #expect(await desktop.run("log", "add", "Thesis", "--start", "2026-11-2\(i) 15:00", "--duration", "30m") == 0)
            }
            // Each machine is cut off once at a random request, then syncs to the end.
            for world in [laptop, desktop, laptop] {
                server.failAfter(Int.random(in: 0...8, using: &generator))
                _ = try? sync(world, server)
                server.failAfter(nil)
            }
            try sync(laptop, server)
            try sync(desktop, server)
            try sync(laptop, server)
            let laptopView = await view(laptop), desktopView = await view(desktop)
            #expect(laptopView == desktopView, "round \(round)")
            let sessions = server.contents(calendarURL).values.filter { String(decoding: $0, as: UTF8.self).contains("BEGIN:VEVENT") }
            #expect(sessions.count == 8, "round \(round): \(sessions.count) sessions on the server")
            let logged = json(await laptop.output("log", "--json", "--last", "30").out) as? [Any]
            #expect(logged?.count == 8, "round \(round)")
        }
    }

    @Test func aDeletionTravelsAndDoesNotComeBack() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Old/Thing") == 0)
        #expect(await laptop.run("log", "add", "Old/Thing", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await desktop.run("task", "rm", "Old", "--force") == 0)
        #expect(await laptop.run("task", "edit", "Old/Thing", "--notes", "edited meanwhile") == 0)
        try sync(desktop, server)
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await view(laptop) == view(desktop))
        #expect(await !laptop.output("task", "list", "--all").out.contains("Old"))
        #expect(server.contents(calendarURL).isEmpty)
    }

    @Test func aSessionRunningOnOneMachineShowsInTheOthersStatusUntilItEnds() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Chapter 2") == 0)
        // A countdown on the laptop, 12 minutes 40 seconds left at 19:00.
        let now = laptop.now.timeIntervalSince1970
        try laptop.database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, phase, state, cycle, cycles, workStartedAt, phaseStartedAt,
                  plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt)
                VALUES (1, ?, 1, 2, 'work', 'running', 1, 1, ?, ?, 1500, 1500, 740, 760, ?, ?)
                """, arguments: [getpid(), Int64(now) - 740, Int64(now) - 740, Int64(now) + 760, Int64(now)])
        }
        try sync(laptop, server)
        try sync(desktop, server)
        let status = await desktop.output("status").out
        #expect(status.contains("idle here · running on ") && status.contains(": Thesis/Chapter 2 (work), 12:40 left"), "\(status)")
        #expect(await desktop.output("status", "--json").out.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"state": "idle"}"#)
        // A quiet sync writes the checkpoint again only when it says something new.
        let before = server.requests
        try sync(laptop, server)
        #expect(server.requests - before == 1)

        try laptop.database.writer.write { db in try db.execute(sql: "DELETE FROM activeSession") }
        try sync(laptop, server)
        try sync(desktop, server)
        #expect(await desktop.output("status").out.trimmingCharacters(in: .whitespacesAndNewlines) == "idle")
        #expect(server.contents(calendarURL).keys.filter { $0.contains("running") }.isEmpty)
    }

    @Test func deletionsOfManyTasksTravelAndOtherProgramsEventsAreLeftAlone() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        server.store(calendarURL + "lunch.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:lunch@example.org\r\nDTSTART:20261125T110000Z\r\nDTEND:20261125T120000Z\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        for name in ["A", "B", "C", "D", "E", "F", "G"] { #expect(await laptop.run("task", "add", name) == 0) }
        try sync(laptop, server)
        try sync(desktop, server)
        for name in ["A", "B", "C", "D", "E", "F", "G"] { #expect(await laptop.run("task", "rm", name) == 0) }
        try sync(laptop, server)
        let applied = try sync(desktop, server)
        #expect(applied.deletedHere == 7)
        #expect(server.contents(calendarURL).keys.contains(calendarURL + "lunch.ics"))
    }
}
