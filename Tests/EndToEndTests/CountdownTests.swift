import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The live countdown in a real terminal (tmux): keys, signals, recovery, one session at a time.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct CountdownTests {
    func runningPID(_ s: Sandbox) async throws -> Int32? {
        var pid: Int32?
        _ = try await eventually {
            let r = try await s.run("status", "--json")
            if let obj = try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], let p = obj["pid"] as? Int {
                pid = Int32(p)
            }
            return pid != nil
        }
        return pid
    }

    /// The focused seconds the running session's last checkpoint stored ("" when none).
    func checkpointedFocus(_ s: Sandbox) async throws -> String {
        try await offPool {
            try TestProcess.run("/usr/bin/sqlite3", [s.db, "SELECT focusedSeconds FROM activeSession"],
                          environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        }.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aThreeSecondSessionRunsToZeroAndIsRecordedCompleted() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await t.start("\(Sandbox.binary) start 'Thesis/Chapter 2' --duration 3s --no-break; echo EXIT=$?")
        // The countdown lasts three seconds: a loaded machine may not capture the screen in
        // that time, so the test reads everything the terminal printed.
        try await t.waitUntilShown("● WORK")
        let done = try await t.waitFor("EXIT=0")
        #expect(Terminal.plain(t.transcript).contains("Thesis/Chapter 2  "))
        #expect(done.contains("✓ completed: Thesis/Chapter 2"))
        let logs = try await s.logs()
        #expect(logs.count == 1)
        #expect(logs.first?["status"] as? String == "completed")
        #expect(logs.first?["focused_seconds"] as? Int == 3)
    }

    @Test func narrowingTheTerminalLeavesNoFragmentOfTheOldFrame() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/A long subtask name that fills the first line")
        try await t.start("\(Sandbox.binary) start 'Thesis/A long subtask name that fills the first line' --duration 1m; echo EXIT=$?")
        try await t.waitFor("● WORK")
        try await t.tmux("resize-window", "-x", "36", "-y", "24")
        // A few redraws at the new width (four a second).
        try await Task.sleep(for: .milliseconds(1500))
        let screen = try await t.screen()
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(rows.filter { $0.contains("WORK") }.count == 1, "\(screen)")
        #expect(rows.filter { $0.contains("stop") }.count == 1, "\(screen)")
        #expect(rows.count == 3, "\(screen)")
        try await t.keys("q")
        try await t.waitFor("Why did you stop?")
        try await t.keys("Enter")
        try await t.waitFor("EXIT=0")
    }

    @Test func quittingEarlyRecordsAnInterruptedSessionWithTheRealFocusAndTheReason() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        let beforeStart = ContinuousClock.now
        try await t.start("\(Sandbox.binary) start Thesis --duration 1m; echo EXIT=$?")
        try await t.waitFor("● WORK")
        try await Task.sleep(for: .seconds(2))
        try await t.keys("q")
        try await t.waitFor("Why did you stop?")
        // It ran at least the 2 s slept after its first frame, and at most from before its
        // process began to its question on the screen: on a loaded machine each step between
        // (seeing the frame, waking from the sleep, tmux sending the key) can take a second more.
        let ranAtMost = Int((ContinuousClock.now - beforeStart).components.seconds) + 1
        // Recorded at once, before the reason is typed, and over: the lock went with it, so
        // another terminal may start the next session while this one waits for the reason.
        #expect(try await s.logs().first?["status"] as? String == "interrupted")
        let next = try await s.run("start", "Thesis", "--duration", "1s", "--no-break")
        #expect(next.code == 0, "\(next.err)")
        try await t.keys("phone call", "Enter")
        try await t.waitFor("EXIT=0")
        let log = try #require(await s.logs().first { $0["status"] as? String == "interrupted" })
        let focused = try #require(log["focused_seconds"] as? Int)
        #expect((2...ranAtMost).contains(focused), "focused \(focused), ran at most \(ranAtMost) s")
        #expect(log["planned_seconds"] as? Int == 60)
        #expect(log["note"] as? String == "phone call")
    }

    @Test func pausedTimeIsExcludedFromFocus() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        // 20 s: the pause must land before the end however slow a loaded machine makes the
        // steps before it (4 s was once all gone before the key arrived).
        try await t.start("\(Sandbox.binary) start Thesis --duration 20s --no-break; echo EXIT=$?")
        try await t.waitFor("● WORK")
        try await Task.sleep(for: .seconds(1))
        try await t.keys("p")
        try await t.waitFor("PAUSED")
        #expect(try await s.run("status").out.contains("paused"))
        try await Task.sleep(for: .seconds(3))
        try await t.keys("p")
        try await t.waitFor("EXIT=0", seconds: 40)
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "completed")
        #expect(log["focused_seconds"] as? Int == 20)
        let start = try #require(log["start"] as? String), end = try #require(log["end"] as? String)
        let f = ISO8601DateFormatter()
        let wall = try #require(f.date(from: end)).timeIntervalSince(try #require(f.date(from: start)))
        #expect(wall >= 22, "wall time includes the 3 s pause: \(wall)")
    }

    @Test func aKilledCountdownIsRecoveredAsInterruptedByTheNextCommand() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m")
        let pid = try #require(try await runningPID(s))
        // Killed once a checkpoint has recorded focus (every 5 s): waits for that state, never
        // for a time, so a loaded machine cannot shift what the test expects.
        var checkpoint = 0
        #expect(try await eventually(seconds: 60) {
            checkpoint = Int(try await checkpointedFocus(s)) ?? 0
            return checkpoint >= 5
        }, "no checkpoint with focus")
        kill(pid, SIGKILL)
        var recovered: Sandbox.Result?
        #expect(try await eventually {
            let r = try await s.run("status")
            if r.out == "idle\n" { recovered = r }
            return recovered != nil
        })
        let status = try #require(recovered)
        #expect(status.err.contains("ended unexpectedly"), "\(status.err)")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        // The last checkpoint is kept: the one seen, or the next if it was written before the kill.
        let focused = log["focused_seconds"] as? Int ?? -1
        #expect(focused >= checkpoint && focused <= checkpoint + 6, "last checkpoint (\(checkpoint) s) kept: \(log)")
        // Told once.
        #expect(try await s.run("status").err.isEmpty)
    }

    @Test func sigtermRecordsTheSessionAndRestoresTheTerminal() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        let before = s.dir.appendingPathComponent("stty-before").path
        let after = s.dir.appendingPathComponent("stty-after").path
        try await t.start("stty -a > \(before); \(Sandbox.binary) start Thesis --duration 10m; stty -a > \(after); echo EXIT=$?")
        let pid = try #require(try await runningPID(s))
        try await t.waitFor("● WORK")
        try await Task.sleep(for: .seconds(2))
        kill(pid, SIGTERM)
        try await t.waitFor("EXIT=")
        #expect(try String(contentsOfFile: before, encoding: .utf8) == String(contentsOfFile: after, encoding: .utf8))
        #expect(try await s.logs().first?["status"] as? String == "interrupted")
        #expect(try await s.run("status").out == "idle\n")
    }

    /// Issue #40: a SIGTERM, SIGHUP or SIGINT in the first instants of `start` or `continue`,
    /// before the countdown has claimed the session (here while it waits for the database,
    /// which another program holds locked), stops the session it begins: recorded as
    /// interrupted by the countdown itself, the terminal as it was. Before, the signals were
    /// caught only from the claim on, and one sent earlier killed the process (exit 143, 129 or
    /// 130, nothing recorded). Several times over.
    @Test func aSignalInTheFirstInstantsStopsTheSessionAndRestoresTheTerminal() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        // `start` in the first rounds, `continue` (the last session's work again) in the others.
        for (round, signo) in [SIGTERM, SIGINT, SIGHUP, SIGHUP, SIGINT, SIGTERM].enumerated() {
            let command = round < 3 ? "start Thesis" : "continue"

            let t = Terminal(sandbox: s)
            defer { t.kill() }
            let locker = try DatabaseLocker(path: s.db)
            let files = ["pid", "stty-before", "stty-after"].map { s.dir.appendingPathComponent("\($0)-\(round)").path }
            let (pidFile, before, after) = (files[0], files[1], files[2])
            try await t.start("stty -a > \(before); sh -c 'echo $$ > \(pidFile); exec \"$0\" \(command) --duration 10m' \(Sandbox.binary); code=$?; stty -a > \(after); echo EXIT=$code")
            // As soon as the countdown has the database open, and before it can claim the session.
            var pid: Int32 = 0
            let opened = await eventually { () async -> Bool in
                pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
                return pid > 0 && DatabaseLocker.hasOpen(pid: pid, path: s.db)
            }
            #expect(opened, "round \(round): the countdown never opened its database")
            kill(pid, signo)
            try locker.release()
            if signo == SIGINT {
                try await t.waitFor("Why did you stop?")
                try await t.keys("Enter")
            }
            // EXIT= is printed once the terminal's settings after the run are in their file
            // (written after it, a loaded machine could read the file before the shell wrote it).
            let done = try await t.waitFor("EXIT=")
            #expect(done.contains("EXIT=0"), "round \(round), \(command), signal \(signo): \(done)")
            #expect(try String(contentsOfFile: before, encoding: .utf8) == String(contentsOfFile: after, encoding: .utf8), "round \(round): terminal restored")
            let logs = try await s.run("log", "--json", "--last", "3").out
            let list = (try JSONSerialization.jsonObject(with: Data(logs.utf8)) as? [[String: Any]]) ?? []
            #expect(list.count == round + 1, "round \(round): one session a round: \(logs)")
            #expect(list.allSatisfy { $0["status"] as? String == "interrupted" && ($0["note"] as? String)?.contains("recovered") != true }, "\(logs)")
            #expect(try await s.run("status").out == "idle\n")
        }
    }

    @Test func stopFromAnotherTerminalEndsTheSessionAndASecondStartIsRefused() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m; echo EXIT=$?")
        _ = try #require(try await runningPID(s))
        let second = try await s.run("start", "Thesis", "--duration", "1m")
        #expect(second.code == 69)
        #expect(second.err.contains("already running"))
        try await Task.sleep(for: .seconds(2))
        let stop = try await s.run("stop", "--reason", "meeting")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("recorded as interrupted"))
        try await t.waitFor("EXIT=0")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        #expect(log["note"] as? String == "meeting")
    }

    /// `focus stop` from another terminal without `--reason`: the countdown's terminal asks
    /// nothing (before, it waited at "Why did you stop?" forever, holding the lock, while
    /// `status` said idle, `start` said a session runs and `stop` said none does).
    @Test func stopFromElsewhereAsksNothingInTheCountdownsTerminalAndFreesTheSession() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m; echo EXIT=$?")
        _ = try #require(try await runningPID(s))
        try await Task.sleep(for: .seconds(2))
        let stop = try await s.run("stop")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("recorded as interrupted"), "\(stop.out)")
        #expect(stop.out.contains("focus log edit"), "a way to add the reason later: \(stop.out)")
        let screen = try await t.waitFor("EXIT=0")
        #expect(!screen.contains("Why did you stop?"), "\(screen)")
        #expect(screen.contains("stopped by `focus stop` from elsewhere"), "\(screen)")
        #expect(try await s.run("status").out == "idle\n")
        let again = try await s.run("stop")
        #expect(again.code == 69 && again.err.contains("no session is running"), "\(again.err)")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        #expect(log["note"] == nil || log["note"] is NSNull)
        // A new session starts at once: the lock went with the recorded session.
        t.kill()
        let t2 = Terminal(sandbox: s)
        defer { t2.kill() }
        try await t2.start("\(Sandbox.binary) start Thesis --duration 10m; echo EXIT=$?")
        _ = try #require(try await runningPID(s))
        #expect(try await s.run("stop", "--reason", "lunch").code == 0)
        try await t2.waitFor("EXIT=0")
        #expect(try await s.logs().first?["note"] as? String == "lunch")
    }

    /// The -wal file deleted while a countdown runs: other commands say what is wrong (not only
    /// "disk I/O error"), and `stop` still reaches the session, which records itself and, closing
    /// the database last, writes its changes back.
    @Test func aDeletedWriteAheadLogIsNamedAndStopStillEndsTheSession() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m; echo EXIT=$?")
        _ = try #require(try await runningPID(s))
        try FileManager.default.removeItem(atPath: s.db + "-wal")
        // The next checkpoint (every 5 s) writes into the deleted file.
        var status = try await s.run("status")
        _ = await eventually(seconds: 15) {
            status = (try? await s.run("status")) ?? status
            return status.code != 0
        }
        #expect(status.code == 74)
        #expect(status.err.contains("write-ahead log (focus.sqlite-wal) was deleted"), "\(status.err)")
        #expect(status.err.contains("focus stop"), "\(status.err)")
        let stop = try await s.run("stop")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("Stopped the running session"), "\(stop.out)")
        try await t.waitFor("EXIT=")
        #expect(try await s.run("status").out == "idle\n")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
    }
}

/// Another program holding the database locked (`sqlite3` in an exclusive transaction, in
/// exclusive locking mode: https://sqlite.org/pragma.html#pragma_locking_mode), so a `focus`
/// waits (its busy timeout) at its first read until `release`.
private final class DatabaseLocker {
    private let process = Process()
    private let input = Pipe()

    init(path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("PRAGMA locking_mode=EXCLUSIVE;\nBEGIN EXCLUSIVE;\n.print locked\n".utf8))
        var seen = ""
        while !seen.contains("locked") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
    }

    func release() throws {
        input.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Whether process `pid` has the file at `path` open (proc(5): /proc/PID/fd).
    static func hasOpen(pid: Int32, path: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
    }
}
