import FocusCoreTestSupport
import Foundation
import Testing

/// `focus daemon` refreshing a subscribed feed (README, "Your real calendar"): the built binary on a
/// private D-Bus session bus with the recording notification server, a `FeedServer` feed, and
/// `FOCUS_NOW` pinned so the subscription's fetch is older than `calendar_refresh` at start-up.
@Suite(.serialized, .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"))
struct DaemonCalendarRefreshTests {
    /// Monday 2026-11-23 08:00 in Berlin; the daemon starts 20 minutes later.
    static let subscribedAt = "2026-11-23T07:00:00Z"
    static let daemonAt = "2026-11-23T07:20:00Z"
    static let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "3000"]

    static func calendar(_ events: [(uid: String, start: String, end: String, summary: String)]) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus tests//EN", "X-WR-CALNAME:Work"]
        for e in events {
            lines += ["BEGIN:VEVENT", "UID:\(e.uid)", "DTSTAMP:20261101T000000Z", "DTSTART:\(e.start)", "DTEND:\(e.end)",
                      "SUMMARY:\(e.summary)", "END:VEVENT"]
        }
        return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static let otherDay = (uid: "other@focus.test", start: "20261130T090000Z", end: "20261130T100000Z", summary: "Dentist")

    /// A sandbox subscribed to `server` at `subscribedAt`, with Thesis/Chapter 2 planned at 10:00 (Berlin).
    static func subscribed(_ server: FeedServer) async throws -> Sandbox {
        let s = try Sandbox()
        let at = direct.merging(["FOCUS_NOW": subscribedAt]) { $1 }
        try server.setFeed(calendar([otherDay]))
        for args in [["config", "set", "day_start", "10:00"], ["config", "set", "calendar_refresh", "1m"],
                     ["task", "add", "Thesis/Chapter 2", "--estimate", "25m", "--due", "2026-11-23T18:00:00+01:00"],
                     ["calendar", "subscribe", server.url()]] {
            let r = try await s.run(args, env: at)
            #expect(r.code == 0, "\(args): \(r.err)")
        }
        return s
    }

    /// Runs the daemon on the bus until `until` holds of the record (at most 30 s), then SIGTERM.
    static func runDaemon(_ s: Sandbox, record: String, at now: String, extra: [String: String] = [:], until grep: String) async throws -> Sandbox.Result {
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment.merging(direct) { $1 }.merging(extra) { $1 }
        environment["FOCUS_NOW"] = now
        let env = environment
        let shell = """
            "$0" daemon & p=$!; i=0
            while [ $i -lt 300 ] && ! grep -q -- "$2" "$1" 2>/dev/null; do sleep 0.1; i=$((i+1)); done
            kill -TERM $p; wait $p
            """
        return try await offPool {
            let r = try TestProcess.run(script, [record, "--", "/bin/sh", "-c", shell, Sandbox.binary, record, grep], environment: env, stdin: nil, capture: true)
            return Sandbox.Result(code: r.status, out: r.out, err: r.err)
        }
    }

    @Test func aNewEventOverAPlannedBlockMovesItAndTheNotificationSaysSo() async throws {
        let daemonAt = DaemonCalendarRefreshTests.daemonAt
        let server = try FeedServer()
        let s = try await DaemonCalendarRefreshTests.subscribed(server)
        defer { s.remove() }
        let before = try await s.run(["agenda", "--json"], env: ["FOCUS_NOW": DaemonCalendarRefreshTests.daemonAt])
        #expect(before.out.contains("\"start\": \"2026-11-23T09:00:00Z\""), "planned at 10:00 Berlin: \(before.out)")

        // 10:00–11:00 in Berlin, over the block.
        try server.setFeed(DaemonCalendarRefreshTests.calendar([
            DaemonCalendarRefreshTests.otherDay,
            (uid: "meeting@focus.test", start: "20261123T090000Z", end: "20261123T100000Z", summary: "Supervisor meeting"),
        ]))
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let r = try await DaemonCalendarRefreshTests.runDaemon(s, record: record, at: daemonAt, until: "moved")
        #expect(r.code == 0, "\(r.err)")
        let summaries = try DaemonTests.summaries(record)
        let moved = try #require(summaries.first { $0.contains("moved") }, "no 'moved' notice: \(summaries) \(r.err)")
        #expect(moved.hasPrefix("Thesis/Chapter 2 moved 10:00 → "))
        #expect(moved.hasSuffix(": new event 'Supervisor meeting'"))
        #expect(r.err.contains("plan changed: Thesis/Chapter 2 moved 10:00 → "), "logged as the daemon's other events: \(r.err)")

        let after = try await s.run(["agenda", "--json"], env: ["FOCUS_NOW": DaemonCalendarRefreshTests.daemonAt])
        let object = try JSONSerialization.jsonObject(with: Data(after.out.utf8)) as? [String: Any]
        let starts = (object?["blocks"] as? [[String: Any]] ?? []).compactMap { $0["start"] as? String }
        #expect(!starts.isEmpty && starts.allSatisfy { $0 >= "2026-11-23T10:00:00Z" }, "after the meeting: \(starts)")
        #expect(moved.contains("→ " + Self.berlinTime(try #require(starts.first))), "the notice names the new start: \(moved) \(starts)")
    }

    /// `2026-11-23T10:00:00Z` → `11:00` (Berlin is UTC+1 in November).
    static func berlinTime(_ utc: String) -> String {
        let parts = utc.dropFirst(11).prefix(5).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { return utc }
        return String(format: "%02d:%02d", (parts[0] + 1) % 24, parts[1])
    }

    @Test func aHangingFeedNeverDelaysAReminder() async throws {
        let server = try FeedServer()
        let s = try await DaemonCalendarRefreshTests.subscribed(server)
        defer { s.remove() }
        try server.set(mode: "hang")
        // The block starts at 10:00 Berlin; the daemon starts 2 s before, while the feed hangs for 20 s.
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let r = try await DaemonCalendarRefreshTests.runDaemon(
            s, record: record, at: "2026-11-23T08:59:58Z", extra: ["FOCUS_HTTP_TIMEOUT_MS": "20000"], until: "starts now")
        #expect(r.code == 0, "\(r.err)")
        #expect(try DaemonTests.summaries(record).contains { $0.hasPrefix("Thesis/Chapter 2 — 25 min block starts now") })
        #expect(!r.err.contains("calendar 'Work' was not refreshed"), "the reminder came before the fetch gave up: \(r.err)")
    }
}

