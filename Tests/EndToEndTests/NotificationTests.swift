import FocusCoreTestSupport
import Foundation
import Testing

/// Desktop notifications for real: a private D-Bus session bus with the project's recording
/// notification server (scripts/servers/notify-recorder), and the same run with no server at all.
@Suite(.serialized, .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"))
struct NotificationTests {
    @Test func aCompletedSessionPostsExactlyTheCompletionNotice() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "R&D <draft>/Chapter 2")
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let r = try await NotifyBus.run(s, record: record, ["start", "R&D <draft>/Chapter 2", "--duration", "2s", "--no-break"])
        #expect(r.code == 0, "\(r.err)")
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "exactly one notice: \(lines)")
        let notice = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(notice["app_name"] as? String == "focus")
        #expect(notice["summary"] as? String == "Focus complete: R&D <draft>/Chapter 2")
        #expect(notice["body"] as? String == "2s done · 2s today")
        #expect(notice["urgency"] as? Int == 2, "critical: stays until dismissed")
        #expect(!r.err.contains("unavailable"))
        #expect(try await s.logs().first?["status"] as? String == "completed")
    }

    @Test func withNoNotificationServerTheSessionStillCompletesWithTheFallback() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let r = try await NotifyBus.run(s, record: "-", ["start", "Thesis", "--duration", "2s", "--no-break"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("desktop notifications unavailable"), "\(r.err)")
        #expect(r.err.components(separatedBy: "desktop notifications unavailable").count == 2, "warned once")
        #expect(r.err.contains("🔔 Focus complete: Thesis"))
        #expect(try await s.logs().first?["status"] as? String == "completed")
    }

    @Test func doctorNamesTheNotificationServer() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let r = try await NotifyBus.run(s, record: record, ["doctor", "--notify"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("focus-recorder 1.0 by focus (spec 1.2)"), "\(r.out)")
        #expect(try String(contentsOfFile: record, encoding: .utf8).contains("focus test notification"))
    }
}

enum NotifyBus {
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-run-session")
            && (try? TestProcess.run("/usr/bin/python3", ["-c", "import dbus, gi"], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: false).status) == 0
    }

    /// `scripts/servers/with-notify-bus RECORD -- focus ARGS...`
    static func run(_ s: Sandbox, record: String, _ args: [String]) async throws -> Sandbox.Result {
        let script = TestRepository.script("servers/with-notify-bus")
        return try await offPool {
            let r = try TestProcess.run(script, [record, "--", Sandbox.binary] + args, environment: s.environment, stdin: nil, capture: true)
            return Sandbox.Result(code: r.status, out: r.out, err: r.err)
        }
    }
}
