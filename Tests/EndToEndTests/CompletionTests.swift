import Foundation
import Testing

/// Shell completion that knows the person's data, tried for real: bash with the script
/// `focus --generate-completion-script bash` writes, in tmux, pressing Tab.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct CompletionTests {
    /// A bash in tmux with focus's completion loaded and `focus` on its PATH.
    func bash(_ s: Sandbox) async throws -> Terminal {
        let t = Terminal(sandbox: s)
        let rc = s.dir.appendingPathComponent("bashrc").path
        let bin = URL(fileURLWithPath: Sandbox.binary).deletingLastPathComponent().path
        try """
            export PATH='\(bin)':$PATH PS1='$ '
            source <(focus --generate-completion-script bash)
            cd '\(s.dir.path)'
            """.write(toFile: rc, atomically: true, encoding: .utf8)
        try await t.start("exec bash --noprofile --rcfile '\(rc)' -i")
        try await t.waitFor("$")
        return t
    }

    /// Types `line`, presses Tab, and returns the command line as bash completed it.
    func complete(_ t: Terminal, _ line: String) async throws -> String {
        try await t.keys("C-u")
        try await t.keys(line, "Tab")
        try await Task.sleep(for: .milliseconds(700))
        let screen = try await t.screen()
        return screen.split(separator: "\n").last { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) } ?? ""
    }

    @Test func tabCompletesTaskPathsWithTheirSpacesQuotedConfigKeysAndFiles() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        _ = try await s.run("task", "add", "Thesis/Chapter 2")
        _ = try await s.run("task", "add", "Groceries")
        try "{}".write(toFile: s.dir.appendingPathComponent("sample-history.jsonl").path, atomically: true, encoding: .utf8)
        let t = try await bash(s)
        defer { t.kill() }
        #expect(try await complete(t, "focus start Thesis/Ch") == "focus start Thesis/Chapter\\ 2")
        #expect(try await complete(t, "focus task show Gro") == "focus task show Groceries")
        #expect(try await complete(t, "focus config set summary_t") == "focus config set summary_time")
        #expect(try await complete(t, "focus import sample-h") == "focus import sample-history.jsonl")
        #expect(try await complete(t, "focus export --format cs") == "focus export --format csv")
        // The database another --db names, in any position.
        _ = try await s.run("task", "add", "Other/Only here", env: ["FOCUS_DB": s.dir.appendingPathComponent("other.sqlite").path])
        #expect(try await complete(t, "focus task show --db other.sqlite Other/O") == "focus task show --db other.sqlite Other/Only\\ here")
    }

    @Test func completionReadsWithoutWritingAndAMissingDatabaseOffersNothing() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let missing = s.dir.appendingPathComponent("none.sqlite").path
        let r = try await s.run("---completion", "start", "--", "positional@0", "2", "0", "focus", "start", "", env: ["FOCUS_DB": missing])
        #expect(r.code == 0)
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing))
        let zones = try await s.run("---completion", "start", "--", "--tz", "3", "6", "focus", "start", "--tz", "Europe/Ber")
        #expect(zones.out.contains("Europe/Berlin"))
    }
}

/// bash's completion function as bash calls it on Tab (`_focus CMD CUR PREV` with `COMP_WORDS`
/// set), without a terminal: what it offers for a command line.
@Suite struct BashCompletionFunctionTests {
    func offers(_ s: Sandbox, script: String, _ words: [String]) throws -> [String] {
        let quoted = ([Sandbox.binary] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let program = """
            source '\(script)'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _focus focus "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try Spawn.run("/bin/bash", ["-c", program], environment: s.environment, stdin: nil, capture: true)
        return r.out.split(separator: "\n").map(String.init)
    }

    @Test func globalOptionsCompleteBeforeTheSubcommandAsAfterIt() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        _ = try await s.run("task", "add", "Thesis/Chapter 2")
        let script = s.dir.appendingPathComponent("focus.bash").path
        try await s.run("--generate-completion-script", "bash").out.write(toFile: script, atomically: true, encoding: .utf8)
        // Before the subcommand: the zone, then the subcommand and its arguments past the option.
        #expect(try offers(s, script: script, ["--tz", "Europe/Ber"]).contains("Europe/Berlin"))
        #expect(try offers(s, script: script, ["--tz", "Europe/Berlin", "sta"]).sorted() == ["start", "stats", "status"])
        #expect(try offers(s, script: script, ["--tz", "UTC", "start", "Thesis/Ch"]).contains { $0.hasPrefix("Thesis/Chapter") })
        #expect(try offers(s, script: script, ["--db", s.db, "task", "show", "Thesis/Ch"]).contains { $0.hasPrefix("Thesis/Chapter") })
        #expect(try offers(s, script: script, ["--t"]) == ["--tz"])
        // After it, as before.
        #expect(try offers(s, script: script, ["status", "--tz", "Europe/Ber"]).contains("Europe/Berlin"))
    }
}

/// The zsh and fish scripts load in their shells (checked when the shells are installed).
@Suite struct CompletionScriptTests {
    @Test(arguments: [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")])
    func theGeneratedScriptParsesInItsShell(shell: String, path: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { return }
        let s = try Sandbox()
        defer { s.remove() }
        let script = try await s.run("--generate-completion-script", shell)
        #expect(script.code == 0)
        let file = s.dir.appendingPathComponent("focus-completion.\(shell)").path
        try script.out.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try Spawn.run(path, ["-n", file], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        #expect(check.status == 0, "\(shell) -n: \(check.err)")
        #expect(script.out.contains("---completion"), "the \(shell) script calls focus back for task paths")
    }

    /// `--db` and `--tz` before the subcommand: zsh's root `_arguments` takes them (with the
    /// value completion `status` has), fish's parser skips their values and offers them.
    @Test func globalOptionsCompleteBeforeTheSubcommandInZshAndFish() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let zsh = try await s.run("--generate-completion-script", "zsh").out
        let root = zsh.components(separatedBy: "\n_focus() {\n").dropFirst().first?.components(separatedBy: "\n}\n").first ?? ""
        #expect(root.contains("'--db[Database file") && root.contains("'--tz[Time zone") && root.contains("---completion status -- --tz"), "\(root)")
        let fish = try await s.run("--generate-completion-script", "fish").out
        #expect(fish.contains("case 'focus'\n        __focus_parse_subcommand 0 'db=' 'tz=' 'version' 'h/help'"))
        #expect(fish.contains("__focus_should_offer_completions_for_flags_or_options \"focus\" tz' -l 'tz'"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else { return }
        let file = s.dir.appendingPathComponent("focus.fish").path
        try fish.write(toFile: file, atomically: true, encoding: .utf8)
        func offers(_ line: String) throws -> [String] {
            let r = try Spawn.run("/usr/bin/fish", ["--no-config", "-c", "source \(file); complete -C '\(line)'"],
                                  environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
            return r.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try offers("focus --tz UTC st") == ["start", "stats", "status", "stop"])
        #expect(try offers("focus --db x.sqlite ta") == ["task"])
        #expect(try Set(offers("focus --")).isSuperset(of: ["--db", "--tz"]))
    }
}
