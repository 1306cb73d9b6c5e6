import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The one way tests start and wait for programs (`TestProcess`, FocusCoreTestSupport): what the
/// end-to-end harness runs and the servers tests talk to.
@Suite struct TestProcessTests {
    /// A child of a test thread that blocks signals starts with none blocked and none ignored
    /// (a shell with SIGCHLD blocked waits forever for its own children).
    @Test func aChildStartsWithNoSignalBlockedOrIgnoredWhateverTheTestThreadHad() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGCHLD)
        sigaddset(&blocked, SIGTERM)
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        // grep itself, no shell between (a shell may set its own mask).
        let r = try TestProcess.run("/bin/grep", ["-E", "^Sig(Blk|Ign)", "/proc/self/status"],
                                    environment: ["PATH": "/usr/bin:/bin"], stdin: nil, capture: true)
        #expect(r.status == 0, "\(r.err)")
        // The masks of proc(5), in hexadecimal; signals 1-31 (above them, the C library's own).
        let masks = Dictionary(uniqueKeysWithValues: r.out.split(separator: "\n").map { line in
            let field = line.split(separator: "\t")
            return (String(field[0]), UInt64(field[1], radix: 16) ?? .max)
        })
        #expect(masks["SigBlk:"] == 0, "\(r.out)")
        #expect(masks["SigIgn:"].map { $0 & 0x7FFF_FFFF } == 0, "\(r.out)")
    }

    /// What a starting server writes is read once it parses; a server that ignores SIGTERM is
    /// still stopped, and reaped.
    @Test func awaitFileReadsWhatTheServerWroteAndStopEndsOneThatIgnoresSIGTERM() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = dir.appendingPathComponent("port").path
        let pid = try TestProcess.start(["/bin/sh", "-c", "trap '' TERM; printf 4242 > '\(port).new'; mv '\(port).new' '\(port)'; exec sleep 600"],
                                        output: dir.appendingPathComponent("log").path)
        #expect(TestProcess.awaitFile(port, writtenBy: pid, within: 60) { Int($0) } == 4242)
        TestProcess.stop(pid)
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "still there after stop")
    }

    /// A server that ends before writing gives nil (its log says why), and stopping it then is
    /// harmless.
    @Test func awaitFileGivesNilWhenTheServerEndedFirst() throws {
        let pid = try TestProcess.start(["/bin/sh", "-c", "echo no such module >&2; exit 3"], output: nil)
        let never = FileManager.default.temporaryDirectory.appendingPathComponent("focus-never-\(UUID().uuidString)").path
        #expect(TestProcess.awaitFile(never, writtenBy: pid, within: 60) { Int($0) } == nil)
        TestProcess.stop(pid)
    }

    /// A program that cannot start is an error that names it, not a child that fails.
    @Test func aMissingProgramIsAnErrorNamingIt() {
        #expect(throws: TestProcessFailure.self) {
            _ = try TestProcess.run("/nonexistent/focus", [], environment: [:], stdin: nil, capture: true)
        }
    }
}
