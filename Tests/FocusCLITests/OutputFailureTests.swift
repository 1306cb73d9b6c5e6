import FocusCLI
import FocusCore
import FocusSystem
import FocusTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A console whose standard output fails from the first write with `code`, as the real one
/// does on a full disk (ENOSPC), a closed descriptor (EBADF) or a reader that went away (EPIPE).
final class FailingConsole: Console {
    private let state = Mutex<(writes: Int, err: String)>((0, ""))
    let code: Int32
    let isInteractive = false
    let allowsColor = false
    let width = 80

    init(code: Int32) { self.code = code }

    func out(_ text: String) { state.withLock { $0.writes += 1 } }
    func err(_ text: String) { state.withLock { $0.err += text } }
    var writeFailure: ConsoleWriteFailure? {
        state.withLock { $0.writes > 0 } ? ConsoleWriteFailure(stream: .output, code: code) : nil
    }

    var outputWrites: Int { state.withLock { $0.writes } }
    var stderr: String { state.withLock { $0.err } }
}

@Suite struct OutputFailureTests {
    /// `count` sessions, one every 30 minutes from 2025-01-01.
    static func history(_ count: Int) -> String {
        let start = TestWorld.instant("2025-01-01T08:00:00Z")
        return (0..<count).map { i in
            let s = start.addingTimeInterval(Double(i) * 1800)
            let e = s.addingTimeInterval(1500)
            return #"{"task": "Thesis", "start": "\#(s.formatted(.iso8601))", "end": "\#(e.formatted(.iso8601))", "status": "completed"}"#
        }.joined(separator: "\n") + "\n"
    }

    static func run(_ world: TestWorld, _ args: [String], console: FailingConsole) async -> Int32 {
        await FocusMain.run(arguments: args, console: console) { global throws(FocusError) in
            var env = try world.environment(global: global)
            env.console = console
            return env
        }
    }

    @Test func aLongExportStopsAtTheFirstFailedWriteAndExits74WithOneLine() async throws {
        let world = try TestWorld()
        try CLIFixtures.seed(world, Self.history(3000))
        let console = FailingConsole(code: ENOSPC)
        let code = await Self.run(world, ["export"], console: console)
        #expect(code == 74)
        #expect(console.outputWrites == 1, "nothing written after the failure")
        #expect(console.stderr == "focus: error: cannot write to standard output: \(String(cString: strerror(ENOSPC))). The output is incomplete.\n")
    }

    @Test(arguments: [["task", "list"], ["log"], ["stats", "--last", "7"], ["--help"], ["export", "--output", "-"],
                      ["report", "--html", "-"], ["calendar", "export", "-"]])
    func everyResultThatCannotBeWrittenIs74(args: [String]) async throws {
        let world = try TestWorld()
        try CLIFixtures.seed(world, CLIFixtures.smallHistory)
        let closed = FailingConsole(code: EBADF)
        #expect(await Self.run(world, args, console: closed) == 74)
        #expect(closed.stderr == "focus: error: cannot write to standard output: it is closed. The output is incomplete.\n")
        let gone = FailingConsole(code: EPIPE)
        #expect(await Self.run(world, args, console: gone) == 74)
        #expect(gone.stderr == "", "a reader that went away is not announced")
    }

    @Test func aCommandsOwnErrorKeepsItsCodeAndItsLine() async throws {
        let world = try TestWorld()
        let console = FailingConsole(code: ENOSPC)
        #expect(await Self.run(world, ["stats", "--last", "0"], console: console) == 64)
        #expect(console.stderr.hasPrefix("focus: error: invalid --last '0'"))
    }
}
