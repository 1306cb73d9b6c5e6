import Foundation
import Testing

/// The progress line of long commands: on a terminal while the work runs, erased at its end,
/// and never in a pipe or a file.
@Suite(.serialized)
struct ProgressTests {
    /// A history file of `count` sessions, one every half hour from 2000.
    static func history(_ s: Sandbox, count: Int) throws -> String {
        let path = s.dir.appendingPathComponent("history.jsonl").path
        var text = ""
        text.reserveCapacity(count * 130)
        let base = 946_684_800 // 2000-01-01T00:00:00Z
        let formatter = ISO8601DateFormatter()
        for i in 0..<count {
            let start = Date(timeIntervalSince1970: TimeInterval(base + i * 1800))
            let end = start.addingTimeInterval(1500)
            text += #"{"task": "Thesis", "subtask": "Chapter \#(i % 7)", "start": "\#(formatter.string(from: start))", "end": "\#(formatter.string(from: end))", "status": "completed"}"# + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.enabled(if: Terminal.available, "tmux is not installed"))
    func aLargeImportShowsAProgressLineOnATerminalAndErasesIt() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        let file = try ProgressTests.history(s, count: 200_000)
        try await t.start("\(Sandbox.binary) import '\(file)'; echo EXIT=$?")
        let during = try await t.waitFor(" sessions · ", seconds: 120)
        #expect(during.contains("Importing ") && during.contains(" / 200,000 sessions · "), "\(during)")
        let done = try await t.waitFor("EXIT=0", seconds: 180)
        #expect(done.contains("Imported 200000 sessions"), "\(done)")
        #expect(!done.contains("Importing") && !done.contains("Checking"), "\(done)")
    }

    @Test(.enabled(if: Terminal.available, "tmux is not installed"))
    func quietShowsNoProgressLineOnATerminal() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        let file = try ProgressTests.history(s, count: 200_000)
        try await t.start("\(Sandbox.binary) import --quiet '\(file)'; echo EXIT=$?")
        var screens: [String] = []
        _ = try await eventually(seconds: 180) {
            let screen = try await t.screen()
            screens.append(screen)
            return screen.contains("EXIT=")
        }
        #expect(screens.last?.contains("EXIT=0") == true, "\(screens.last ?? "")")
        #expect(!screens.contains { $0.contains(" · ") }, "\(screens.first { $0.contains(" · ") } ?? "")")
    }

    @Test func nothingIsWrittenWhenStandardErrorIsNotATerminal() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let file = try ProgressTests.history(s, count: 50_000)
        let r = try await s.run("import", file)
        #expect(r.code == 0)
        #expect(r.err == "")
        #expect(r.out.hasPrefix("Imported 50000 sessions"))
    }
}
