import FocusCoreTestSupport
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

    /// Issue #39: `Thes\u{200B}is` (a zero width space inside) was offered as if it were `Thesis`;
    /// a name the views show escaped is not offered (it is reached by its #ID, as the views show it).
    @Test func aNameWithAZeroWidthCharacterIsNeverOfferedAsAnotherName() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        for name in ["Thesis", "Thes\u{200B}is/Draft", "The\u{FEFF}sis2", "Th\u{2060}esis3", "Thes\u{200C}is4", "Thes\u{200D}is5", "Thesis 👩\u{200D}💻"] {
            #expect(try await s.run("task", "add", name).code == 0)
        }
        let r = try await s.run("---completion", "start", "--", "positional@0", "2", "4", "focus", "start", "Thes")
        let offered = r.out.split(separator: "\n").map(String.init)
        #expect(offered.contains("Thesis"), "\(offered)")
        #expect(offered.contains("Thesis 👩\u{200D}💻"), "an emoji's joiner is part of the emoji: \(offered)")
        let hidden: [UInt32] = [0x200B, 0x200C, 0x2060, 0xFEFF]
        #expect(!offered.contains { $0.unicodeScalars.contains { hidden.contains($0.value) } }, "\(offered)")
        #expect(!offered.contains { $0.contains("Thes\u{200D}is5") }, "\(offered)")
        // The views show it escaped.
        let list = try await s.run("task", "list")
        #expect(list.out.contains("Thes\u{FFFD}is"), "\(list.out)")
        #expect(!list.out.unicodeScalars.contains { hidden.contains($0.value) }, "\(list.out)")
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
        let r = try TestProcess.run("/bin/bash", ["-c", program], environment: s.environment, stdin: nil, capture: true)
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
        let check = try TestProcess.run(path, ["-n", file], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
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
            let r = try TestProcess.run("/usr/bin/fish", ["--no-config", "-c", "source \(file); complete -C '\(line)'"],
                                  environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
            return r.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try offers("focus --tz UTC st") == ["start", "stats", "status", "stop"])
        #expect(try offers("focus --db x.sqlite ta") == ["task"])
        #expect(try Set(offers("focus --")).isSuperset(of: ["--db", "--tz"]))
    }
}

/// Names another app, a shared calendar or an imported history chose reach every shell as data
/// (README, "Shell completion"): pressing Tab never runs what a name holds, and the name still
/// completes to itself, quoted.
@Suite(.serialized) struct HostileNameCompletionTests {
    static let names = ["Evil $(touch PWNED1)", "Back `touch PWNED2`", "Semi; touch PWNED3", "Quote \"q\" 's", "Glob *",
                        "Col:on", "-dash", "Dollar $HOME", "Back\\slash"]

    /// A sandbox whose database holds a task of each hostile name.
    func sandbox() async throws -> Sandbox {
        let s = try Sandbox()
        for name in Self.names {
            let added = try await s.run("task", "add", "--", name)
            #expect(added.code == 0, "\(name): \(added.err)")
        }
        return s
    }

