import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A process started and left running: the test reaps it when it chooses (a killed countdown
/// stays a zombie until then).
struct Child {
    let pid: pid_t
    let outPath: String

    /// Starts `path args` with the sandbox's environment, output to a file, no waiting.
    static func start(_ path: String, _ args: [String], environment: [String: String], dir: URL) throws -> Child {
        let outPath = dir.appendingPathComponent("child-\(UUID().uuidString.prefix(8)).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let rc = TestProcess.spawn(&pid, path, arguments: [path] + args, environment: environment, actions: &actions)
        guard rc == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(rc)) }
        return Child(pid: pid, outPath: outPath)
    }

    /// The state letter of /proc/PID/stat: R, S, T (stopped), Z (zombie)…
    var state: Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(close, offsetBy: 2)...].first
    }

    /// Alive and neither a zombie nor reaped.
    var isAlive: Bool { kill(pid, 0) == 0 && state != "Z" }

    /// Waits for it to end; its exit code (128+N for a signal).
    @discardableResult
    func reap() async throws -> Int32 {
        let pid = self.pid
        return try await offPool {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    var output: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
}

/// Whether a session lives, and which process focus may signal, come from the kernel (the session
/// lock), never from a pid stored in the database.
@Suite(.serialized) struct LivenessTests {
    func sql(_ s: Sandbox, _ query: String) throws -> String {
        try TestProcess.run("/usr/bin/sqlite3", [s.db, query], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true).out
    }

    /// Starts a countdown in the background and waits until `status` shows it.
    func startSession(_ s: Sandbox, _ args: [String] = ["start", "Thesis", "--duration", "10m"]) async throws -> Child {
        let child = try Child.start(Sandbox.binary, args, environment: s.environment, dir: s.dir)
        let up = try await eventually { try await s.run("status", "--json").out.contains("\"pid\": \(child.pid)") }
        #expect(up, "the session did not start: \(child.output)")
        return child
    }

    func strangerSleep(_ s: Sandbox) throws -> Child {
        try Child.start("/bin/sleep", ["60"], environment: s.environment, dir: s.dir)
    }

    func oneErrorLine(_ r: Sandbox.Result, _ code: Int32) -> Bool {
        let lines = r.err.split(separator: "\n")
        return r.code == code && lines.count == 1 && lines[0].hasPrefix("focus: error: ")
    }

    @Test func aKilledCountdownIsRecoveredAtOnceWhileItIsStillAZombie() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let child = try await startSession(s)
        kill(child.pid, SIGKILL)
        // Not reaped: the process lingers as a zombie, and its pid still answers kill(pid, 0).
        _ = await eventually { child.state == "Z" }
        #expect(child.state == "Z")
        #expect(kill(child.pid, 0) == 0)
        let status = try await s.run("status")
        #expect(status.out == "idle\n")
        #expect(status.err.contains("ended unexpectedly"), "\(status.err)")
        #expect(try await s.logs().first?["status"] as? String == "interrupted")
        #expect(try await s.run("start", "Thesis", "--duration", "1s", "--no-break").code == 0)
        try await child.reap()
    }

    @Test func aStrangersPidInAStaleRowIsNeverSignalledAndTheSessionIsRecovered() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let child = try await startSession(s)
        kill(child.pid, SIGKILL)
        try await child.reap()
        // After a crash and a reboot, the stored pid belongs to someone else.
        let stranger = try strangerSleep(s)
        defer {
            kill(stranger.pid, SIGKILL)
            _ = waitpid(stranger.pid, nil, 0)
        }
        _ = try sql(s, "UPDATE activeSession SET pid = \(stranger.pid)")
        let stop = try await s.run("stop", "--reason", "x")
        #expect(oneErrorLine(stop, 69) || stop.err.contains("ended unexpectedly"), "\(stop.err)")
        #expect(stop.code == 69)
        #expect(stop.err.contains("ended unexpectedly"), "recovered and said so: \(stop.err)")
        #expect(stranger.isAlive, "the stranger was signalled")
        #expect(stranger.state != "T")
        #expect(try await s.logs().first?["status"] as? String == "interrupted")
        #expect(try await s.run("status").out == "idle\n")
        #expect(try await s.run("start", "Thesis", "--duration", "1s", "--no-break").code == 0)
        #expect(stranger.isAlive)
    }

    @Test func aStrangersPidWrittenIntoARunningSessionIsNotSignalledTheHolderIs() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let stranger = try strangerSleep(s)
        defer {
            kill(stranger.pid, SIGKILL)
            _ = waitpid(stranger.pid, nil, 0)
        }
        let child = try await startSession(s)
        _ = try sql(s, "UPDATE activeSession SET pid = \(stranger.pid)")
        let status = try await s.run("status", "--json")
        #expect(status.out.contains("\"pid\": \(child.pid)"), "the kernel's holder, not the stored pid: \(status.out)")
        for command in ["pause", "resume"] {
            let r = try await s.run(command)
            #expect(r.code == 0, "\(command): \(r.err)")
        }
        let stop = try await s.run("stop", "--reason", "done")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(try await child.reap() == 0)
        #expect(stranger.isAlive, "the stranger was signalled")
        #expect(try await s.logs().first?["note"] as? String == "done")
    }

    /// The lock file removed while the session runs (a tidy-up of the data directory): the
    /// countdown puts it back within half a second, so the session is still seen running, is
    /// not recovered as interrupted, and can be stopped.
    @Test func aSessionWhoseLockFileIsRemovedKeepsRunningAndCanBeStopped() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let child = try await startSession(s)
        let lock = s.db + ".session.lock"
        #expect(unlink(lock) == 0)
        let back = await eventually { FileManager.default.fileExists(atPath: lock) }
        #expect(back, "the lock file was not put back")
        let status = try await s.run("status", "--json")
        #expect(status.out.contains("\"pid\": \(child.pid)"), "\(status.out)")
        #expect(try await s.logs().isEmpty, "nothing recovered while it runs")
        let stop = try await s.run("stop", "--reason", "lock removed")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(try await child.reap() == 0)
        #expect(try await s.logs().first?["note"] as? String == "lock removed")
    }

    @Test func aTaskOrSubtaskWhoseSessionRunsCannotBeDeleted() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await s.run("task", "add", "Other")
        let child = try await startSession(s, ["start", "Thesis/Chapter 2", "--duration", "10m"])
        for path in ["Thesis", "Thesis/Chapter 2", "#1"] {
            let r = try await s.run("task", "rm", path, "--force")
            #expect(oneErrorLine(r, 69), "\(path): \(r.code) \(r.err)")
            #expect(r.err.contains("focus stop"), "\(r.err)")
        }
        #expect(try await s.run("task", "rm", "Other").code == 0)
        // Nor can its sessions be cleared (`log rm --subtask PATH --all`).
        #expect(try await s.run("log", "add", "Thesis/Chapter 2", "--start", "2026-01-05 09:00", "--duration", "25m").code == 0)
        for path in ["Thesis", "Thesis/Chapter 2"] {
            let r = try await s.run("log", "rm", "--subtask", path, "--all", "--force")
            #expect(oneErrorLine(r, 69), "\(path): \(r.code) \(r.err)")
        }
        #expect(try await s.run("status").out.contains("Thesis/Chapter 2"))
        let second = try await s.run("start", "Thesis", "--duration", "1m")
        #expect(second.code == 69)
        #expect(try await s.run("stop").code == 0)
        #expect(try await child.reap() == 0)
        #expect(try await s.logs().first?["subtask"] as? String == "Chapter 2")
        #expect(try await s.run("task", "rm", "Thesis", "--force").code == 0)
    }

    @Test func aSessionThatCannotBeRecordedSaysSoAndExits74() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let child = try await startSession(s, ["start", "Thesis", "--duration", "3s", "--no-break"])
        // Deleted behind focus's back (by hand): the record cannot be written.
        _ = try sql(s, "PRAGMA foreign_keys = ON; DELETE FROM task")
        #expect(try await child.reap() == 74)
        let out = child.output
        #expect(out.contains("NOT recorded"), "\(out)")
        #expect(!out.contains("recorded as #"), "\(out)")
        #expect(!out.contains("completed: Thesis"), "\(out)")
        #expect(out.contains("focus: error: "), "\(out)")
    }

    @Test func ofFiveConcurrentStopsExactlyOneWinsAndKeepsItsReason() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let child = try await startSession(s)
        let results = try await withThrowingTaskGroup(of: (Int, Sandbox.Result).self) { group in
            for i in 0..<5 { group.addTask { (i, try await s.run("stop", "--reason", "reason \(i)")) } }
            var all: [(Int, Sandbox.Result)] = []
            for try await r in group { all.append(r) }
            return all
        }
        let winners = results.filter { $0.1.code == 0 }
        #expect(winners.count == 1, "\(results.map { ($0.0, $0.1.code, $0.1.out, $0.1.err) })")
        for (_, r) in results where r.code != 0 { #expect(oneErrorLine(r, 69), "\(r.err)") }
        #expect(try await child.reap() == 0)
        let logs = try await s.logs()
        #expect(logs.count == 1)
        if let (i, r) = winners.first {
            #expect(logs.first?["note"] as? String == "reason \(i)")
            #expect(r.out.contains("#\(logs.first?["id"] as? Int ?? -1))"), "\(r.out)")
        }
    }
}

