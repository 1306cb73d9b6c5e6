import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus status` of an open session (`start --open`): it counts up, with no end and no time left.
@Suite struct OpenSessionStatusTests {
    /// An open session on Thesis begun 12:34 ago, its last checkpoint 4 s ago.
    func openWorld(paused: Bool = false) async throws -> TestWorld {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        await world.run("task", "add", "Thesis")
        let target = try world.database.catalog().resolve("Thesis")
        let now = world.now
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 1, plannedSeconds: 0, remaining: .zero, isPaused: paused,
            phaseStartedAt: now.addingTimeInterval(-754), endsAt: nil, focusedSeconds: 750,
            workStartedAt: now.addingTimeInterval(-754), workPlannedSeconds: 0)
        _ = try world.database.claimSession(
            ActiveSession(pid: getpid(), taskID: target.taskID, subtaskID: nil, blockID: nil, snapshot: snapshot,
                          checkpointAt: now.addingTimeInterval(-4)),
            now: now, lock: {})
        return world
    }

    @Test func jsonHasElapsedSecondsAndNoEnd() async throws {
        let world = try await openWorld()
        let r = await world.output("status", "--json")
        #expect(r.code == 0, "\(r.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(json["state"] as? String == "running")
        #expect(json["phase"] as? String == "work")
        #expect(json["open"] as? Bool == true)
        #expect(json["elapsed_seconds"] as? Int == 754)
        #expect(json["ends_at"] == nil && json["remaining_seconds"] == nil, "\(json)")
    }

    @Test func theLineAndTheBarsCountUp() async throws {
        let world = try await openWorld()
        #expect(await world.output("status").out == "Thesis · work · 12:34 so far\n")
        #expect(await world.output("status", "--format", "{path} {elapsed} | {remaining}").out == "Thesis 12:34\n", "no time left to show")
        let paused = try await openWorld(paused: true)
        #expect(await paused.output("status").out == "Thesis · work · paused · 12:30 so far\n", "paused: the focus at the last checkpoint")
    }
}
