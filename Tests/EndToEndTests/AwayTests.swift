import FocusCoreTestSupport
import Foundation
import Testing

/// Time behind a locked screen (README, "Away from the screen"), for real: a private D-Bus
/// session bus with scripts/servers/fake-screensaver, which locks 1 s after focus first looks at it and
/// unlocks 3 s later, while a 3 s countdown runs; or a private system bus with
/// scripts/servers/fake-logind, whose session's `LockedHint` does the same. No real bus is ever asked.
@Suite(.serialized, .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"))
struct AwayTests {
    static let lockedForThreeSeconds = "lock@1,unlock@4"

    /// `focus ARGS` on a private bus with a fake screen saver running SCRIPT (nil: none).
    /// With `binary: false`, ARGS is a whole command rather than focus's arguments.
    static func run(_ s: Sandbox, screenSaver script: String?, gnome: Bool = false, _ args: [String], binary: Bool = true) async throws -> Sandbox.Result {
        let launcher = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=" + s.dir.appendingPathComponent("no-system-bus").path
        environment["XDG_SESSION_ID"] = nil
        if let script {
            environment["WITH_NOTIFY_BUS_SCREENSAVER"] = script
            environment["WITH_NOTIFY_BUS_SCREENSAVER_ARGS"] = gnome ? "--gnome" : ""
        }
        let spawnEnvironment = environment
        return try await offPool {
            let r = try TestProcess.run(launcher, ["-", "--"] + (binary ? [Sandbox.binary] : []) + args, environment: spawnEnvironment, stdin: nil, capture: true)
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

    /// `focus ARGS` with no session bus and a private system bus (scripts/servers/with-system-bus) whose
    /// fake logind (scripts/servers/fake-logind) runs SCRIPT: logind's `LockedHint` is all there is to watch.
    static func run(_ s: Sandbox, logind script: String, sessionID: String?, _ args: [String]) async throws -> Sandbox.Result {
        let launcher = TestRepository.script("servers/with-system-bus")
        var environment = s.environment
        environment["XDG_RUNTIME_DIR"] = s.dir.path
        environment["XDG_SESSION_ID"] = sessionID
        let spawnEnvironment = environment
        return try await offPool {
            let r = try TestProcess.run(launcher, [script, "--", Sandbox.binary] + args, environment: spawnEnvironment, stdin: nil, capture: true)
            return Sandbox.Result(code: r.status, out: r.out, err: r.err)
        }
    }

    @Test func aLockSeenOnlyThroughLogindsLockedHintIsAway() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        try await s.run("config", "set", "notifications", "false")
        try await s.run("config", "set", "idle", "discard")
        // No $XDG_SESSION_ID: the watcher asks logind for the session of its own process.
        let r = try await AwayTests.run(s, logind: AwayTests.lockedForThreeSeconds, sessionID: nil,
                                        ["start", "Thesis", "--duration", "3s", "--no-break"])
        #expect(r.code == 0, "\(r.err)")
        let log = try #require(try await s.logs().first)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(log["status"] as? String == "completed")
        #expect(focused == 3)
        #expect(wall >= 5, "the 3 s behind the locked session came on top of the 3 s of work: \(wall) s")
        #expect((log["note"] as? String)?.hasPrefix("away ") == true, "\(log)")
    }

    @Test func doctorNamesLogindsLockedHintForTheSessionOfXDGSessionID() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("config", "set", "idle", "discard")
        let doctor = try await AwayTests.run(s, logind: "", sessionID: "1", ["doctor"])
        let line = doctor.out.split(separator: "\n").first { $0.hasPrefix("idle detection") }
        #expect(line?.contains("on: logind LockedHint; time at a locked screen: discard") == true, "\(doctor.out)")
        // A session logind does not know is nothing to watch.
        let unknown = try await AwayTests.run(s, logind: "", sessionID: "42", ["doctor"])
        let off = unknown.out.split(separator: "\n").first { $0.hasPrefix("idle detection") }
        #expect(off?.contains("off: no D-Bus session bus and no logind session") == true, "\(unknown.out)")
    }

    @Test func anOpenSessionLeavesOutTheTimeBehindALockedScreen() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        try await s.run("config", "set", "notifications", "false")
        try await s.run("config", "set", "idle", "discard")
        // Locked from 1 s to 4 s after the session starts watching; stopped from elsewhere 6 s
        // after it runs (no terminal: `ask` would behave as discard too).
        let focus = "'" + Sandbox.binary + "'"
        let script = """
            \(focus) start Thesis --open & pid=$!
            for i in $(seq 100); do \(focus) status --json | grep -q '"running"' && break; sleep 0.1; done
            sleep 6; \(focus) stop; wait $pid
            """
        let r = try await AwayTests.run(s, screenSaver: AwayTests.lockedForThreeSeconds, ["/bin/sh", "-c", script], binary: false)
        #expect(r.code == 0, "\(r.err)")
        let log = try #require(try await s.logs().first)
        let (wall, focused) = try AwayTests.seconds(log)
        #expect(log["status"] as? String == "open")
        #expect(wall >= 5, "\(wall) s")
        #expect(Double(focused) <= wall - 2, "the 3 s away are not focus: \(focused) of \(wall) s")
        #expect((log["note"] as? String)?.hasPrefix("away ") == true, "\(log)")
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