/// Ctrl-Z in a real terminal: a pause while stopped, the terminal given back, and resumed on SIGCONT.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct SuspendTests {
    func tty(_ t: Terminal) throws -> String {
        try TestProcess.run("/usr/bin/tmux", ["-L", t.socket, "display", "-p", "#{pane_tty}"], environment: ProcessInfo.processInfo.environment,
                      stdin: nil, capture: true).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the terminal is in its normal line mode (canonical, echoing) right now.
    func cooked(_ tty: String) throws -> Bool {
        let modes = try TestProcess.run("/usr/bin/stty", ["-F", tty, "-a"], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true).out
        let words = Set(modes.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        return words.contains("icanon") && words.contains("echo")
    }

    func pid(_ s: Sandbox) async throws -> Int32? {
        var pid: Int32?
        _ = try await eventually {
            let r = try await s.run("status", "--json")
            if let obj = try? JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], let p = obj["pid"] as? Int { pid = Int32(p) }
            return pid != nil
        }
        return pid
    }

    func state(_ pid: Int32) -> Character? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(close, offsetBy: 2)...].first
    }

    @Test func ctrlZPausesGivesTheTerminalBackAndSigcontResumes() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        // Long enough never to end by itself, however slow a loaded machine makes the steps
        // below (an 8 s session ended before them in CI): it is stopped at the end.
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m --no-break; echo EXIT=$?")
        try await t.waitFor("● WORK")
        let pid = try #require(try await pid(s))
        let tty = try tty(t)
        #expect(try !cooked(tty))
        try await Task.sleep(for: .seconds(1))
        kill(pid, SIGTSTP)
        #expect(await eventually { state(pid) == "T" }, "the process did not stop")
        #expect(try await s.run("status").out.contains("paused"))
        #expect(try cooked(tty), "the terminal was left in the countdown's mode")
        try await Task.sleep(for: .seconds(3))
        #expect(try await s.run("status").out.contains("paused"), "time stopped is not counted down")
        kill(pid, SIGCONT)
        #expect(try await eventually { try await !s.run("status").out.contains("paused") })
        #expect(try await eventually { try !cooked(tty) }, "the countdown's terminal mode is back")
        #expect(try await s.run("stop", "--reason", "done testing").code == 0)
        try await t.waitFor("EXIT=0", seconds: 20)
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        let focused = try #require(log["focused_seconds"] as? Int)
        let f = ISO8601DateFormatter()
        let start = try #require(log["start"] as? String), end = try #require(log["end"] as? String)
        let wall = try #require(f.date(from: end)).timeIntervalSince(try #require(f.date(from: start)))
        #expect(focused >= 1 && Double(focused) <= wall - 3, "the 3 s stopped are a pause, not focus: \(focused) s focused in \(wall) s")
    }

    @Test func aSessionStoppedWithCtrlZCanBeStoppedFromAnotherTerminal() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.start("\(Sandbox.binary) start Thesis --duration 10m; echo EXIT=$?")
        try await t.waitFor("● WORK")
        let pid = try #require(try await pid(s))
        try await Task.sleep(for: .seconds(1))
        kill(pid, SIGTSTP)
        #expect(await eventually { state(pid) == "T" })
        let stop = try await s.run("stop", "--reason", "lunch")
        #expect(stop.code == 0, "\(stop.err)")
        try await t.waitFor("EXIT=0")
        let log = try #require(await s.logs().first)
        #expect(log["status"] as? String == "interrupted")
        #expect(log["note"] as? String == "lunch")
    }
}
