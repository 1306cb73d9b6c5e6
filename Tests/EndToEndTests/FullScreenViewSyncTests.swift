import FocusCoreTestSupport
import Foundation
import Testing

/// `R` in `focus ui` fetches the calendars and then syncs, when sync is set up (README, "The
/// full-screen view"): work added on the other machine appears in the view.
@Suite(.serialized, .enabled(if: Terminal.available && RadicaleServer.available, Comment(rawValue: RadicaleServer.missing)))
struct FullScreenViewSyncTests {
    static let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000"]

    func machine(_ server: RadicaleServer) async throws -> Sandbox {
        let s = try Sandbox()
        let connect = try await s.run(["calendar", "connect", server.rootURL, "--user", server.user,
                                       "--password-command", "printf '%s\\n' '\(server.password)'"], env: Self.direct)
        #expect(connect.code == 0, "\(connect.err)")
        return s
    }

    @Test func capitalRSyncsAfterTheCalendarsAndTheOtherMachinesWorkAppears() async throws {
        let server = try RadicaleServer()
        let laptop = try await machine(server)
        let desktop = try await machine(server)
        let t = Terminal(sandbox: laptop)
        defer { t.kill(); laptop.remove(); desktop.remove() }
        #expect(try await laptop.run(["sync", "setup", "Focus"], env: Self.direct).code == 0)
        #expect(try await desktop.run(["sync", "setup", "Focus"], env: Self.direct).code == 0)
        #expect(try await desktop.run(["task", "add", "Garden/Plant bulbs"], env: Self.direct).code == 0)
        #expect(try await desktop.run(["sync"], env: Self.direct).code == 0)
        let env = Self.direct.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        try await t.start("\(env) \(Sandbox.binary) ui; echo EXIT=$?")
        try await t.waitFor("[1 Today]")
        try await t.keys("3")
        try await t.waitFor("[3 Tasks]")
        #expect(!Terminal.plain(t.transcript).contains("Plant bulbs"))
        try await t.keys("R")
        try await t.waitFor("Plant bulbs", seconds: 20)
        try await t.keys("q")
        try await t.waitFor("EXIT=0")
    }
}
