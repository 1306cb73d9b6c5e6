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
