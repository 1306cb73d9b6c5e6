import Foundation
import Testing

/// `focus log rm --subtask PATH --all` through the real binary: it asks on a terminal, and
/// without one it refuses unless told `--force`, whatever arrives on standard input.
@Suite(.serialized)
struct LogClearTests {
    func twoSessions(_ s: Sandbox) async throws {
        try await s.run("task", "add", "Thesis/Chapter 2")
        for start in ["2026-01-05 09:00", "2026-01-06 09:00"] {
            let r = try await s.run("log", "add", "Thesis/Chapter 2", "--start", start, "--duration", "25m")
            #expect(r.code == 0, "\(r.err)")
        }
    }

    @Test func withoutATerminalItRefusesEvenAYesOnStandardInput() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await twoSessions(s)
        let r = try await s.run("log", "rm", "--subtask", "Thesis/Chapter 2", "--all", stdin: "y\n")
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.err == "focus: error: not deleting 2 sessions of Thesis/Chapter 2 (50m) without asking, and there is no terminal to ask at; add --force to delete them.\n")
        let kept = try await s.run("log", "--json", "--last", "3650")
        #expect(kept.out.components(separatedBy: "\"subtask\": \"Chapter 2\"").count == 3)
        let forced = try await s.run("log", "rm", "--subtask", "Thesis/Chapter 2", "--all", "--force")
        #expect(forced.code == 0)
        #expect(forced.out == "Deleted 2 sessions of Thesis/Chapter 2 (50m).\n")
        let json = try await s.run("log", "--json", "--last", "3650")
        #expect(json.out == "[]\n")
    }

    @Test(.enabled(if: Terminal.available, "tmux is not installed"))
    func onATerminalItAsksAndOnlyAYesDeletes() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await twoSessions(s)
        let command = "\(Sandbox.binary) log rm --subtask 'Thesis/Chapter 2' --all"
        try await t.start("\(command); echo FIRST=$?; \(command); echo SECOND=$?")
        try await t.waitFor("Delete 2 sessions of Thesis/Chapter 2 (50m)? [y/N]")
        try await t.keys("n", "Enter")
        let first = try await t.waitFor("FIRST=0")
        #expect(first.contains("Nothing deleted."))
        _ = try await eventually { try await t.screen().components(separatedBy: "[y/N]").count == 3 }
        try await t.keys("y", "Enter")
        let second = try await t.waitFor("SECOND=0")
        #expect(second.contains("Deleted 2 sessions of Thesis/Chapter 2 (50m)."))
        let json = try await s.run("log", "--json", "--last", "3650")
        #expect(json.out == "[]\n")
    }
}
