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
        try ScriptFile.write("#!/bin/sh\n" + script + "\n", to: path, mode: mode)
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

    /// A script open for writing somewhere (an editor saving it; a process that forked while a
    /// writer held it) cannot be executed for a moment (ETXTBSY): the hook still runs.
    @Test func aHookBeingWrittenAtThatMomentStillRuns() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try hook(.sessionCompleted, #"echo ran > "$HOOK_OUT""#)
        let writer = open(dir + "/hooks/" + HookEvent.sessionCompleted.rawValue, O_WRONLY | O_APPEND | O_CLOEXEC)
        #expect(writer >= 0)
        // Released by a thread of its own (the test's task pool may be busy with other tests).
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(150_000)
            close(writer)
            released.signal()
        }
        await runner().run(.sessionCompleted, payload: payload)
        released.wait()
        #expect(out == "ran\n", "\(log)")
        #expect(warnings.all.isEmpty, "\(warnings.all)")
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

    @Test func aDanglingSymlinkHookIsNamedAsSuchNotIgnoredSilently() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/hooks/break-over", withDestinationPath: dir + "/nowhere.sh")
        await runner().run(.breakOver, payload: payload)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("is a symbolic link to \(dir)/nowhere.sh, which does not exist") == true, "\(warnings.all)")
        #expect(log.contains("break-over ignored: \(dir)/hooks/break-over is a symbolic link to"))
    }

    @Test func aDirectoryHookIsCalledADirectoryNotToldToChmod() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/hooks/session-completed", withIntermediateDirectories: true)
        await runner().run(.sessionCompleted, payload: payload)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("ignored: \(dir)/hooks/session-completed is a directory, not a file") == true, "\(warnings.all)")
        #expect(warnings.all.first?.contains("chmod") == false)
    }

    @Test func oneRunsOutputIsCutAtTheLogLimit() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 3 MB of output from one run: 1 MB is kept, then the log is full and rotated before the
        // run's own line is written.
        try hook(.sessionCompleted, "head -c 3145728 /dev/zero | tr '\\0' x")
        await runner().run(.sessionCompleted, payload: payload)
        let rotated = dir + "/state/focus/hooks.log.1"
        let size = (try? FileManager.default.attributesOfItem(atPath: rotated)[.size] as? Int) ?? 0
        #expect(size > ProcessHookRunner.logLimit && size < ProcessHookRunner.logLimit + 1_000)
        let text = (try? String(contentsOfFile: rotated, encoding: .utf8)) ?? ""
        #expect(text.hasSuffix("\n[hook output cut: 2097152 more bytes after 1 MB were left out]\n"))
        #expect(log.contains("session-completed exit 0 after "), "\(warnings.all)")
    }

    @Test func theLogIsRotatedAtItsLimitKeepingThreeOldOnes() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try hook(.sessionCompleted, "head -c 1100000 /dev/zero | tr '\\0' y")
        for _ in 0..<6 { await runner().run(.sessionCompleted, payload: payload) }
        let fm = FileManager.default
        let base = dir + "/state/focus/hooks.log"
        #expect(fm.fileExists(atPath: base), "\(warnings.all)")
        for n in 1...3 { #expect(fm.fileExists(atPath: "\(base).\(n)")) }
        #expect(!fm.fileExists(atPath: base + ".4"))
        for path in [base, base + ".1", base + ".2", base + ".3"] {
            let size = (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size <= 2 * ProcessHookRunner.logLimit + 2_000, "\(path): \(size)")
        }
    }
}
