import FocusCoreTestSupport
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

    /// A pseudo-terminal from script(1) (util-linux, always on Debian): the transcript keeps
    /// every redraw, so the test sees the line drawn and then erased, whatever the machine's load.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is not installed"))
    func aLargeImportShowsAProgressLineOnATerminalAndErasesIt() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let file = try ProgressTests.history(s, count: 200_000)
        let r = try await offPool {
            try TestProcess.run("/usr/bin/script", ["-qec", "'\(Sandbox.binary)' import '\(file)'", "/dev/null"],
                          environment: s.environment.merging(["TERM": "xterm-256color"]) { $1 }, stdin: nil, capture: true)
        }
        #expect(r.status == 0, "\(r.out.suffix(500))")
        let transcript = r.out
        #expect(transcript.contains("Importing ") && transcript.contains(" / 200,000 sessions · "), "\(transcript.suffix(800))")
        // The last drawing is erased before the result line is written.
        let erase = "\r\u{1B}[2K"
        let result = try #require(transcript.range(of: "Imported 200000 sessions"))
        let lastErase = try #require(transcript.range(of: erase, options: .backwards, range: transcript.startIndex..<result.lowerBound))
        #expect(!transcript[lastErase.upperBound..<result.lowerBound].contains("Importing"))
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
