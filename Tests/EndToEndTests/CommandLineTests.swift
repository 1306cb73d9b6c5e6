import Foundation
import Testing

/// The built binary: output, exit codes, files.
@Suite struct CommandLineTests {
    @Test func helpAndVersionExitZero() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let help = try await s.run("--help")
        #expect(help.code == 0)
        #expect(help.out.contains("USAGE: focus <subcommand>"), "\(help.out)")
        #expect(help.out.contains("start") && help.out.contains("stats") && help.out.contains("plan"))
        let sub = try await s.run("plan", "--help")
        #expect(sub.code == 0)
        #expect(sub.out.contains("USAGE: focus plan"), "\(sub.out)")
        let group = try await s.run("task")
        #expect(group.code == 0)
        #expect(group.out.contains("USAGE: focus task <subcommand>"), "\(group.out)")
        let helpCommand = try await s.run("help", "log")
        #expect(helpCommand.out.contains("USAGE: focus log"), "\(helpCommand.out)")
        let commands = ["", "task", "task add", "task list", "task show", "task edit", "task done", "task rm", "start",
                        "status", "stop", "pause", "resume", "log", "log add", "log edit", "log rm", "stats", "report",
                        "import", "export", "calendar", "calendar import", "calendar list", "calendar rm", "calendar busy",
                        "calendar export", "plan", "agenda", "config", "config set", "doctor", "daemon", "backup", "restore"]
        for command in commands {
            let r = try await s.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(r.code == 0, "\(command)")
            let long = r.out.split(separator: "\n").filter { $0.count > 80 }
            #expect(long.isEmpty, "focus \(command) --help has lines over 80 columns: \(long)")
        }
        #expect(try await s.run("--version").out.hasPrefix("focus "))
    }

    @Test func tasksRoundTripThroughTheDatabaseFile() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        // The moment pinned: against the real clock this due date was a date bomb (refused once it passed).
        let add = try await s.run(["task", "add", "Thesis/Chapter 2", "--estimate", "6h", "--due", "2026-11-27 17:00"],
                                  env: ["FOCUS_NOW": "2026-11-23T08:00:00+01:00"])
        #expect(add.code == 0, "\(add.err)")
        let list = try await s.run("task", "list", "--json")
        #expect(list.code == 0)
        #expect(list.out.contains(#""title": "Chapter 2", "estimate_seconds": 21600"#))
        let mode = try FileManager.default.attributesOfItem(atPath: s.db)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func badInputGetsOneLineAndTheDocumentedExitCode() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let cases: [([String], Int32, String)] = [
            (["start", "Thesis", "--duration", "25x"], 64, "invalid duration '25x'"),
            (["start", "Nope", "--duration", "1s"], 64, "no task matches 'Nope'"),
            (["task", "add", "Thesis"], 64, "already exists"),
            (["log", "rm", "999"], 64, "no session with id 999"),
            (["stop"], 69, "no session is running"),
            (["--tz", "Mars/Olympus", "log"], 64, "invalid time zone"),
            (["frob"], 64, "unknown command 'frob'. See `focus --help`"),
        ]
        for (args, code, fragment) in cases {
            let r = try await s.run(args)
            #expect(r.code == code, "\(args): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: ") && r.err.contains(fragment), "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(args): one line, got \(r.err)")
            #expect(!r.err.contains("Fatal error") && !r.err.contains("Stack"), "\(args)")
        }
    }

    @Test func aFileThatIsNotADatabaseIsLeftUntouchedWithExit74() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let junk = Data("this is my shopping list, not a database\n".utf8)
        try junk.write(to: URL(fileURLWithPath: s.db))
        let r = try await s.run("task", "list")
        #expect(r.code == 74)
        #expect(r.err.hasPrefix("focus: error: ") && r.err.contains("not an SQLite database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: s.db)) == junk)
    }

    @Test func anUnwritableDataDirectoryIsExit74NamingThePath() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let blocker = s.dir.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        // A command that writes (one that only reads finds no database there and creates none).
        let r = try await s.run("task", "add", "Thesis", env: ["FOCUS_DB": blocker.path + "/focus/focus.sqlite"])
        #expect(r.code == 74)
        #expect(r.err.contains(blocker.path))
    }

    @Test func aNonInteractiveRunPrintsPlainLinesAndRecordsACompletedSession() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let r = try await s.run("start", "Thesis", "--duration", "2s", "--no-break")
        #expect(r.code == 0, "\(r.err)")
        #expect(!r.out.contains("\u{1B}"), "no escape codes when piped")
        #expect(r.out.contains("work started · Thesis · 0:02"))
        #expect(r.out.contains("✓ completed: Thesis"))
        let logs = try await s.logs()
        #expect(logs.count == 1)
        #expect(logs.first?["status"] as? String == "completed")
        #expect(logs.first?["focused_seconds"] as? Int == 2)
        #expect(logs.first?["planned_seconds"] as? Int == 2)
    }

    @Test func logAddValidatesAndListsNewestFirst() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let now = ["FOCUS_NOW": "2026-11-22T18:00:00+01:00"]
        #expect(try await s.run("log", "add", "Thesis", "--start", "2026-11-22 09:00", "--duration", "50m", env: now).code == 0)
        #expect(try await s.run("log", "add", "Thesis", "--start", "2026-11-22 11:00", "--end", "2026-11-22 11:20", "--interrupted", env: now).code == 0)
        let bad = try await s.run("log", "add", "Thesis", "--start", "2026-11-22 12:00", "--end", "2026-11-22 11:00", env: now)
        #expect(bad.code == 64)
        let r = try await s.run("log", "--json", env: now)
        #expect(r.out == #"[{"id": 2, "task": "Thesis", "subtask": null, "start": "2026-11-22T10:00:00Z", "end": "2026-11-22T10:20:00Z", "focused_seconds": 1200, "planned_seconds": 1200, "status": "interrupted", "block_id": null, "note": null, "tags": []}, {"id": 1, "task": "Thesis", "subtask": null, "start": "2026-11-22T08:00:00Z", "end": "2026-11-22T08:50:00Z", "focused_seconds": 3000, "planned_seconds": 3000, "status": "completed", "block_id": null, "note": null, "tags": []}]"# + "\n")
    }
}

/// A command that wrote (and re-planned after it) closes the database before it exits: the
/// write-ahead log is checkpointed and removed, so a copy of the file alone holds everything.
@Suite struct DatabaseClosedOnExitTests {
    @Test func noWriteAheadLogIsLeftBehindAfterWritingCommands() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        for args in [["task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2030-01-01"],
                     ["log", "add", "Thesis/Intro", "--start", "2026-01-05 09:00", "--duration", "25m"], ["plan"]] {
            #expect(try await s.run(args).code == 0, "\(args)")
            #expect(!FileManager.default.fileExists(atPath: s.db + "-wal"), "\(args) left \(s.db)-wal")
        }
    }
}
