import FocusCore
import FocusCoreTestSupport
import FocusServices
import FocusTestSupport
import Foundation
import Testing

/// At most `SessionTags.maximumPerSession` tags on a session, typed, imported or from sync
/// (issue #39: a session from sync with 200,000 tags printed a 1.7 MB `log` line).
@Suite struct TagBoundTests {
    let many = (0...SessionTags.maximumPerSession).map { "t\($0)" }

    @Test func moreTagsThanASessionHoldsAreRefusedWhenTypedOrImported() async throws {
        let world = try TestWorld(now: "2026-11-25T09:00:00Z")
        #expect(await world.run("task", "add", "Thesis") == 0)
        let tags = many.flatMap { ["--tag", $0] }
        let added = await world.output(["log", "add", "Thesis", "--start", "2026-11-24 09:00", "--duration", "25m"] + tags)
        #expect(added.code == 64 && added.err.contains("at most \(SessionTags.maximumPerSession) tags"), "\(added.err)")
        #expect(await world.run(["log", "add", "Thesis", "--start", "2026-11-24 09:00", "--duration", "25m"] + tags.dropLast(2)) == 0)
        let edited = await world.output("log", "edit", "1", "--tag", "one-more")
        #expect(edited.code == 64, "\(edited.err)")
        let file = NSTemporaryDirectory() + "tags-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let list = many.map { "\"\($0)\"" }.joined(separator: ",")
        try #"{"task": "Thesis", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T09:25:00Z", "status": "completed", "tags": [\#(list)]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = await world.output("import", file)
        #expect(imported.code == 65 && imported.err.contains(".jsonl:1: ") && imported.err.contains("tags on one session"), "\(imported.err)")
    }

    @Test func aSessionFromSyncKeepsTheFirstTagsWithAWarning() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server), desktop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis") == 0)
        #expect(await laptop.run("log", "add", "Thesis", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        _ = try laptop.syncRound(server)
        let calendar = TestWorld.syncCalendarURL
        let (url, data) = try #require(server.contents(calendar).first { String(decoding: $0.value, as: UTF8.self).contains("CATEGORIES:focus") })
        let lines = (0..<20).map { n in "CATEGORIES:" + (0..<10).map { "x\(n)-\($0)" }.joined(separator: ",") + "\r\n" }.joined()
        server.store(url, String(decoding: data, as: UTF8.self).replacingOccurrences(of: "END:VEVENT", with: lines + "END:VEVENT"))
        let summary = try desktop.syncRound(server)
        #expect(summary.warnings.contains { $0.contains("has 200 tags: the first \(SessionTags.maximumPerSession) are kept") }, "\(summary.warnings)")
        let listed = await desktop.output("log", "--json", "--last", "30").out
        let logs = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect((logs.first?["tags"] as? [String])?.count == SessionTags.maximumPerSession, "\(listed.prefix(300))")
    }
}
