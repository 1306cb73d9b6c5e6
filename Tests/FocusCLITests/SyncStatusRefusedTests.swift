import FocusCore
import FocusCoreTestSupport
import FocusTestSupport
import Foundation
import Testing

/// `sync status` lists what a sync did not apply apart from the edits made on two machines,
/// each reason once (issue #39: refusals were listed as "changed on both machines", each text
/// twice).
@Suite struct SyncStatusRefusedTests {
    @Test func aRefusedItemIsListedOnceUnderNotAppliedHere() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis") == 0)
        #expect(await laptop.run("log", "add", "Thesis", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        _ = try laptop.syncRound(server)
        let calendar = TestWorld.syncCalendarURL
        let (url, data) = try #require(server.contents(calendar).first { String(decoding: $0.value, as: UTF8.self).contains("CATEGORIES:focus") })
        let text = String(decoding: data, as: UTF8.self)
        let end = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("DTEND") })
        server.store(url, text.replacingOccurrences(of: String(end), with: "DTEND:20261101T000000Z"))
        _ = try desktop.syncRound(server)
        let status = await desktop.output("sync", "status").out
        #expect(status.contains("No conflicts in the last 30 days.") && status.contains("Not applied here (last 30 days):"), "\(status)")
        let refused = try #require(status.split(separator: "\n").first { $0.contains("ends before it starts") })
        #expect(refused.components(separatedBy: "ends before it starts").count == 2, "said once: \(refused)")
    }
}
