import ArgumentParser
import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// A subtask's priority and daily cap travel with sync (README, "Two machines"): `PRIORITY` in
/// the to-do (RFC 5545 section 3.8.1.9: 1 high, 5 or none normal, 9 low; another app's 1–4 read
/// as high, 0 and 5 as normal, 6–9 as low) and `X-FOCUS-MAX-PER-DAY` (a DURATION, `PT2H`). What
/// another app wrote stays as written while it means what focus holds.
private let calendarURL = TestWorld.syncCalendarURL
private let endpoint = TestWorld.syncEndpoint

private func machine(_ server: FakeCalDAVServer) throws -> TestWorld { try TestWorld.syncMachine(server) }

@discardableResult
private func sync(_ world: TestWorld, _ server: FakeCalDAVServer) throws -> SyncEngine.Summary { try world.syncRound(server) }

/// The subtask's `priority` and `max_per_day_seconds` as `task list --json` gives them.
private func draft(_ world: TestWorld, _ title: String = "Draft") async -> (priority: String?, cap: Int?) {
    let out = await world.output("task", "list", "--all", "--json").out
    let tasks = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
    let sub = tasks.flatMap { $0["subtasks"] as? [[String: Any]] ?? [] }.first { $0["title"] as? String == title }
    return (sub?["priority"] as? String, sub?["max_per_day_seconds"] as? Int)
}

/// The subtask's to-do in the calendar (unfolded), and its address there.
private func todo(_ server: FakeCalDAVServer, _ title: String = "Draft") throws -> (url: String, text: String) {
    let found = server.contents(calendarURL).map { ($0.key, String(decoding: $0.value, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")) }
        .first { $0.1.contains("SUMMARY:\(title)\r\n") && $0.1.contains("BEGIN:VTODO") }
    let (url, text) = try #require(found)
    return (url, text)
}

/// The to-do as another app edits it: `from` replaced by `to`.
private func edit(_ server: FakeCalDAVServer, _ from: String, _ to: String, title: String = "Draft") throws {
    let (url, text) = try todo(server, title)
    #expect(text.contains(from), "\(text)")
    server.store(url, text.replacingOccurrences(of: from, with: to))
}

@Suite struct SyncPriorityCapTests {
    @Test func priorityAndDailyCapSetOnOneMachineArriveOnTheOther() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "3h", "--due", "2026-11-30", "--priority", "high",
                                 "--max-per-day", "1h30m") == 0)
        try sync(laptop, server)
        let written = try todo(server).text
        #expect(written.contains("PRIORITY:1\r\n") && written.contains("X-FOCUS-MAX-PER-DAY:PT1H30M\r\n"), "\(written)")
        try sync(desktop, server)
        #expect(await draft(desktop) == ("high", 5400))

        // Changed on the desktop: low is 9, and a cap cleared is no line at all.
        #expect(await desktop.run("task", "edit", "Thesis/Draft", "--priority", "low", "--max-per-day", "none") == 0)
        try sync(desktop, server)
        let low = try todo(server).text
        #expect(low.contains("PRIORITY:9\r\n") && !low.contains("X-FOCUS-MAX-PER-DAY"), "\(low)")
        try sync(laptop, server)
        #expect(await draft(laptop) == ("low", nil))

        // Normal is no PRIORITY at all.
        #expect(await laptop.run("task", "edit", "Thesis/Draft", "--priority", "normal") == 0)
        try sync(laptop, server)
        #expect(!(try todo(server).text.contains("PRIORITY")))
        try sync(desktop, server)
        #expect(await draft(desktop) == ("normal", nil))
    }

    @Test func anotherAppsValuesAreReadAndKeptAsWrittenWhileTheyMeanTheSame() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "3h", "--due", "2026-11-30", "--priority", "high",
                                 "--max-per-day", "1h") == 0)
        try sync(laptop, server)
        try sync(desktop, server)
        // Another app writes high as 2 and the same cap in minutes: nothing changes here, and a
        // write from here (a new estimate) keeps both as that app wrote them.
        try edit(server, "PRIORITY:1\r\n", "PRIORITY:2\r\n")
        try edit(server, "X-FOCUS-MAX-PER-DAY:PT1H\r\n", "X-FOCUS-MAX-PER-DAY:PT60M\r\n")
        try sync(laptop, server)
        #expect(await draft(laptop) == ("high", 3600))
        #expect(await laptop.run("task", "edit", "Thesis/Draft", "--estimate", "4h") == 0)
        try sync(laptop, server)
        let kept = try todo(server).text
        #expect(kept.contains("X-FOCUS-ESTIMATE:14400\r\n"), "\(kept)")
        #expect(kept.contains("PRIORITY:2\r\n") && !kept.contains("PRIORITY:1\r\n"), "\(kept)")
        #expect(kept.contains("X-FOCUS-MAX-PER-DAY:PT60M\r\n") && !kept.contains("X-FOCUS-MAX-PER-DAY:PT1H\r\n"), "\(kept)")

        // 6 to 9 are low, 0 is normal (undefined), a cap of two hours as P-less seconds too.
        try edit(server, "PRIORITY:2\r\n", "PRIORITY:7\r\n")
        try sync(desktop, server)
        #expect(await draft(desktop).priority == "low")
        try edit(server, "PRIORITY:7\r\n", "PRIORITY:0\r\n")
        try edit(server, "X-FOCUS-MAX-PER-DAY:PT60M\r\n", "X-FOCUS-MAX-PER-DAY:PT2H\r\n")
        try sync(desktop, server)
        #expect(await draft(desktop) == ("normal", 7200))
        try sync(laptop, server)
        #expect(await draft(laptop) == ("normal", 7200))
        // Set high here again: focus's own 1 replaces the other app's 0.
        #expect(await laptop.run("task", "edit", "Thesis/Draft", "--priority", "high") == 0)
        try sync(laptop, server)
        let high = try todo(server).text
        #expect(high.contains("PRIORITY:1\r\n") && !high.contains("PRIORITY:0\r\n"), "\(high)")
    }

    @Test func aSubtaskAnotherAppMadeTakesItsPriority() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server)
        #expect(await laptop.run("task", "add", "Thesis") == 0)
        try sync(laptop, server)
        let thesis = try #require(server.contents(calendarURL).values.map { String(decoding: $0, as: UTF8.self) }
            .first { $0.contains("SUMMARY:Thesis\r\n") })
        let uid = try #require(thesis.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        server.store(calendarURL + "call.ics", """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//Tasks//EN\r\nBEGIN:VTODO\r\nUID:call@phone\r\nDTSTAMP:20261124T100000Z\r
            SUMMARY:Call the supervisor\r\nRELATED-TO:\(uid)\r\nPRIORITY:3\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """)
        try sync(laptop, server)
        #expect(await draft(laptop, "Call the supervisor").priority == "high")
        // Left as the other app wrote it when focus writes the to-do back.
        #expect(await laptop.run("task", "edit", "Thesis/Call the supervisor", "--estimate", "20m") == 0)
        try sync(laptop, server)
        let text = try todo(server, "Call the supervisor").text
        #expect(text.contains("PRIORITY:3\r\n") && text.contains("X-FOCUS-ESTIMATE:1200"), "\(text)")
    }
}
