import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus start PATH --open` (counts up until stopped, recorded as open), `focus continue`, and
/// signals that reach a countdown however soon they come.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct OpenSessionTests {
    func status(_ s: Sandbox) async throws -> [String: Any] {
        let r = try await s.run("status", "--json")
        return (try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func anOpenSessionCountsUpShowsItsElapsedTimeAndIsRecordedOpenByStop() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await t.start("\(Sandbox.binary) start 'Thesis/Chapter 2' --open; echo EXIT=$?")
        try await t.waitFor("● WORK")
        try await t.waitFor("so far")
        var json: [String: Any] = [:]
        // Status counts from the last checkpoint, stored in whole seconds (rounded down), so it
        // may be up to a second ahead of the countdown's own count: 3 s shown is more than 2 s
        // run, whatever fraction of a second the session started at.
        _ = await eventually { json = (try? await status(s)) ?? [:]; return (json["elapsed_seconds"] as? Int ?? 0) >= 3 }
        #expect(json["state"] as? String == "running")
        #expect(json["phase"] as? String == "work")
        #expect(json["ends_at"] == nil && json["remaining_seconds"] == nil, "an open session has no end: \(json)")
        #expect((json["elapsed_seconds"] as? Int ?? 0) >= 2, "\(json)")
        #expect(try await s.run("status").out.contains("so far"))
        let stop = try await s.run("stop", "--reason", "done for now")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("recorded as open"), "\(stop.out)")
        let screen = try await t.waitFor("EXIT=0")
        #expect(!screen.contains("Why did you stop?"), "\(screen)")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "open")
        #expect(log["planned_seconds"] is NSNull, "\(log)")
        #expect((log["focused_seconds"] as? Int ?? 0) >= 2, "\(log)")
        #expect(log["note"] as? String == "done for now")
        // Counted in the totals, never in the completion rate.
        let stats = try await s.run("stats", "--json")
        let totals = try #require((try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])?["totals"] as? [String: Any])
        #expect((totals["focused_seconds"] as? Int ?? 0) >= 2, "\(totals)")
        #expect(totals["completed"] as? Int == 0 && totals["interrupted"] as? Int == 0, "\(totals)")
    }

    @Test func stopAsksWhyOnlyOfACountdownLeftEarlyNeverOfAStopwatch() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --open; echo EXIT=$?")
        try await t.waitFor("so far")
        let open = try await s.run("stop")
        #expect(open.out.contains("recorded as open"), "\(open.out)")
        #expect(!open.out.contains("Say why"), "stopping is a stopwatch's normal end: \(open.out)")
        try await t.waitFor("EXIT=0")
        let countdown = Terminal(sandbox: s)
        defer { countdown.kill() }
        try await countdown.start("\(Sandbox.binary) start Thesis --duration 25m; echo EXIT=$?")
        try await countdown.waitFor("● WORK")
        let early = try await s.run("stop")
        #expect(early.out.contains("recorded as interrupted"), "\(early.out)")
        #expect(early.out.contains("Say why with `focus log edit"), "\(early.out)")
    }

    @Test func qEndsAnOpenSessionWithoutAskingWhy() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --open; echo EXIT=$?")
        try await t.waitFor("so far")
        try await Task.sleep(for: .seconds(1))
        try await t.keys("q")
        let screen = try await t.waitFor("EXIT=0")
        #expect(screen.contains("Recorded as open"), "\(screen)")
        #expect(!screen.contains("Why did you stop?"), "\(screen)")
        #expect(try await s.logs().first?["status"] as? String == "open")
    }

    @Test func openWithADurationIsAUsageError() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let r = try await s.run("start", "Thesis", "--open", "--duration", "25m")
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: ") && r.err.contains("--open"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    }

    @Test func continueStartsTheTaskOfTheSessionThatEndedLast() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        let none = try await s.run("continue")
        #expect(none.code == 64)
        #expect(none.err.contains("nothing to continue"), "\(none.err)")
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await s.run("task", "add", "Admin")
        #expect(try await s.run("log", "add", "Admin", "--start", "2026-11-20T09:00", "--duration", "25m").code == 0)
        #expect(try await s.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-20T08:00", "--duration", "3h").code == 0)
        try await t.start("\(Sandbox.binary) continue --duration 2s --no-break; echo EXIT=$?")
        try await t.waitFor("EXIT=0", seconds: 20)
        let log = try #require(await s.logs().first)
        #expect(log["subtask"] as? String == "Chapter 2", "the session that ended last (11:00), not the one begun last: \(log)")
        #expect(log["status"] as? String == "completed")
        #expect(log["planned_seconds"] as? Int == 2)
    }

    /// A SIGTERM sent as soon as the countdown has claimed the session: the signal is caught by
    /// a handler from the start (a Dispatch signal source is registered later, and one sent in
    /// between was lost), so the session is recorded as interrupted and the process ends.
    @Test func sigtermRightAfterTheStartRecordsAnInterruptedSession() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let lock = s.db + ".session.lock"
        let shell = """
            "$0" start Thesis --duration 10m >/dev/null 2>&1 </dev/null & p=$!
            n=0; while [ ! -e "$1" ] && [ $n -lt 3000 ]; do sleep 0.005; n=$((n+1)); done
            kill -TERM $p; t=0; while kill -0 $p 2>/dev/null && [ $t -lt 100 ]; do sleep 0.1; t=$((t+1)); done
            kill -KILL $p 2>/dev/null; wait $p; echo "code=$? tenths=$t"
            """
        let r = try await offPool {
            try TestProcess.run("/bin/sh", ["-c", shell, Sandbox.binary, lock], environment: s.environment, stdin: nil, capture: true)
        }
        #expect(r.out.contains("code=0"), "ended by the SIGTERM, cleanly: \(r.out) \(r.err)")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        #expect((log["note"] as? String)?.contains("recovered") != true, "recorded by the session itself: \(log)")
    }
}
