import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// A to-do whose kind changed in another app (dragged under a task, or out from under one)
/// moves here with its work, as `SyncArrival` decides and Storage performs (README, "Two
/// machines"; issue #43).
private let calendarURL = TestWorld.syncCalendarURL

private func member(_ server: FakeCalDAVServer, _ summary: String) throws -> (url: String, text: String) {
    let hits = server.contents(calendarURL).map { (url: $0.key, text: String(decoding: $0.value, as: UTF8.self)) }
        .filter { $0.text.contains("BEGIN:VTODO\r\n") && $0.text.contains("SUMMARY:\(summary)\r\n") }
    try #require(hits.count == 1, "VTODO \(summary): \(hits.map(\.text))")
    return hits[0]
}

private func uid(_ text: String) throws -> String {
    try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) })
}

/// The to-do `summary` as another app changed it: `edit` applied to its text, and no longer
/// focus's own edit time (the other app's is newer).
private func edit(_ server: FakeCalDAVServer, _ summary: String, _ edit: (String) throws -> String) throws {
    let todo = try member(server, summary)
    server.store(todo.url, try edit(todo.text).replacingOccurrences(of: "X-FOCUS-MODIFIED:", with: "X-FOCUS-OLD:"))
}

private func logged(_ world: TestWorld) async -> [String] {
    let out = await world.output("log", "--json", "--last", "60").out
    let rows = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
    return rows.map { "\($0["task"] as? String ?? "?")/\($0["subtask"] as? String ?? "-")" }.sorted()
}

@Suite struct SyncKindMoveTests {
    /// Errand dragged under Thesis: its own session goes to the new subtask Thesis/Errand, its
    /// subtasks (nested to-dos attach to the nearest task) to Thesis with their sessions, one
    /// whose title Thesis has already under a free one; nothing is left of the task Errand.
    @Test func aTaskDraggedUnderAnotherMovesWithItsSubtasksAndSessions() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        for path in ["Thesis/Intro", "Errand/Intro", "Errand/Shop"] { #expect(await one.run("task", "add", path) == 0) }
        #expect(await one.run("log", "add", "Errand", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        #expect(await one.run("log", "add", "Errand/Shop", "--start", "2026-11-24 10:00", "--duration", "25m") == 0)
        #expect(await one.run("log", "add", "Errand/Intro", "--start", "2026-11-24 11:00", "--duration", "25m") == 0)
        try one.syncRound(server)
        let thesis = try uid(member(server, "Thesis").text)
        try edit(server, "Errand") { $0.replacingOccurrences(of: "X-FOCUS-KIND:task\r\n", with: "RELATED-TO:\(thesis)\r\n") }
        try one.syncRound(server)
        #expect(await logged(one) == ["Thesis/Errand", "Thesis/Intro (2)", "Thesis/Shop"])
        #expect(await one.run("task", "show", "Errand") != 0)
        for path in ["Thesis/Intro", "Thesis/Intro (2)", "Thesis/Shop", "Thesis/Errand"] {
            #expect(await one.run("task", "show", path) == 0, "\(path)")
        }
    }

    /// Errand dragged under Thesis while a subtask Errand/Intro made here since was not sent
    /// yet: Thesis has an Intro, so that one cannot move with the rest, and the task Errand
    /// stays for it (without the shared name) until Intro arrives again under Thesis in the
    /// same sync. What comes first depends on the order the round applies them in; either way
    /// no session is lost.
    @Test func aTaskDraggedUnderAnotherKeepsASubtaskWhoseTitleIsTakenThere() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        for path in ["Thesis/Intro", "Errand/Shop"] { #expect(await one.run("task", "add", path) == 0) }
        #expect(await one.run("log", "add", "Errand", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        try one.syncRound(server)
        #expect(await one.run("task", "add", "Errand/Intro") == 0)
        #expect(await one.run("log", "add", "Errand/Intro", "--start", "2026-11-24 11:00", "--duration", "25m") == 0)
        let thesis = try uid(member(server, "Thesis").text)
        try edit(server, "Errand") { $0.replacingOccurrences(of: "X-FOCUS-KIND:task\r\n", with: "RELATED-TO:\(thesis)\r\n") }
        try one.syncRound(server)
        let log = await logged(one)
        // Errand/Intro kept, or under Thesis (as the same work as Thesis/Intro, or beside it).
        #expect(log.count == 2 && log.contains("Thesis/Errand") && log.contains { $0.hasSuffix("/Intro") || $0.hasSuffix("/Intro (2)") }, "\(log)")
        for path in ["Thesis/Intro", "Thesis/Shop", "Thesis/Errand"] {
            #expect(await one.run("task", "show", path) == 0, "\(path)")
        }
    }

    /// A subtask dragged out from under its task becomes a task, with its sessions (now on the
    /// task itself); the subtask row goes.
    @Test func aSubtaskDraggedOutBecomesATaskWithItsSessions() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis/Intro") == 0)
        #expect(await one.run("log", "add", "Thesis/Intro", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        try one.syncRound(server)
        try edit(server, "Intro") { text in
            text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("RELATED-TO") }.joined(separator: "\r\n")
                .replacingOccurrences(of: "X-FOCUS-KIND:subtask\r\n", with: "X-FOCUS-KIND:task\r\n")
        }
        try one.syncRound(server)
        #expect(await logged(one) == ["Intro/-"])
        #expect(await one.run("task", "show", "Thesis/Intro") != 0)
        #expect(await one.run("task", "show", "Intro") == 0)
    }
}
