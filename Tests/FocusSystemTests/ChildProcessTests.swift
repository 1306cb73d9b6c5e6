import FocusCore
import FocusSystem
import Foundation
import Testing

/// Issue #43: hooks and password commands are started and waited for by one function,
/// `ChildProcess.run`: what it hands the program, what it gives back, and how it stops one.
@Suite struct ChildProcessTests {
    private func request(_ script: String, input: ChildProcess.Input = .inherited, output: ChildProcess.Output = .firstLine,
                         timeout: Duration = .seconds(20), grace: Duration? = nil) -> ChildProcess.Request {
        ChildProcess.Request(arguments: ["sh", "-c", script], searchPath: true, environment: ["PATH": "/usr/bin:/bin", "WHO": "focus"],
                             input: input, output: output, timeout: timeout, termGrace: grace, ownGroup: true)
    }

    @Test func theFirstLineItPrintsAndItsExitStatusComeBack() {
        #expect(ChildProcess.run(request("echo \"$WHO\"; echo more")) == .exited(0, output: Array("focus\nmore\n".utf8)))
        #expect(ChildProcess.run(request("echo no; exit 3")) == .exited(3, output: Array("no\n".utf8)))
    }

    @Test func itsInputIsTheBytesGivenAndItsOutputGoesToTheLog() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("focus-child-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(fd); unlink(path) }
        let ran = ChildProcess.run(request("cat; echo oops >&2", input: .bytes(Array("{\"a\":1}\n".utf8)),
                                           output: .log(fd, limit: 1 << 20, cut: { "cut \($0)" })))
        #expect(ran == .exited(0, output: []))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\noops\n")
    }

    @Test func oneThatOverrunsIsStoppedAndSaysSo() {
        let ran = ChildProcess.run(request("sleep 30 & sleep 30", timeout: .milliseconds(300), grace: .milliseconds(200)))
        #expect(ran == .timedOut(output: []))
        #expect(ChildProcess.run(request("sleep 30", timeout: .milliseconds(300))) == .timedOut(output: []))
    }

    @Test func aProgramThatIsNotThereCouldNotStart() {
        var missing = request("")
        missing.arguments = ["/nonexistent/focus-no-such-program"]
        missing.searchPath = false
        guard case .couldNotStart = ChildProcess.run(missing) else {
            Issue.record("a missing program started")
            return
        }
    }
}
