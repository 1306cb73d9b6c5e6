import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The first hour with focus (issue 17): help whose examples run when pasted, errors in one
/// voice, `start --create`, messages in a natural order, read-only commands that create
/// nothing, and files the person asks for that follow the umask.
@Suite struct FirstHourTests {
    static let repository = TestRepository.root
    static let pinnedNow = "2026-11-23T07:30:00+01:00"

    // MARK: Help examples

    /// The help's convention: an example is a span in backquotes that starts with `focus `, and it
    /// runs as printed in a POSIX shell. Commands named in prose go without backquotes.
    static func examples(in text: String) -> [String] {
        var found: [String] = []
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        for (n, part) in parts.enumerated() where n % 2 == 1 && part.hasPrefix("focus ") {
            found.append(String(part))
        }
        return found
    }

    /// Every help text of the command tree (`--experimental-dump-help`): abstracts, discussions and
    /// each argument's help, by command path.
    static func helpTexts(_ command: [String: Any], path: [String], into out: inout [(path: String, text: String)]) {
        let name = path.joined(separator: " ")
        for key in ["abstract", "discussion"] { if let t = command[key] as? String { out.append((name, t)) } }
        for arg in command["arguments"] as? [[String: Any]] ?? [] {
            for key in ["abstract", "discussion"] { if let t = arg[key] as? String { out.append((name, t)) } }
        }
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            helpTexts(sub, path: path + [sub["commandName"] as? String ?? "?"], into: &out)
        }
    }

    static func commandPaths(_ command: [String: Any], path: [String], into out: inout [[String]]) {
        out.append(path)
        for sub in command["subcommands"] as? [[String: Any]] ?? [] where (sub["commandName"] as? String) != "help" {
            commandPaths(sub, path: path + [sub["commandName"] as? String ?? "?"], into: &out)
        }
    }

    /// The page of `focus generate-man` as text: roff escapes undone.
    static func manText(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(dq", with: "\"")
            .replacingOccurrences(of: "\\ ", with: " ").replacingOccurrences(of: "\\&", with: "")
            .replacingOccurrences(of: "\\e", with: "\\")
    }

    /// Examples that cannot run as printed in a test, each with its reason. (None today: `focus
    /// start` examples run with `--duration 1s --no-break` added instead of counting down.)
    static let skipped: [String: String] = [:]

    /// A database with the sample history and calendar, as the README's tour makes it.
    static func sampleDatabase(_ s: Sandbox) async throws {
        let env = ["FOCUS_NOW": pinnedNow]
        let history = try await s.run(["import", repository.appendingPathComponent("data/sample-history.jsonl").path], env: env)
        #expect(history.code == 0, "\(history.err)")
        let calendar = try await s.run(["calendar", "import", repository.appendingPathComponent("data/sample-calendar.ics").path], env: env)
        #expect(calendar.code == 0, "\(calendar.err)")
    }

    /// Runs one line through `/bin/sh -c`, with `focus` on the PATH, on its own copy of `db`.
    static func runInShell(_ line: String, db: String, sandbox s: Sandbox, bin: String) async throws -> Sandbox.Result {
        let dir = s.dir.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let copy = dir.appendingPathComponent("focus.sqlite").path
        // The database in WAL mode is its file and the log beside it.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: db + suffix) {
            try FileManager.default.copyItem(atPath: db + suffix, toPath: copy + suffix)
        }
        var env = s.environment
        env["FOCUS_DB"] = copy
        env["FOCUS_NOW"] = pinnedNow
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["NO_COLOR"] = "1"
        let environment = env
        let r = try await offPool {
            try TestProcess.run("/usr/bin/timeout", ["120", "/bin/sh", "-c", "cd '\(dir.path)' && " + line], environment: environment, stdin: nil, capture: true)
        }
        return Sandbox.Result(code: r.status, out: r.out, err: r.err)
    }

    @Test func everyHelpExampleRunsAsPrinted() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        // `focus` on the PATH, whatever the binary is called.
        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        try await Self.sampleDatabase(s)

        let dump = try await s.run("--experimental-dump-help")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        let tree = try #require(root["command"] as? [String: Any])
        var texts: [(path: String, text: String)] = []
        Self.helpTexts(tree, path: ["focus"], into: &texts)

        var examples: [String] = []
        for (path, text) in texts {
            examples += Self.examples(in: text)
            #expect(text.filter { $0 == "`" }.count % 2 == 0, "\(path): unbalanced backquotes in \(text.debugDescription)")
            // Indented or whole-line examples are not the convention: they go in backquotes.
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("focus ") {
                Issue.record("\(path): an example outside backquotes: \(line)")
            }
        }
        #expect(examples.count >= 8, "\(examples)")

        // As printed: `--help` (80 columns) never cuts an example across lines.
        for (path, text) in texts where !Self.examples(in: text).isEmpty {
            let help = try await s.run(Array(path.split(separator: " ").dropFirst().map(String.init)) + ["--help"])
            for example in Self.examples(in: text) {
                #expect(help.out.contains("`\(example)`"), "\(path) --help cuts `\(example)` across lines:\n\(help.out)")
            }
        }

        // The manual is written from the same help: its examples are the same ones (the `focus
        // help` topics' sections aside: reference prose, checked by NewcomerTests).
        let man = try await s.run("generate-man")
        #expect(man.code == 0)
        let commandSections = man.out.components(separatedBy: "\n.SH ").filter { section in
            !(section.split(separator: "\n").dropFirst().first?.hasPrefix("The text of \\fBfocus help ") ?? false)
        }
        #expect(commandSections.count < man.out.components(separatedBy: "\n.SH ").count, "no topic sections in the manual")
        var manExamples: [String] = []
        for line in Self.manText(commandSections.joined(separator: "\n.SH ")).split(separator: "\n") { manExamples += Self.examples(in: String(line)) }
        #expect(Set(manExamples) == Set(examples), "man page: \(Set(manExamples).symmetricDifference(examples))")

        for example in Set(examples).sorted() {
            if let reason = Self.skipped[example] {
                print("skipped `\(example)`: \(reason)")
                continue
            }
            var line = example
            // A countdown would take its whole length: one second, one session.
            if line.hasPrefix("focus start") || line.hasPrefix("focus continue") {
                if line.contains("--open") {
                    // Counting up until stopped: stopped from another command, as a status bar would.
                    line += " & sleep 1; focus stop; wait $!"
                } else {
                    line = line.replacing(/--duration \S+/, with: "") + " --duration 1s --no-break"
                }
            }
            let r = try await Self.runInShell(line, db: s.db, sandbox: s, bin: bin.path)
            #expect(r.code == 0, "`\(example)` exited \(r.code): \(r.err)")
        }
    }

    @Test func everyCommandsHelpShowsADefaultOnce() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let dump = try await s.run("--experimental-dump-help")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        let tree = try #require(root["command"] as? [String: Any])
        var paths: [[String]] = []
        Self.commandPaths(tree, path: [], into: &paths)
        #expect(paths.count > 30)
        func check(_ command: [String: Any], _ name: String) {
            for arg in command["arguments"] as? [[String: Any]] ?? [] {
                // The parser prints "(default: X)" itself for an option with a default value.
                if let value = arg["defaultValue"] as? String, !value.isEmpty, let help = arg["abstract"] as? String {
                    #expect(!help.lowercased().contains("default"), "\(name): \(help) repeats the parser's (default: \(value))")
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { check(sub, name + " " + (sub["commandName"] as? String ?? "")) }
        }
        check(tree, "focus")
        for path in paths {
            let r = try await s.run(path + ["--help"])
            #expect(r.code == 0, "\(path)")
            for line in r.out.split(separator: "\n") where line.contains("(default") {
                let count = line.components(separatedBy: "(default").count - 1
                #expect(count == 1, "focus \(path.joined(separator: " ")) --help: \(line)")
            }
        }
        let log = try await s.run("help", "log", "list")
        #expect(log.out.contains("How many local days back, today included. (default: 7)"), "\(log.out)")
    }

    // MARK: Errors in one voice

    @Test(arguments: [
        (["task", "add", "x", "--estimate"],
         "focus: error: missing value for --estimate: give one, as in --estimate <duration>. See `focus task add --help`.\n"),
        (["task", "edit", "Thesis/Chapter", "2", "--due", "none"],
         "focus: error: unexpected argument '2': a name with spaces needs quotes, as in `focus task edit \"Thesis/Chapter 2\" --due none`.\n"),
        (["log", "add", "Thesis/Chapter", "2", "--start", "2026-11-22 09:00", "--duration", "50m"],
         "focus: error: unexpected argument '2': a name with spaces needs quotes, as in `focus log add \"Thesis/Chapter 2\" --start \"2026-11-22 09:00\" --duration 50m`.\n"),
        (["task", "add", "x", "--estim", "3h"],
         "focus: error: unknown option '--estim' for `focus task add`. Did you mean --estimate? See `focus task add --help` for its options.\n"),
        (["task", "add"], "focus: error: missing <path>: `focus task add` needs it. See `focus task add --help`.\n"),
        (["calendar", "busy"], "focus: error: missing --from <date>: `focus calendar busy` needs it. See `focus calendar busy --help`.\n"),
        (["stats", "--last", "x"], "focus: error: invalid value 'x' for --last <n>: expected a whole number. See `focus stats --help`.\n"),
        (["frob"], "focus: error: unknown command 'frob'. See `focus --help` for the commands.\n"),
        (["task", "frob"], "focus: error: unknown command 'frob' for `focus task`; its commands are add, list, show, edit, done, rm. See `focus task --help`.\n"),
        (["--db", "x.sqlite", "start", "--count"], "focus: error: missing value for --count: give one, as in --count <k>. See `focus start --help`.\n"),
        (["task", "add", "Thesis/Chapter", "2", "--due", "2026-11-27", "17:00"],
         "focus: error: unexpected argument '2': a name with spaces needs quotes, as in `focus task add \"Thesis/Chapter 2\" --due \"2026-11-27 17:00\"`.\n"),
        (["task", "add", "Thesis/Draft", "--due", "fri", "5pm"],
         "focus: error: unexpected argument '5pm': a name with spaces needs quotes, as in `focus task add Thesis/Draft --due \"fri 5pm\"`.\n"),
        (["stats", "--task", "Thesis/Chapter", "2"],
         "focus: error: unexpected argument '2': a name with spaces needs quotes, as in `focus stats --task \"Thesis/Chapter 2\"`.\n"),
        // Never joined into a value that is not a name or a date-time.
        (["start", "x", "--duration", "50m", "1s"],
         "focus: error: unexpected argument '1s': `focus start` does not take it (a name with spaces needs quotes). See `focus start --help`.\n"),
        (["agenda", "tomorrow", "extra"],
         "focus: error: unexpected argument 'extra': `focus agenda` does not take it (a name with spaces needs quotes). See `focus agenda --help`.\n"),
        (["start", "x", "--no-break=yes"], "focus: error: --no-break takes no value: write --no-break alone. See `focus start --help`.\n"),
        (["--tz"], "focus: error: --tz goes with a command and needs a value, as in `focus --tz Europe/Berlin stats`. See `focus --help` for the commands.\n"),
        (["task", "add", "x", "--notes", "-y"],
         "focus: error: missing value for --notes: give one, as in --notes <text>. A value that starts with '-' is written --notes=-y. See `focus task add --help`.\n"),
    ])
    func parserErrorsSpeakLikeFocus(args: [String], expected: String) async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let r = try await s.run(args)
        #expect(r.code == 64)
        #expect(r.err == expected)
        #expect(r.out == "")
        #expect(!FileManager.default.fileExists(atPath: s.db), "nothing created")
    }

    @Test func theQuotedFixInAnErrorRunsWhenPasted() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        let r = try await s.run("task", "edit", "Thesis/Chapter", "2", "--notes", "it's done")
        #expect(r.code == 64)
        let fix = try #require(r.err.split(separator: "`").dropFirst().first.map(String.init))
        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        let run = try await Self.runInShell(fix, db: s.db, sandbox: s, bin: bin.path)
        #expect(run.code == 0, "`\(fix)`: \(run.err)")

        // A suggestion in a result line quotes the name too.
        try await s.run("task", "add", "Side project's")
        let done = try await s.run("task", "done", "Side project's")
        #expect(done.out.contains("`focus task done \"Side project's\" --undo` reopens it."), "\(done.out)")
        let undo = try #require(done.out.split(separator: "`").dropFirst().first.map(String.init))
        let reopened = try await Self.runInShell(undo, db: s.db, sandbox: s, bin: bin.path)
        #expect(reopened.code == 0 && reopened.out.contains("Reopened task Side project's."), "`\(undo)`: \(reopened.err)")
    }

    // MARK: start --create

    @Test func startOffersToAddAMissingTaskAndCreateAddsIt() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis")
        let missing = try await s.run("start", "Nope/x", "--duration", "1s", "--no-break")
        #expect(missing.code == 64)
        #expect(missing.err == "focus: error: no task matches 'Nope/x'. Run `focus task add \"Nope/x\"` first, or `focus start --create \"Nope/x\"` to add and start it.\n")
        let spaced = try await s.run("start", "Side project/it's", "--duration", "1s", "--no-break")
        #expect(spaced.err.contains("Run `focus task add \"Side project/it's\"` first, or `focus start --create \"Side project/it's\"`"), "\(spaced.err)")
        let prefix = try await s.run("start", "thes/Intro", "--duration", "1s", "--no-break")
        #expect(prefix.err.hasSuffix("Run `focus task add \"Thesis/Intro\"` first, or `focus start --create \"Thesis/Intro\"` to add and start it.\n"), "\(prefix.err)")
        let dollar = try await s.run("start", "$HOME/x", "--duration", "1s", "--no-break")
        #expect(dollar.err.contains("Run `focus task add '$HOME/x'` first"), "\(dollar.err)")
        #expect(try await s.logs().isEmpty)

        let created = try await s.run("start", "--create", "Nope/x", "--duration", "1s", "--no-break", env: ["NO_COLOR": "1"])
        #expect(created.code == 0, "\(created.err)")
        let lines = created.out.split(separator: "\n").map(String.init)
        let task = try #require(lines.firstIndex { $0 == "Created task Nope." })
        let sub = try #require(lines.firstIndex { $0.hasPrefix("Added Nope/x (#") })
        #expect(task < sub)
        var logs = try await s.logs()
        #expect(logs.count == 1)
        #expect(logs.first?["task"] as? String == "Nope" && logs.first?["subtask"] as? String == "x")

        // Under an existing task named by a prefix; an existing path is just started.
        let under = try await s.run("start", "--create", "thes/Intro", "--duration", "1s", "--no-break")
        #expect(under.code == 0, "\(under.err)")
        #expect(under.out.contains("Added Thesis/Intro (#"), "\(under.out)")
        #expect(!under.out.contains("Created task"))
        let again = try await s.run("start", "--create", "Thesis/Intro", "--duration", "1s", "--no-break")
        #expect(again.code == 0 && !again.out.contains("Added"), "\(again.out)")
        logs = try await s.logs()
        #expect(logs.count == 3)
        let tasks = try await s.run("task", "list", "--json")
        #expect(tasks.out.components(separatedBy: "\"Intro\"").count == 2, "one Intro: \(tasks.out)")

        let noPath = try await s.run("start", "--create")
        #expect(noPath.code == 64 && noPath.err.hasPrefix("focus: error: --create needs the task"), "\(noPath.err)")
    }

    // MARK: Messages in order

    @Test func theRecordLineComesBeforeTheNoticeEveryCycle() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        // No session bus: notices are printed in the terminal (standard error), read here in
        // one stream with the record lines (standard output), as a person sees them.
        let r = try await Self.runInShell("focus start \"Thesis/Chapter 2\" --duration 1s --break 1s --count 3 2>&1", db: s.db, sandbox: s, bin: bin.path)
        #expect(r.code == 0, "\(r.out)")
        let lines = r.out.split(separator: "\n").map(String.init)
        let records = lines.indices.filter { lines[$0].contains("completed: Thesis/Chapter 2") && lines[$0].contains("(recorded as #") }
        let notices = lines.indices.filter { lines[$0].contains("Focus complete") }
        #expect(records.count == 3 && notices.count == 3, "\(lines)")
        for (record, notice) in zip(records, notices) {
            #expect(record < notice, "the record line comes first: \(lines)")
        }
    }

    // MARK: Read-only commands create nothing

    @Test func readOnlyCommandsOnAFreshMachineCreateNothing() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let data = s.dir.appendingPathComponent("fresh-data")
        let env = ["FOCUS_DB": "", "XDG_DATA_HOME": data.path, "NO_COLOR": "1"]
        let out = s.dir.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["status"], "idle\n"),
            (["status", "--json"], "{\"state\": \"idle\"}\n"),
            (["stats"], "No focus sessions between"),
            (["stats", "--json"], "\"totals\""),
            (["task", "list"], "Add one with `focus task add"),
            (["task", "list", "--json"], "[]"),
            (["agenda"], "Nothing scheduled."),
            (["log"], "No sessions in the last 7 days."),
            (["log", "list", "--json"], "[]"),
            (["plan", "--dry-run"], "Nothing to plan."),
            (["calendar", "list"], "No calendars."),
            (["calendar", "busy", "--from", "today", "--to", "today"], "No busy time"),
            (["calendar", "export", out + "/plan.ics"], ""),
            (["export"], ""),
            (["export", "--output", out + "/e.csv"], ""),
            (["report", "--html", out + "/r.html"], ""),
            (["doctor"], "not created yet"),
        ]
        for (args, fragment) in cases {
            let r = try await s.run(args, env: env)
            // doctor too: a machine with no desktop (no notification server) is normal, a warning.
            #expect(r.code == 0, "\(args): \(r.out) \(r.err)")
            #expect(fragment.isEmpty || r.out.contains(fragment), "\(args): \(r.out)")
            #expect(!r.err.contains("error"), "\(args): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "\(args) created \(data.path)")
        }
        let show = try await s.run(["task", "show", "Thesis"], env: env)
        #expect(show.code == 64 && show.err.contains("no task matches 'Thesis'"))
        #expect(!FileManager.default.fileExists(atPath: data.path))
        // Commands that would record but fail first leave nothing behind either.
        for args in [["start", "Nope"], ["continue"], ["start"], ["log", "add", "Nope", "--start", "2026-11-20 09:00", "--duration", "1s"]] {
            let failed = try await s.run(args, env: env)
            #expect(failed.code != 0 && failed.err.hasPrefix("focus: error: "), "\(args): \(failed.err)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "\(args) left \(data.path) behind")
        }
        // The first command that records something makes the database.
        let add = try await s.run(["task", "add", "Thesis"], env: env)
        #expect(add.code == 0)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("focus/focus.sqlite").path))
    }

    // MARK: Files follow the umask

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test(arguments: [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o077, 0o600)])
    func requestedFilesFollowTheUmaskAndPrivateOnesStay0600(umask: Int, expected: Int) async throws {
        let s = try Sandbox()
        defer { s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        let dir = s.dir.path
        let line = "umask \(String(umask, radix: 8)) && focus report --html '\(dir)/r.html' && focus export --output '\(dir)/e.jsonl'"
            + " && focus export --format csv --output '\(dir)/e.csv' && focus calendar export '\(dir)/c.ics'"
            + " && focus config set work 30m && FOCUS_DB='\(dir)/new.sqlite' focus task add Other && focus backup '\(dir)/b.sqlite'"
        let r = try await Self.runInShell(line, db: s.db, sandbox: s, bin: bin.path)
        #expect(r.code == 0, "\(r.err)")
        for name in ["r.html", "e.jsonl", "e.csv", "c.ics"] {
            #expect(try Self.mode(dir + "/" + name) == expected, "\(name) under umask \(String(umask, radix: 8))")
        }
        let config = s.dir.appendingPathComponent("config/focus/config.toml").path
        #expect(try Self.mode(config) == 0o600)
        #expect(try Self.mode(dir + "/new.sqlite") == 0o600)
        #expect(try Self.mode(dir + "/b.sqlite") == 0o600)
    }

    @Test func aReplacedFileKeepsItsPermissionsAsWithCp() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let path = s.dir.appendingPathComponent("r.html").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        let r = try await s.run("report", "--html", path)
        #expect(r.code == 0, "\(r.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(try Self.mode(path) == 0o640)
    }
}
