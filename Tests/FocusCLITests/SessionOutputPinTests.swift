import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// `log`, `log --json` and `calendar busy --json` byte for byte, as scripts read them
/// (FocusRendering's `SessionRenderer` and `AgendaRenderer` build them).
@Suite struct SessionOutputPinTests {
    @Test func logAndItsJSONArePinned() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        await world.run("task", "add", "Side/Reading")
        await world.run("log", "add", "Side/Reading", "--start", "2026-11-22 08:00", "--duration", "25m", "--note", "ch. 3")
        let json = await world.output("log", "--json")
        #expect(json.code == 0, "\(json.err)")
        #expect(json.out == #"[{"id": 1, "task": "Side", "subtask": "Reading", "start": "2026-11-22T07:00:00Z", "end": "2026-11-22T07:25:00Z", "focused_seconds": 1500, "planned_seconds": 1500, "status": "completed", "block_id": null, "note": "ch. 3", "tags": []}]"# + "\n")
        let text = await world.output("log").out
        #expect(text == "Sun 22 Nov 2026  ·  25m\n  #1  08:00–08:25  25m     ✓  Side/Reading  “ch. 3”\n")
    }
}

/// `task add --json` and `config list` byte for byte (FocusRendering's `TaskRenderer` and
/// `ConfigRenderer` build them).
@Suite struct CommandOutputPinTests {
    @Test func taskAddJSONIsPinned() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        #expect(await world.output("task", "add", "Thesis", "--json").out == #"{"id": 1, "title": "Thesis"}"# + "\n")
        let sub = await world.output("task", "add", "Thesis/Chapter 2", "--json").out
        #expect(sub == #"{"id": 2, "task_id": 1, "path": "Thesis/Chapter 2"}"# + "\n")
    }

    @Test func configListIsPinned() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let json = await world.output("config", "list", "--json").out
        #expect(json.hasPrefix(#"{"work": "25m", "short_break": "5m", "long_break": "15m", "#), "\(json)")
        let text = await world.output("config", "list").out
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == [
            "work              25m          length of a work session (25m)",
            "short_break       5m           length of a short break (5m)",
            "long_break        15m          length of a long break (15m)",
        ])
        #expect(lines.contains("lunch             12:00-13:00  a gap kept free every working day, 12:00-13:00, or off (12:00-13:00)"))
        #expect(lines.suffix(3).first == "", "a blank line before the file's path")
        #expect(lines.suffix(2).first?.hasPrefix("File: ") == true)
    }
}

extension CommandOutputPinTests {
    /// `agenda --days N --json`: the range's keys around its days, in the contract's order.
    @Test func agendaRangeJSONIsPinned() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let r = await world.output("agenda", "2026-11-23", "--days", "2", "--json")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix(#"{"from": "2026-11-23", "to": "2026-11-24", "days": [{"blocks": [], "events": [], "sessions": [], "date": "2026-11-23", "free_seconds": "#), "\(r.out)")
        #expect(r.out.hasSuffix(#""at_risk": [], "overdue": [], "stale_calendars": []}"# + "\n"), "\(r.out)")
    }
}