    /// No `PWNED…` file was made in `dir`.
    func nothingRan(_ dir: URL) -> Bool {
        !((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).contains { $0.hasPrefix("PWNED") }
    }

    /// What bash's completion function offers for `focus WORDS…`, each word as bash reads it
    /// back once inserted in a command line (`NUMBER-OF-WORDS:WORD`), run in the sandbox's
    /// directory with bash-completion's functions loaded (when Debian's `bash-completion` is
    /// installed).
    func bashOffers(_ s: Sandbox, script: String, _ words: [String]) throws -> [String] {
        let quoted = ([Sandbox.binary] + words).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let program = """
            cd '\(s.dir.path)'
            [ -r /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
            source '\(script)'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _focus focus "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
            for candidate in "${COMPREPLY[@]}"; do eval "set -- ${candidate}"; printf '%s:%s\\n' "$#" "$1"; done
            """
        let r = try TestProcess.run("/bin/bash", ["-c", program], environment: s.environment, stdin: nil, capture: true)
        return r.out.split(separator: "\n").map { String($0.drop { $0 != ":" }.dropFirst()) + ($0.hasPrefix("1:") ? "" : " (not one word)") }
    }

    @Test func bashOffersEachHostileNameAsOneWordThatReadsBackAsItAndRunsNothing() async throws {
        let s = try await sandbox()
        defer { s.remove() }
        let script = s.dir.appendingPathComponent("focus.bash").path
        let generated = try await s.run("--generate-completion-script", "bash").out
        #expect(!generated.contains("-W \"$(__focus_custom_complete"), "candidates never go through compgen -W")
        try generated.write(toFile: script, atomically: true, encoding: .utf8)
        // A name with a line break and a tab, as only an edited database holds: never offered
        // (the scripts read one candidate a line; fish splits a description off at a tab).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let sql = "INSERT INTO pathId DEFAULT VALUES; INSERT INTO task (id, title, titleKey, createdAt) "
                + "VALUES (last_insert_rowid(), 'New' || char(10) || 'line $(touch PWNED9)' || char(9) || 'x', 'new line x', 0);"
            let inserted = try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true)
            #expect(inserted.status == 0, "\(inserted.err)")
        }
        let all = try bashOffers(s, script: script, ["task", "show", ""])
        #expect(Set(all) == Set(Self.names), "\(all)")
        for name in Self.names where !name.hasPrefix("-") {
            #expect(try bashOffers(s, script: script, ["task", "show", String(name.prefix(4))]).contains(name), "\(name)")
        }
        #expect(nothingRan(s.dir))
    }

    @Test(.enabled(if: Terminal.available, "tmux is not installed"))
    func tabInBashQuotesTheNameAndTheCommandRunsOnIt() async throws {
        let s = try await sandbox()
        defer { s.remove() }
        let t = Terminal(sandbox: s)
        let rc = s.dir.appendingPathComponent("bashrc").path
        let bin = Self.binDirectory
        try """
            [ -r /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
            export PATH='\(bin)':$PATH PS1='$ '
            source <(focus --generate-completion-script bash)
            cd '\(s.dir.path)'
            """.write(toFile: rc, atomically: true, encoding: .utf8)
        try await t.start("exec bash --noprofile --rcfile '\(rc)' -i")
        defer { t.kill() }
        try await Self.tabEscapesTheHostileName(t)
        try await t.keys("Enter")
        try await t.waitFor("Evil $(touch PWNED1) #")
        // After an opening quote, quoted as that quote needs.
        try await t.keys("C-l", "focus task show 'Evi", "Tab")
        try await t.waitFor("$ focus task show 'Evil $(touch PWNED1)'")
        try await Self.tab(t, "\"Quo", shows: "\"Quote \\\"q\\\" 's\"")
        try await t.keys("Enter")
        try await t.waitFor("Quote \"q\" 's #")
        #expect(nothingRan(s.dir))
    }

    @Test(.enabled(if: Terminal.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "tmux or zsh is missing"))
    func tabInZshQuotesTheNameAndKeepsAColon() async throws {
        let s = try await sandbox()
        defer { s.remove() }
        let functions = s.dir.appendingPathComponent("zfunc")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try await s.run("--generate-completion-script", "zsh").out.write(to: functions.appendingPathComponent("_focus"), atomically: true, encoding: .utf8)
        let bin = Self.binDirectory
        try """
            export PATH='\(bin)':$PATH PS1='$ '
            fpath=('\(functions.path)' $fpath)
            autoload -U compinit && compinit -u -D
            cd '\(s.dir.path)'
            """.write(to: s.dir.appendingPathComponent(".zshrc"), atomically: true, encoding: .utf8)
        let t = Terminal(sandbox: s)
        try await t.start("ZDOTDIR='\(s.dir.path)' exec zsh -i")
        defer { t.kill() }
        try await Self.tabEscapesTheHostileName(t)
        try await Self.tab(t, "Col", shows: "Col:on")
        try await t.keys("Enter")
        try await t.waitFor("Col:on #")
        #expect(nothingRan(s.dir))
    }

    @Test(.enabled(if: Terminal.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "tmux or fish is missing"))
    func tabInFishQuotesTheName() async throws {
        let s = try await sandbox()
        defer { s.remove() }
        let script = s.dir.appendingPathComponent("focus.fish")
        try await s.run("--generate-completion-script", "fish").out.write(to: script, atomically: true, encoding: .utf8)
        let bin = Self.binDirectory
        let t = Terminal(sandbox: s)
        try await t.start("cd '\(s.dir.path)' && PATH='\(bin)':$PATH exec fish --no-config -C 'function fish_prompt; echo \"\\$ \"; end; source \(script.path)'")
        defer { t.kill() }
        try await Self.tabEscapesTheHostileName(t)
        try await Self.tab(t, "Sem", shows: "Semi\\;\\ touch\\ PWNED3")
        #expect(nothingRan(s.dir))
    }

    /// The directory of the binary under test, put first on the shells' PATH.
    private static var binDirectory: String { URL(fileURLWithPath: Sandbox.binary).deletingLastPathComponent().path }

    /// At the shell's first prompt, `focus task show Evi` and Tab: the hostile name comes back
    /// as one word, escaped so that nothing in it runs.
    private static func tabEscapesTheHostileName(_ t: Terminal) async throws {
        try await t.waitFor("$")
        try await tab(t, "Evi", shows: "Evil\\ \\$\\(touch\\ PWNED1\\)")
    }

    /// A cleared line, `focus task show <typed>` and Tab; waits until the shell shows `completed`.
    private static func tab(_ t: Terminal, _ typed: String, shows completed: String) async throws {
        try await t.keys("C-u", "focus task show " + typed, "Tab")
        try await t.waitFor("$ focus task show " + completed)
    }
}
