import FocusCLI
import FocusCore
import FocusTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The live hook runner against real scripts in a temporary hooks directory.
@Suite struct ProcessHookRunnerTests {
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ s: String) { lock.withLock { lines.append(s) } }
        var all: [String] { lock.withLock { lines } }
    }

    let dir: String
    let warnings = Box()

    init() throws {
        dir = NSTemporaryDirectory() + "focus-hooks-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/hooks", withIntermediateDirectories: true)
    }

    func runner(timeout: Duration = .seconds(10)) -> ProcessHookRunner {
        let warnings = self.warnings
        var r = ProcessHookRunner(directory: dir + "/hooks", timeout: timeout, logPath: dir + "/state/focus/hooks.log",
                                  environment: ["PATH": "/usr/bin:/bin", "HOOK_OUT": dir + "/out"],
                                  now: { Date(timeIntervalSince1970: 1_795_000_000) }, warn: { warnings.add($0) })
        r.killGrace = .milliseconds(300)
        return r
    }

    func hook(_ event: HookEvent, _ script: String, mode: mode_t = 0o755) throws {
        let path = dir + "/hooks/" + event.rawValue
        try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
    }

    var log: String { (try? String(contentsOfFile: dir + "/state/focus/hooks.log", encoding: .utf8)) ?? "" }
    var out: String { (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? "" }

    let payload = JSON.object([("event", .string("session-completed")), ("task", .string("Thesis; rm -rf ~"))])

    @Test func theHookReadsTheEventAsJSONOnStandardInputWithNoArguments() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try hook(.sessionCompleted, #"printf '%s args\n' "$#" > "$HOOK_OUT"; cat >> "$HOOK_OUT""#)
        await runner().run(.sessionCompleted, payload: payload)
        #expect(out == "0 args\n{\"event\": \"session-completed\", \"task\": \"Thesis; rm -rf ~\"}\n")
        #expect(log.hasPrefix("2026-11-18T11:06:40Z session-completed exit 0 after "))
        #expect(warnings.all.isEmpty)
    }

    @Test func aMissingHookIsNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        await runner().run(.breakOver, payload: payload)
        #expect(log.isEmpty)
        #expect(warnings.all.isEmpty)
    }

    @Test func aHookThatIsNotExecutableIsIgnoredWithAWarning() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try hook(.breakOver, #"echo ran > "$HOOK_OUT""#, mode: 0o644)
        await runner().run(.breakOver, payload: payload)
        #expect(out.isEmpty)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.hasPrefix("warning: hook break-over ignored: not an executable file (chmod +x ") == true)
        #expect(log.contains("break-over ignored: not an executable file"))
    }

    @Test func aFailingHookIsLoggedWithItsOutputAndWarnedAbout() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try hook(.sessionInterrupted, "echo 'no such project' >&2; exit 3")
        await runner().run(.sessionInterrupted, payload: payload)
        #expect(log.hasPrefix("no such project\n2026-11-18T11:06:40Z session-interrupted failed: exit 3 after "))
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("hook session-interrupted failed: exit 3") == true)
        #expect(warnings.all.first?.hasSuffix("; see \(dir)/state/focus/hooks.log") == true)
    }

    @Test func aHookThatOverrunsIsStoppedWithItsChildren() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Ignores SIGTERM, so only the SIGKILL that follows ends it; its child goes with it.
        try hook(.blockStarts, #"trap '' TERM; sleep 1000 & echo $! > "$HOOK_OUT"; wait"#)
        await runner(timeout: .milliseconds(300)).run(.blockStarts, payload: payload)
        #expect(warnings.all.first?.contains("hook block-starts failed: still running after") == true, "\(warnings.all)")
        let child = try #require(Int32(out.trimmingCharacters(in: .whitespacesAndNewlines)))
        // The child was killed with its group (reaped by init; gone or a zombie for a moment).
        var gone = false
        for _ in 0..<100 {
            let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
            if state.isEmpty || state.contains(") Z ") { gone = true; break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(gone)
    }
}
