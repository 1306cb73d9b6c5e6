import FocusCoreTestSupport
import Foundation
import Testing

/// Issue #40: a change that reaches the other machine must work there. Tuesday 24 November
/// 2026, 23:00 in Berlin: the plan's first free time is Wednesday 08:00.
private let now = "2026-11-24T23:00:00+01:00"
private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": now, "TZ": "Europe/Berlin"]

@Suite("what arrives through sync works there (Radicale)", .serialized,
       .enabled(if: RadicaleServer.available, Comment(rawValue: RadicaleServer.missing)))
struct SyncArrivalsTests {
    @Test("a feed subscribed on the laptop arrives on the desktop as no busy time that says it is not fetched yet, until the person there says yes to it")
    func aFeedFromTheOtherMachineIsFetchedBySync() async throws {
        let server = try RadicaleServer()
        let feed = try FeedServer()
        defer { feed.stop() }
        // Wednesday 08:00–12:00 in Berlin is taken.
        try feed.setFeed(RadicaleServer.event(uid: "fair@example.org", summary: "Book fair", start: "20261125T070000Z", end: "20261125T110000Z"))
        let laptop = try Sandbox(), desktop = try Sandbox()
        defer { laptop.remove(); desktop.remove() }
        for sandbox in [laptop, desktop] { try await sandbox.roundTheWeek() }
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await laptop.run(["calendar", "subscribe", feed.url(), "--name", "Fair"], env: direct).code == 0)
        #expect(try await desktop.run(["task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27"], env: direct).code == 0)
        for sandbox in [laptop, desktop] {
            #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        }
        #expect(try await laptop.run(["sync", "setup", "Focus"], env: direct).code == 0)
        let setup = try await desktop.run(["sync", "setup", "Focus"], env: direct)
        #expect(setup.code == 0 && setup.out.contains("Subscribed to calendar Fair"), "\(setup.out) \(setup.err)")
        // Not set up by the person on this machine: never contacted unasked (the stored-settings
        // rule, issue #39), and no failure either (issue #40): no busy time, and it says so.
        let list = try await desktop.run(["calendar", "list"], env: direct).out
        #expect(list.contains("Fair") && list.contains("not fetched yet"), "\(list)")
        let before = try await desktop.run(["plan", "--json"], env: direct)
        #expect(before.code == 0 && before.out.contains("\"start\": \"2026-11-25T07:00:00Z\""), "\(before.out) \(before.err)")
        // The person says yes by subscribing to it here too: fetched, and busy time from then on.
        #expect(try await desktop.run(["calendar", "subscribe", feed.url(), "--name", "Fair"], env: direct).code == 0)
        let fetched = try await desktop.run(["calendar", "list"], env: direct).out
        #expect(fetched.contains("Fair") && !fetched.contains("not fetched yet"), "\(fetched)")
        let plan = try await desktop.run(["plan", "--json"], env: direct)
        #expect(plan.code == 0 && plan.out.contains("\"start\": \"2026-11-25T11:00:00Z\""), "planned after the fair: \(plan.out) \(plan.err)")
    }
}
