import Foundation
import Testing

/// Time behind a locked screen (README, "Away from the screen"), for real: a private D-Bus
/// session bus with scripts/fake-screensaver, which locks 1 s after focus first looks at it and
/// unlocks 3 s later, while a 3 s countdown runs. No real system bus is ever asked (logind).
@Suite(.serialized, .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"))
struct AwayTests {
    static let lockedForThreeSeconds = "lock@1,unlock@4"

    /// `focus ARGS` on a private bus with a fake screen saver running SCRIPT (nil: none).
    static func run(_ s: Sandbox, screenSaver script: String?, gnome: Bool = false, _ args: [String]) async throws -> Sandbox.Result {
        let launcher = NotifyBus.repoRoot.appendingPathComponent("scripts/with-notify-bus").path
        var environment = s.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + s.dir.appendingPathComponent("no-system-bus").path
        environment["XDG_SESSION_ID"] = nil
        if let script {
            environment["WITH_NOTIFY_BUS_SCREENSAVER"] = script
            environment["WITH_NOTIFY_BUS_SCREENSAVER_ARGS"] = gnome ? "--gnome" : ""
        }
        let spawnEnvironment = environment
        return try await offPool {
            let r = try Spawn.run(launcher, ["-", "--", Sandbox.binary] + args, environment: spawnEnvironment, stdin: nil, capture: true)
            return Sandbox.Result(code: r.status, out: r.out, err: r.err)
        }
    }

    static func seconds(_ log: [String: Any]) throws -> (wall: Double, focused: Int) {
        let iso = ISO8601DateFormatter()
        let start = try #require((log["start"] as? String).flatMap(iso.date(from:)))
        let end = try #require((log["end"] as? String).flatMap(iso.date(from:)))
        return (end.timeIntervalSince(start), try #require(log["focused_seconds"] as? Int))
    }

    static func countdown(_ s: Sandbox, idle: String, screenSaver: String?, gnome: Bool = false) async throws -> [String: Any] {
        try await s.run("task", "add", "Thesis")
        try await s.run("config", "set", "notifications", "false")
        try await s.run("config", "set", "idle", idle)
        let r = try await run(s, screenSaver: screenSaver, gnome: gnome, ["start", "Thesis", "--duration", "3s", "--no-break"])
        #expect(r.code == 0, "\(r.err)")
        return try #require(try await s.logs().first)
    }

    @Test func withDiscardTheLockedTimeIsAPauseAndTheNoteSaysAway() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let log = try await AwayTests.countdown(s, idle: "discard", screenSaver: AwayTests.lockedForThreeSeconds)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(log["status"] as? String == "completed")
        #expect(focused == 3)
        #expect(wall >= 5, "the 3 s away came on top of the 3 s of work: \(wall) s")
        #expect((log["note"] as? String)?.hasPrefix("away ") == true, "\(log)")
    }

    @Test func withKeepTheLockedTimeCountsAsFocus() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let log = try await AwayTests.countdown(s, idle: "keep", screenSaver: AwayTests.lockedForThreeSeconds)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(log["status"] as? String == "completed")
        #expect(focused == 3 && wall == 3)
        #expect(log["note"] is NSNull, "\(log)")
    }

    @Test func askWithoutATerminalDiscardsAndGnomesScreenSaverIsWatchedToo() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let log = try await AwayTests.countdown(s, idle: "ask", screenSaver: AwayTests.lockedForThreeSeconds, gnome: true)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(focused == 3)
        #expect(wall >= 5, "\(wall) s")
        #expect((log["note"] as? String)?.hasPrefix("away ") == true, "\(log)")
    }

    @Test func withoutAScreenSaverNothingChangesAndDoctorSaysOff() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let log = try await AwayTests.countdown(s, idle: "discard", screenSaver: nil)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(focused == 3 && wall == 3)
        #expect(log["note"] is NSNull)
        let doctor = try await AwayTests.run(s, screenSaver: nil, ["doctor"])
        let line = doctor.out.split(separator: "\n").first { $0.hasPrefix("idle detection") }
        #expect(line?.contains("off: no screen saver on the D-Bus session bus") == true, "\(doctor.out)")
    }

    @Test func doctorNamesTheScreenSaverItWatches() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("config", "set", "idle", "discard")
        let doctor = try await AwayTests.run(s, screenSaver: "", ["doctor"])
        let line = doctor.out.split(separator: "\n").first { $0.hasPrefix("idle detection") }
        #expect(line?.contains("on: org.freedesktop.ScreenSaver; time at a locked screen: discard") == true, "\(doctor.out)")
    }

    @Test func withNoBusAtAllDoctorSaysOff() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        var environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + s.dir.appendingPathComponent("no-system-bus").path]
        environment["XDG_RUNTIME_DIR"] = s.dir.path
        let doctor = try await s.run(["doctor"], env: environment)
        let line = doctor.out.split(separator: "\n").first { $0.hasPrefix("idle detection") }
        #expect(line?.contains("off: no D-Bus session bus") == true, "\(doctor.out)")
    }
}
