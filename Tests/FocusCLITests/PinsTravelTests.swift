import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Issue #40: pins travel. A block dragged in the calendar app is pinned on the machine that
/// publishes; through the sync calendar it is pinned on every machine, and `plan --unpin`
/// travels too. Tuesday 24 November 2026, 23:00 in Berlin: the first free time is Wednesday 08:00.
private func planStarts(_ world: TestWorld) async -> [String] {
    let out = await world.output("plan", "--json").out
    let json = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any]
    return (json?["blocks"] as? [[String: Any]] ?? []).compactMap { $0["start"] as? String }
}

@Suite struct PinsTravelTests {
    @Test func aBlockDraggedOnThePhoneIsPinnedOnEveryMachineAndUnpinningTravelsToo() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server, now: "2026-11-24T22:00:00Z")
        let desktop = try TestWorld.syncMachine(server, now: "2026-11-24T22:00:00Z")
        // About pins, not the working week: hours from 08:00 every day, no lunch gap or cap.
        for world in [laptop, desktop] { world.config = TestWorld.roundTheWeek }
        laptop.caldav = server
        try laptop.trustStoredSettings()
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        try laptop.syncRound(server)
        try desktop.syncRound(server)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        let planURL = "https://dav.example.org/calendars/alice/focus-plan/"
        let (url, text) = try #require(server.contents(planURL).map { ($0.key, String(decoding: $0.value, as: UTF8.self)) }
            .first { $0.1.contains("DTSTART:20261125T070000Z") })
        // Dragged to 14:00 on the phone.
        server.store(url, text.replacingOccurrences(of: "DTSTART:20261125T070000Z", with: "DTSTART;TZID=Europe/Berlin:20261125T140000")
            .replacingOccurrences(of: "DTEND:20261125T072500Z", with: "DTEND;TZID=Europe/Berlin:20261125T142500")
            .replacingOccurrences(of: "END:VEVENT", with: "SEQUENCE:1\r\nEND:VEVENT"))
        #expect(await laptop.output("plan").err.contains("Thesis/Draft is pinned at"))
        #expect(await planStarts(laptop) == ["2026-11-25T07:00:00Z", "2026-11-25T13:00:00Z"])

        try laptop.syncRound(server)
        let arrived = try desktop.syncRound(server)
        #expect(arrived.settings.contains { $0.contains("Thesis/Draft is pinned at Wed 25 Nov 14:00, as on the other machines") }, "\(arrived.settings)")
        #expect(await planStarts(desktop) == ["2026-11-25T07:00:00Z", "2026-11-25T13:00:00Z"], "the same plan on both")
        #expect(await desktop.output("plan").out.contains("Thesis/Draft  planned (pinned)"))
        #expect(try desktop.syncRound(server).settings.isEmpty, "said once")

        #expect(await laptop.output("plan", "--unpin", "Thesis").code == 0)
        try laptop.syncRound(server)
        let unpinned = try desktop.syncRound(server)
        #expect(unpinned.settings.contains { $0.contains("Thesis/Draft is no longer pinned: unpinned on another machine") }, "\(unpinned.settings)")
        let (here, there) = (await planStarts(laptop), await planStarts(desktop))
        #expect(here == there && !there.contains("2026-11-25T13:00:00Z"), "\(here) \(there)")
    }
}
