import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `focus` binary against a private database in a temporary directory.
struct Sandbox {
    let dir: URL
    var db: String { dir.appendingPathComponent("focus.sqlite").path }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    /// The binary under test, found here for every end-to-end test: `FOCUS_BIN` (CI sets it to the
    /// release binary, scripts/lib/focus-bin), else the `focus` built beside the test bundle.
    static var binary: String {
        if let bin = ProcessInfo.processInfo.environment["FOCUS_BIN"] { return bin }
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("focus")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().appendingPathComponent("focus").path
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["FOCUS_DB"] = db
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        env["XDG_DATA_HOME"] = dir.appendingPathComponent("data").path
        env["TZ"] = "Europe/Berlin"
        env["TERM"] = "xterm-256color"
        env.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        env.removeValue(forKey: "FOCUS_NOW")
        return env
    }

    struct Result {
        var code: Int32
        var out: String
        var err: String
    }

    /// Runs focus with pipes for stdin/stdout/stderr and waits for it, on a thread of its own
    /// (never on the test's cooperative pool, which blocking waits would starve).
    @discardableResult
    func run(_ args: String..., env extra: [String: String] = [:], stdin: String? = nil) async throws -> Result {
        try await run(args, env: extra, stdin: stdin)
    }

    func run(_ args: [String], env extra: [String: String] = [:], stdin: String? = nil) async throws -> Result {
        try await offPool { try self.runBlocking(args, env: extra, stdin: stdin) }
    }

    private func runBlocking(_ args: [String], env extra: [String: String], stdin: String?) throws -> Result {
        let r = try TestProcess.run(Sandbox.binary, args, environment: environment.merging(extra) { $1 }, stdin: stdin, capture: true)
        return Result(code: r.status, out: r.out, err: r.err)
    }

    /// `focus log --json` decoded.
    func logs() async throws -> [[String: Any]] {
        let r = try await run("log", "--json", "--last", "3")
        let data = Data(r.out.utf8)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}

/// A terminal under tmux, on a private server socket, for the interactive countdown.
struct Terminal {
    let socket = "focus-e2e-\(UUID().uuidString.prefix(8))"
    let sandbox: Sandbox

    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    @discardableResult
    func tmux(_ args: String...) async throws -> String {
        try await offPool { try self.tmuxBlocking(args, capture: args.first == "capture-pane") }
    }

    /// Runs tmux; only `capture-pane` output is read.
    private func tmuxBlocking(_ args: [String], capture: Bool = false) throws -> String {
        try TestProcess.run("/usr/bin/tmux", ["-L", socket] + args, environment: ProcessInfo.processInfo.environment, stdin: nil, capture: capture).out
    }

    /// Everything the pane has printed, escapes and all (tmux `pipe-pane`), so a frame that a
    /// loaded machine redrew or erased between two captures is still seen.
    var transcript: URL { sandbox.dir.appendingPathComponent("terminal-\(socket).out") }

    /// Starts a shell command in an 80×24 window with the sandbox's environment. The command
    /// waits until the pane's output is being recorded, so the transcript misses nothing.
    func start(_ shell: String) async throws {
        let exports = ["FOCUS_DB", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "TZ"].compactMap { k in
            sandbox.environment[k].map { "\(k)='\($0)'" }
        }.joined(separator: " ")
        let go = sandbox.dir.appendingPathComponent("terminal-\(socket).go").path
        let quoted = shell.replacingOccurrences(of: "'", with: "'\\''")
        try await tmux("new-session", "-d", "-x", "80", "-y", "24", "while [ ! -e '\(go)' ]; do sleep 0.02; done; env \(exports) TERM=xterm-256color sh -c '\(quoted)'; sleep 60")
        try await tmux("pipe-pane", "-o", "cat >> '\(transcript.path)'")
        _ = FileManager.default.createFile(atPath: go, contents: nil)
    }

    /// Waits (at most `seconds`) until `text` has been printed at some time, even if it is no
    /// longer on the screen; colour and cursor escapes are ignored.
    func waitUntilShown(_ text: String, seconds: Double = 10) async throws {
        let shown = await eventually(seconds: seconds) { Terminal.plain(transcript).contains(text) }
        if !shown { Issue.record("\(text.debugDescription) was never shown; printed:\n\(Terminal.plain(transcript))") }
    }

    /// A transcript with its CSI escape sequences removed.
    static func plain(_ file: URL) -> String {
        let raw = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return raw.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[ -/]*[@-~]", with: "", options: .regularExpression)
    }

    func keys(_ k: String...) async throws { _ = try await offPool { try self.tmuxBlocking(["send-keys"] + k) } }

    func screen() async throws -> String { try await tmux("capture-pane", "-p") }

    /// Waits (at most `seconds`) until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try await screen()
            if last.contains(text) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("timed out waiting for \(text.debugDescription); screen:\n\(last)")
        return last
    }

    func kill() { _ = try? tmuxBlocking(["kill-server"]) }
}

/// Runs blocking work on a plain thread and awaits it.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { c in
        Thread.detachNewThread { c.resume(with: Result { try work() }) }
    }
}

/// Polls a condition for at most `seconds`.
func eventually(seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(100))
    }
    return try await condition()
}
