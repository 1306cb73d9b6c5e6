import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus status --follow` running in the background with its standard output on a pipe whose
/// lines are collected as they come.
final class Follower: Sendable {
    let pid: pid_t
    private let closing = Mutex(false)
    private let collected = Mutex<[String]>([])

    init(_ sandbox: Sandbox, _ args: [String], env extra: [String: String] = [:]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        // Close-on-exec at once: a process another test starts while this follower lives must
        // not hold a reader of its output (the follower would never see its reader go).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let rc = TestProcess.spawn(&pid, Sandbox.binary, arguments: [Sandbox.binary, "status", "--follow"] + args, environment: sandbox.environment.merging(extra) { $1 }, actions: &actions)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(rc))
        }
        self.pid = pid
        let fd = fds[0]
        let thread = Thread { [weak self] in
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // Polled, so that `closeOutput` can end the read (a close from another thread
                // would not: the read in progress keeps the pipe open).
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 100) == 0 {
                    if self?.closing.withLock({ $0 }) ?? true { break }
                    continue
                }
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                pending += buffer[0..<n]
                while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<nl], as: UTF8.self)
                    pending.removeSubrange(...nl)
                    self?.collected.withLock { $0.append(line) }
                }
            }
            close(fd)
        }
        thread.start()
    }

    var lines: [String] { collected.withLock { $0 } }

    /// Waits until a line satisfies `condition`.
    @discardableResult
    func waitFor(seconds: Double = 15, _ condition: @escaping (String) -> Bool) async -> Bool {
        await eventually(seconds: seconds) { lines.contains(where: condition) }
    }

    /// Closes the reading end: the follower's next look at its output finds no reader.
    func closeOutput() { closing.withLock { $0 = true } }

    /// Waits for the process to end and returns its exit code (128+N for signal N), or nil.
    func exitCode(within seconds: Double = 10) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    func stop() {
        closeOutput()
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

/// `focus status --follow` for status bars: a line when the output changes, nothing otherwise.
@Suite(.serialized)
struct FollowTests {
    @Test func aLineEachSecondDuringASessionThenIdle() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        let f = try Follower(s, [])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "idle" })
        async let session = s.run("start", "Thesis/Chapter 2", "--duration", "5s", "--no-break")
        for left in ["0:04", "0:03", "0:02", "0:01"] {
            #expect(await f.waitFor { $0 == "Thesis/Chapter 2 · work · \(left) left" }, "\(f.lines)")
        }
        _ = try await session
        #expect(await f.waitFor { _ in f.lines.last == "idle" }, "\(f.lines)")
        // Each line differs from the one before: nothing is repeated.
        let lines = f.lines
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "\(lines)")
    }

    @Test func pauseAndStopByAnotherProcessShowAtOnceAndIdlePrintsNothing() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let f = try Follower(s, ["--format", "{state} {path}"])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "" })
        // Idle: nothing more for a few seconds.
        try await Task.sleep(for: .seconds(3))
        #expect(f.lines == [""])
        async let session = s.run("start", "Thesis", "--duration", "10m", "--no-break")
        #expect(await f.waitFor { $0 == "running Thesis" }, "\(f.lines)")
        _ = try await eventually { try await s.run("pause").code == 0 }
        #expect(await f.waitFor { $0 == "paused Thesis" }, "\(f.lines)")
        // Paused: the line does not change, so nothing is printed.
        let count = f.lines.count
        try await Task.sleep(for: .seconds(3))
        #expect(f.lines.count == count, "\(f.lines)")
        try await s.run("stop")
        _ = try await session
        #expect(await f.waitFor { _ in f.lines.last == "" && f.lines.count > count }, "\(f.lines)")
    }

    @Test func todaysTotalResetsAtLocalMidnight() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let history = s.dir.appendingPathComponent("h.jsonl").path
        let line = #"{"task": "Thesis", "start": "2026-11-24T09:00:00+01:00", "end": "2026-11-24T09:25:00+01:00", "status": "completed"}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: history))
        #expect(try await s.run(["import", history], env: ["FOCUS_NOW": "2026-11-24T23:00:00+01:00"]).code == 0)
        // Three seconds before midnight in Berlin (the sandbox's zone); time runs on from there.
        let f = try Follower(s, ["--format", "{today}"], env: ["FOCUS_NOW": "2026-11-24T23:59:57+01:00"])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "25m" }, "\(f.lines)")
        #expect(await f.waitFor { $0 == "0m" }, "\(f.lines)")
        #expect(f.lines == ["25m", "0m"])
    }

    @Test func aNewlyPlannedBlockShowsAtOnce() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Other")
        let f = try Follower(s, ["--format", "{next}"])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "" })
        let due = ISO8601DateFormatter.string(from: Date().addingTimeInterval(4 * 86_400), timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                              formatOptions: [.withFullDate])
        let added = try await s.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", due)
        #expect(added.code == 0, "\(added.err)")
        #expect(await f.waitFor { $0.hasSuffix(" Thesis/Chapter 2") }, "\(f.lines)")
    }

    @Test func closingTheReadingEndEndsTheFollowerWithExitZero() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let f = try Follower(s, ["--waybar"])
        defer { f.stop() }
        #expect(await f.waitFor { $0.contains("idle") })
        f.closeOutput()
        #expect(await f.exitCode() == 0)
    }

    @Test func sigtermEndsTheFollowerWithExitZero() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let f = try Follower(s, ["--i3blocks"])
        defer { f.stop() }
        #expect(await f.waitFor { $0.contains("idle") })
        kill(f.pid, SIGTERM)
        #expect(await f.exitCode() == 0)
    }

    @Test func noDatabaseYetPrintsIdleCreatesNothingAndFollowsOnceOneAppears() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let f = try Follower(s, [])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "idle" })
        try await Task.sleep(for: .seconds(1))
        #expect(!FileManager.default.fileExists(atPath: s.db))
        try await s.run("task", "add", "Thesis")
        async let session = s.run("start", "Thesis", "--duration", "10m", "--no-break")
        #expect(await f.waitFor { $0.hasPrefix("Thesis · work") }, "\(f.lines)")
        try await s.run("stop")
        _ = try await session
    }

    @Test func aDatabaseReplacedByRestoreIsFollowed() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Before")
        let backup = s.dir.appendingPathComponent("copy.sqlite").path
        try await s.run("backup", backup)
        let f = try Follower(s, [])
        defer { f.stop() }
        #expect(await f.waitFor { $0 == "idle" })
        let restored = try await s.run("restore", backup, stdin: "y\n")
        #expect(restored.code == 0, "\(restored.err)")
        try await s.run("task", "add", "After")
        async let session = s.run("start", "After", "--duration", "10m", "--no-break")
        #expect(await f.waitFor { $0.hasPrefix("After · work") }, "\(f.lines)")
        try await s.run("stop")
        _ = try await session
        #expect(await f.waitFor { _ in f.lines.last == "idle" }, "\(f.lines)")
    }
}
