import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A newcomer's first hour (issue 25): help that keeps its shape in any terminal, a suggestion
/// for a mistyped command, a README tour that leaves the person's own data alone.
@Suite struct NewcomerTests {
    static let repository = TestRepository.root

    // MARK: Help at any width

    /// `task add --help` at 120 columns put `--due`, `--force` and `--tz` at column 0 with their
    /// continuations unindented: the parser wrapped at the terminal's width and focus then wrapped
    /// again at 80. The help is now the same at 80, 120 and 200 columns, and its shape holds.
    @Test(arguments: [["task", "add"], ["start"], ["stats"], ["calendar", "connect"], []])
    func helpHasTheSameShapeAtEightyOneHundredTwentyAndTwoHundredColumns(command: [String]) async throws {
        let s = try Sandbox()
        defer { s.remove() }
        var outputs: [Int: String] = [:]
        for width in [80, 120, 200] {
            let r = try await s.run(command + ["--help"], env: ["COLUMNS": "\(width)"])
            #expect(r.code == 0)
            outputs[width] = r.out
        }
        let help = try #require(outputs[80])
        #expect(outputs[120] == help, "at 120 columns:\n\(outputs[120] ?? "")")
        #expect(outputs[200] == help, "at 200 columns:\n\(outputs[200] ?? "")")
        let listings = ["OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "TOPICS:", "SEE ALSO:"]
        var section = ""
        for line in help.split(separator: "\n", omittingEmptySubsequences: true) {
            #expect(line.count <= 80, "over 80 columns: \(line)")
            if listings.contains(String(line)) || line.hasPrefix("OVERVIEW:") || line.hasPrefix("USAGE:") {
                section = String(line)
            } else if listings.contains(section) {
                // A listing's line is indented; an option starts at column 2 and its
                // continuation further in.
                #expect(line.hasPrefix("  "), "at column 0 in \(section): \(line)")
                if section == "OPTIONS:" {
                    #expect(line.hasPrefix("  -") || line.hasPrefix("    "), "lost its indent: \(line)")
                }
            }
        }
        #expect(help.contains("OPTIONS:"))
    }

    // MARK: A mistyped command

    @Test(arguments: [
        (["stat", "--last", "7"], "focus: error: unknown command 'stat'. Did you mean `focus stats`? See `focus --help` for the commands.\n"),
        (["statz"], "focus: error: unknown command 'statz'. Did you mean `focus stats`? See `focus --help` for the commands.\n"),
        (["agneda"], "focus: error: unknown command 'agneda'. Did you mean `focus agenda`? See `focus --help` for the commands.\n"),
        (["task", "ad", "Thesis"],
         "focus: error: unknown command 'ad' for `focus task`; its commands are add, list, show, edit, done, rm. Did you mean `focus task add`? See `focus task --help`.\n"),
        // Two letters swapped, the commonest slip, is one edit away: commands, subcommands,
        // options and config keys alike.
        (["strat", "Thesis"], "focus: error: unknown command 'strat'. Did you mean `focus start`? See `focus --help` for the commands.\n"),
        (["task", "lsit"],
         "focus: error: unknown command 'lsit' for `focus task`; its commands are add, list, show, edit, done, rm. Did you mean `focus task list`? See `focus task --help`.\n"),
        (["task", "add", "Thesis", "--deu", "fri"],
         "focus: error: unknown option '--deu' for `focus task add`. Did you mean --due? See `focus task add --help` for its options.\n"),
        (["config", "set", "wrok", "50m"],
         "focus: error: unknown config key 'wrok'. Did you mean 'work'? `focus config list` shows every key and its value.\n"),
    ])
    func aMistypedCommandGetsTheNearestOne(arguments: [String], expected: String) async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let r = try await s.run(arguments)
        #expect(r.code == 64)
        #expect(r.err == expected)
        #expect(r.out.isEmpty)
    }

    // MARK: The reference

    /// Every option the README's command summary names exists on the command it names, as the
    /// binary's own help describes it (the manual and `focus help` are generated from the same).
    @Test func everyOptionTheReadmeDocumentsExists() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let tree = try await CommandTree(s)
        let root = tree.root
        func options(_ c: [String: Any]) -> Set<String> { tree.options(c) }
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "## Commands\n\n```\n").dropFirst().first?.components(separatedBy: "```").first)
        var checked = 0
        var current: [String: Any]?
        for line in block.split(separator: "\n").map(String.init) {
            // Two commands may share a line; a line that starts with spaces goes on the last one.
            var parts = line.components(separatedBy: "focus ").map { $0.trimmingCharacters(in: .whitespaces) }
            if !line.hasPrefix(" ") { parts.removeFirst() }
            for (i, part) in parts.enumerated() {
                if !(line.hasPrefix(" ") && i == 0) {
                    current = root
                    for word in part.split(separator: " ").map(String.init) {
                        guard let next = tree.child(current ?? [:], named: word) else { break }
                        current = next
                    }
                }
                let command = try #require(current, "\(line)")
                let named = part.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) }
                for option in named {
                    #expect(options(command).contains(option), "README: `focus \(command["commandName"] ?? "")` has no --\(option) (\(line))")
                    checked += 1
                }
            }
        }
        #expect(checked > 60, "read \(checked) options")
    }

    /// Every option a `focus help` topic names in an example (`` `focus task list --search` ``, an
    /// example line `focus sync setup Focus --quiet`) exists on the command it names: the topics
    /// hold the README's former reference text, which must not drift from the commands either.
    @Test func everyOptionAHelpTopicNamesExistsOnItsCommand() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let tree = try await CommandTree(s)
        let root = tree.root
        func options(_ c: [String: Any]) -> Set<String> { tree.options(c).union(["db", "tz", "help", "version"]) }
        var checked = 0
        for topic in try await Self.helpTopics(s) {
            let page = try await s.run("help", topic)
            #expect(page.code == 0, "\(topic): \(page.err)")
            // Prose spans joined across line breaks, and example lines whole.
            let prose = page.out.replacingOccurrences(of: "\n", with: " ")
            var uses = prose.matches(of: /`(focus [^`]*)`/).map { String($0.output.1) }
            uses += page.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("focus ") }
                .map { $0.components(separatedBy: "  #").first ?? $0 }
            for use in uses {
                for part in use.components(separatedBy: CharacterSet(charactersIn: "|;&")) {
                    let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
                    guard words.first == "focus" else { continue }
                    var command = root
                    var path = ["focus"]
                    for word in words.dropFirst() {
                        guard let next = tree.child(command, named: word) else { break }
                        command = next
                        path.append(word)
                    }
                    for option in part.matches(of: /(?:^|[\s\[(])--([a-z][a-z0-9-]*)/).map({ String($0.output.1) }) {
                        #expect(options(command).contains(option), "focus help \(topic): `\(path.joined(separator: " "))` has no --\(option) (\(part))")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 30, "read \(checked) options")
    }

    /// The topics `focus help` lists, by name.
    static func helpTopics(_ s: Sandbox) async throws -> [String] {
        let help = try await s.run("help")
        let list = try #require(help.out.components(separatedBy: "TOPICS:").dropFirst().first)
        return list.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  See ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Every `focus help NAME` the README points to prints a topic (or a command's help), and
    /// every topic is reachable from `focus help`; each workflow section ends with one.
    @Test func everyHelpTopicTheReadmePointsToExistsAndIsListed() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let listed = Set(try await Self.helpTopics(s))
        #expect(listed.count >= 15, "\(listed)")
        let pointed = Set(readme.matches(of: /focus help ([a-z][a-z0-9-]*)/).map { String($0.output.1) })
        #expect(pointed.count >= 15, "\(pointed.sorted())")
        for name in pointed.sorted() {
            let r = try await s.run("help", name)
            #expect(r.code == 0, "README points to `focus help \(name)`: \(r.err)")
            #expect(listed.contains(name) || !r.out.contains("TOPICS:") && r.out.contains("USAGE: focus \(name)"),
                    "`focus help \(name)` is neither a listed topic nor a command")
        }
        #expect(listed.isSubset(of: pointed), "topics the README never points to: \(listed.subtracting(pointed).sorted())")
        // Each section under "Workflows" ends with the pointer to its topic.
        let workflows = try #require(readme.components(separatedBy: "\n## Workflows\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        for section in workflows.components(separatedBy: "\n### ").dropFirst() {
            let last = section.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains("`focus help ") && last.contains("`man focus`"), "README, \(section.prefix(40)): ends with \(last)")
        }
    }

    // MARK: The README tour

    /// The `$ ` lines of the README's tour, in order.
    static func tourLines() throws -> [String] {
        try tourSteps().map(\.command)
    }

    /// The README's tour: each `$ ` line with the lines printed under it (`...` standing for
    /// lines left out).
    static func tourSteps() throws -> [(command: String, printed: [String])] {
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let tour = try #require(readme.components(separatedBy: "## A short tour").dropFirst().first)
        let block = try #require(tour.components(separatedBy: "```console\n").dropFirst().first?.components(separatedBy: "```").first)
        var steps: [(command: String, printed: [String])] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].printed.append(line)
            }
        }
        return steps.map { step in
            var printed = step.printed
            while printed.last == "" { printed.removeLast() }
            return (step.command, printed)
        }
    }

    /// Whether `lines` are what the README printed, a `...` line standing for any lines.
    static func matches(_ lines: ArraySlice<String>, _ printed: ArraySlice<String>) -> Bool {
        guard let first = printed.first else { return lines.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "..." {
            return (lines.startIndex...lines.endIndex).contains { matches(lines[$0...], printed.dropFirst()) }
        }
        guard let line = lines.first, line == first else { return false }
        return matches(lines.dropFirst(), printed.dropFirst())
    }

    /// Pasted as printed into a shell whose home holds the person's data, the tour writes
    /// nothing into that home (it once wrote `hours.fri` into the real configuration).
    @Test func theReadmeTourPastedAsPrintedLeavesTheHomeAlone() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let home = s.dir.appendingPathComponent("home")
        let bin = s.dir.appendingPathComponent("bin")
        for dir in [home, bin] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        var lines = try Self.tourLines()
        #expect(lines.count >= 8, "\(lines)")
        #expect(lines.first?.hasPrefix("export ") == true)
        // A countdown would take its whole length: one second, one session.
        lines = lines.map { $0.hasPrefix("focus start") ? "focus start --duration 1s --no-break" : $0 }
        // Each line in turn, in one shell, a marker before each; a refused line (the tour shows
        // one) goes on. Errors go where the README shows them: among the output.
        let script = "exec 2>&1\n" + lines.enumerated().map { "echo '@@ step \($0.offset)'\n\($0.element)" }.joined(separator: "\n")
            + "\necho '@@ end'\necho TOUR=$TOUR\n"
        var env = ProcessInfo.processInfo.environment
        for key in ["FOCUS_DB", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "FOCUS_NOW", "DBUS_SESSION_BUS_ADDRESS"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = home.path
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let environment = env
        let r = try await offPool {
            try TestProcess.run("/usr/bin/timeout", ["120", "/bin/sh", "-c", "cd '\(Self.repository.path)' && " + script],
                          environment: environment, stdin: nil, capture: true)
        }
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Imported 180 sessions"), "\(r.out)")
        #expect(r.out.contains("hours.fri = 09:00-13:00"), "\(r.out)")
        // Every command prints what the README says it prints (#41: the README cannot drift).
        let steps = try Self.tourSteps()
        let parts = r.out.components(separatedBy: "@@ step ").dropFirst()
        #expect(parts.count == steps.count, "\(r.out)")
        for (index, part) in parts.enumerated() where index < steps.count && !steps[index].command.hasPrefix("focus start") {
            var printed = part.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if let end = printed.firstIndex(where: { $0.hasPrefix("@@ end") }) { printed = Array(printed[..<end]) }
            while printed.last == "" { printed.removeLast() }
            #expect(Self.matches(printed[...], steps[index].printed[...]),
                    "`\(steps[index].command)` printed:\n\(printed.joined(separator: "\n"))\nthe README says:\n\(steps[index].printed.joined(separator: "\n"))")
        }
        let left = FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? []
        #expect(left.isEmpty, "the tour wrote into the home: \(left)")
        // Its own folder holds what it made.
        if let line = r.out.split(separator: "\n").last(where: { $0.hasPrefix("TOUR=") }) {
            let tour = String(line.dropFirst(5))
            #expect(tour.hasPrefix("/") && !tour.hasPrefix(home.path))
            #expect(FileManager.default.fileExists(atPath: tour + "/focus.sqlite"))
            #expect(FileManager.default.fileExists(atPath: tour + "/config/focus/config.toml"))
            try? FileManager.default.removeItem(atPath: tour)
        } else {
            Issue.record("no TOUR=: \(r.out)")
        }
    }

    // MARK: make start and make test

    /// `make -s VAR` values, as make reads them.
    static func makeVariable(_ name: String) async throws -> [String] {
        let r = try await offPool {
            try TestRepository.make(["print-\(name)"], environment: ProcessInfo.processInfo.environment)
        }
        #expect(r.status == 0, "\(r.err)")
        return r.out.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// `make start` installs only what building and running need; `make test` the rest; the
    /// README names the same packages as the Makefile.
    @Test func makeStartNeedsOnlyWhatRunningNeedsAndTheReadmeSaysTheSame() async throws {
        let run = try await Self.makeVariable("RUN_PACKAGES")
        let test = try await Self.makeVariable("TEST_PACKAGES")
        #expect(run.contains("libsqlite3-dev") && run.contains("tzdata"), "\(run)")
        for tool in ["tmux", "zsh", "fish", "timewarrior", "dbus", "man-db"] {
            #expect(!run.contains(tool), "make start would install \(tool), which only the tests use")
            #expect(test.contains(tool), "make test does not install \(tool)")
        }
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "`make start` installs the Debian packages").dropFirst().first)
        let spans = section.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let lists = spans.filter { $0.contains(" ") && !$0.contains("make") && !$0.contains("sudo") }
        #expect(lists.count >= 2, "\(lists)")
        let words = { (s: String) in s.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) }
        #expect(lists.count >= 2 && words(lists[0]) == run, "README: \(lists.first ?? "")\nMakefile: \(run)")
        #expect(lists.count >= 2 && words(lists[1]) == test, "README: \(lists.dropFirst().first ?? "")\nMakefile: \(test)")
    }

    /// The end of `make start`: how to put focus on the PATH when it is not there.
    @Test func makeStartEndsBySayingHowToPutFocusOnThePath() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        // A PATH without focus (make runs its recipes with /bin/sh; the hint uses builtins only),
        // whatever is installed on this machine.
        let empty = s.dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        func pathHint(_ path: String) async throws -> TestProcess.Output {
            var env = ProcessInfo.processInfo.environment
            env["PATH"] = path
            let environment = env
            return try await offPool { try TestRepository.make(["path-hint"], environment: environment) }
        }
        let r = try await pathHint(empty.path)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("not on your PATH"), "\(r.out)")
        #expect(r.out.contains("make install PREFIX=~/.local"), "\(r.out)")
        #expect(r.out.contains("apt-get install ./focus_"), "\(r.out)")

        let bin = s.dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("focus").path, withDestinationPath: Sandbox.binary)
        let on = try await pathHint(bin.path + ":" + empty.path)
        #expect(on.out.contains("focus is on your PATH: \(bin.path)/focus"), "\(on.out)")
    }

    /// The end of `make test` lists the failed and the skipped tests and says `N of M tests
    /// failed` or `M tests passed`, and how many were skipped; with NO_SKIPS (CI) a skip fails.
    @Test func theTestSummarysLastLineStatesSkipsAndCIFailsOnThem() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let log = s.dir.appendingPathComponent("test-output.txt")
        try """
            ✔ Test a() passed after 0.1 seconds.
            ◇ Test case passing 1 argument input → "<?pi skipped?>" to "Text reads the same" started.
            ➜ Suite "CalDAV against Radicale" skipped: "Radicale is not installed (pip install radicale)"
            ➜ Test rendersInChromium() skipped: "chromium is not installed"
            ✔ Test run with 888 tests in 90 suites passed after 300.0 seconds.

            """.write(to: log, atomically: true, encoding: .utf8)
        let script = TestRepository.script("ci/test-summary")
        let env = ProcessInfo.processInfo.environment
        let local = try await offPool { try TestProcess.run(script, [log.path], environment: env, stdin: nil, capture: true) }
        #expect(local.status == 0)
        let last = local.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last == "888 tests passed, 2 tests or suites skipped (listed above).", "\(local.out)")
        #expect(local.out.contains("suite \"CalDAV against Radicale\""), "\(local.out)")
        let ci = try await offPool { try TestProcess.run(script, [log.path, "--no-skips"], environment: env, stdin: nil, capture: true) }
        #expect(ci.status == 1)
        try "✔ Test run with 888 tests in 90 suites passed after 300.0 seconds.\n".write(to: log, atomically: true, encoding: .utf8)
        let clean = try await offPool { try TestProcess.run(script, [log.path, "--no-skips"], environment: env, stdin: nil, capture: true) }
        #expect(clean.status == 0)
        #expect(clean.out == "888 tests passed, none skipped.\n", "\(clean.out)")
        // A compiler warning in the build before the tests is counted too, and fails CI.
        try "/src/A.swift:3:9: warning: variable 'x' was never used\n✔ Test run with 888 tests in 90 suites passed after 300.0 seconds.\n"
            .write(to: log, atomically: true, encoding: .utf8)
        let warned = try await offPool { try TestProcess.run(script, [log.path, "--no-skips"], environment: env, stdin: nil, capture: true) }
        #expect(warned.status == 1)
        #expect(warned.out.hasSuffix("888 tests passed, none skipped; 1 compiler warning (listed above). (--no-skips: failing.)\n"), "\(warned.out)")
        // A failed run names each failed test (once, not once a case) and counts them out of all.
        try """
            ✘ Test case passing 1 argument x → 1 to "Reads a date" failed after 0.2 seconds with 1 issue.
            ✘ Test "Reads a date" failed after 0.2 seconds with 1 issue.
            ✘ Test stopRecords() recorded an issue at A.swift:3:4: Expectation failed
            ✘ Test stopRecords() failed after 1.0 seconds with 1 issue.
            ➜ Suite "CalDAV against Radicale" skipped: "Radicale is not installed"
            ✘ Test run with 1266 tests in 90 suites failed after 300.0 seconds with 2 issues.

            """.write(to: log, atomically: true, encoding: .utf8)
        let failed = try await offPool { try TestProcess.run(script, [log.path], environment: env, stdin: nil, capture: true) }
        #expect(failed.out.contains("Failed:\n  test \"Reads a date\"\n  test stopRecords()\n"), "\(failed.out)")
        #expect(failed.out.hasSuffix("2 of 1266 tests failed, 1 test or suite skipped (listed above).\n"), "\(failed.out)")
    }
}

/// The countdown with its output piped (`focus start X | tee log`): its keys come from the
/// controlling terminal, so pause and quit work as they do on a terminal (they did nothing).
@Suite(.serialized) struct PipedCountdownTests {
    /// Waits until the pane's terminal is in cbreak mode (`-icanon`): the countdown is reading
    /// keys. A key typed before would be flushed by the switch (TCSAFLUSH, tcsetattr(3)).
    func waitForKeyMode(_ t: Terminal) async throws {
        let socket = t.socket
        let pane = try await offPool {
            try TestProcess.run("/usr/bin/tmux", ["-L", socket, "display-message", "-p", "#{pane_tty}"], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        }
        let tty = pane.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(tty.hasPrefix("/dev/"), "no pane tty: \(pane.err)")
        let reading = try await eventually {
            let r = try await offPool { try TestProcess.run("/bin/stty", ["-F", tty, "-a"], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true) }
            return r.out.contains("-icanon")
        }
        #expect(reading, "the terminal \(tty) never left canonical mode")
    }

    @Test func keysPauseAndStopACountdownWhoseOutputIsPiped() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        let log = s.dir.appendingPathComponent("tee.log").path
        try await t.start("\(Sandbox.binary) start Thesis --duration 1m --no-break | tee '\(log)'; echo EXIT=$?")
        try await t.waitFor("work started · Thesis")
        try await waitForKeyMode(t)
        try await t.keys("p")
        let paused = try await eventually {
            let r = try await s.run("status", "--json")
            return r.out.contains(#""state": "paused""#) || r.out.contains(#""state":"paused""#)
        }
        #expect(paused, "p did not pause the piped countdown")
        try await t.keys("q")
        try await t.waitFor("EXIT=0")
        let logs = try await s.logs()
        #expect(logs.count == 1)
        #expect(logs.first?["status"] as? String == "interrupted")
        // What was piped is the plain transcript, no cursor escapes.
        let piped = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(piped.contains("work started · Thesis"), "\(piped)")
        #expect(!piped.contains("\u{1B}[?25l"), "\(piped.debugDescription)")
    }
}

/// A second machine that connects the account after the first set up sync: the sync calendar is
/// the other machine's history, never busy time (it was listed "✓ busy time", stored, and then
/// `sync setup` said it no longer counted).
@Suite(.serialized, .enabled(if: RadicaleServer.available, Comment(rawValue: RadicaleServer.missing)))
struct SecondMachineConnectTests {
    static let env = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": "2026-11-24T20:00:00+01:00"]

    @Test func theSyncCalendarOfAnotherMachineIsListedAsItsHistoryNotBusyTime() async throws {
        let server = try RadicaleServer()
        let laptop = try Sandbox()
        let desktop = try Sandbox()
        defer { laptop.remove(); desktop.remove(); server.stop() }
        let password = ["--password-command", "printf '%s\\n' '\(server.password)'"]
        let connect = ["calendar", "connect", server.rootURL, "--user", server.user] + password
        #expect(try await laptop.run(connect, env: Self.env).code == 0)
        #expect(try await laptop.run(["task", "add", "Thesis/Chapter 2"], env: Self.env).code == 0)
        let setup = try await laptop.run(["sync", "setup", "Focus"], env: Self.env)
        #expect(setup.code == 0, "\(setup.err)")

        let second = try await desktop.run(connect, env: Self.env)
        #expect(second.code == 0, "\(second.err)")
        let line = try #require(second.out.split(separator: "\n").first { $0.contains("Focus") }, "\(second.out)")
        #expect(line.hasPrefix("  · Focus") && line.contains("focus history of another machine"), "\(second.out)")
        #expect(!second.out.contains("Stored calendar Focus") && !second.out.contains("Stored Focus"), "\(second.out)")
        let calendars = try await desktop.run(["calendar", "list", "--json"], env: Self.env)
        #expect(!calendars.out.contains("\"Focus\""), "\(calendars.out)")
        let join = try await desktop.run(["sync", "setup", "Focus"], env: Self.env)
        #expect(join.code == 0, "\(join.err)")
        #expect(!join.err.contains("no longer counts"), "\(join.err)")
    }
}

/// `make start` stopped with Ctrl-C (issue 38): the session ends as with `q`, the PATH hint
/// still follows (the recipe's INT trap), and make exits 130, as any interrupted make does.
@Suite(.serialized, .enabled(if: Terminal.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "tmux or make is not installed"))
struct MakeStartInterruptedTests {
    /// The recipe of `make start` as it is, on the binary under test (`RELEASE_BIN`); `-o build`
    /// takes the build as done, so no release build is started (CI's release pass tests the
    /// release binary this way, a debug pass its own).
    @Test func ctrlCInMakeStartStillEndsWithThePathHint() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        let repository = NewcomerTests.repository.path
        // The test's shell outlives Ctrl-C as an interactive one does (a plain `sh -c` would die
        // with make and never say how make ended); the trap's handler is not inherited at exec.
        // Under `make test` the outer make's flags stay out of this one.
        try await t.start("trap : INT; unset MAKEFLAGS MAKELEVEL MFLAGS; cd '\(repository)' && make -s -o build start RELEASE_BIN='\(Sandbox.binary)' TASK='Getting started/Try focus' DURATION=25m; echo MAKE_EXIT=$?")
        try await t.waitFor("work started · Getting started/Try focus", seconds: 30)
        try await PipedCountdownTests().waitForKeyMode(t)
        try await t.keys("C-c")
        // Stopped as by `q`: the countdown may ask why (Enter skips), then make ends.
        let asked = await eventually(seconds: 30) {
            let shown = Terminal.plain(t.transcript)
            return shown.contains("MAKE_EXIT=") || shown.contains("Why did you stop?")
        }
        #expect(asked, "\(Terminal.plain(t.transcript))")
        if !Terminal.plain(t.transcript).contains("MAKE_EXIT=") { try await t.keys("Enter") }
        try await t.waitUntilShown("MAKE_EXIT=130", seconds: 30)
        let shown = Terminal.plain(t.transcript)
        // Whether or not this machine has focus on its PATH, the hint says which.
        let hint = try #require(shown.range(of: "on your PATH"), "no PATH hint after Ctrl-C:\n\(shown)")
        #expect(hint.lowerBound < (shown.range(of: "MAKE_EXIT=130")?.lowerBound ?? shown.startIndex), "\(shown)")
        let logs = try await s.logs()
        #expect(logs.count == 1, "\(logs)")
        #expect(logs.first?["status"] as? String == "interrupted", "\(logs)")
    }
}

/// The binary's commands and their options, as `focus --experimental-dump-help` describes them.
private struct CommandTree {
    let root: [String: Any]

    init(_ s: Sandbox) async throws {
        let dump = try await s.run("--experimental-dump-help")
        root = try #require((try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])?["command"] as? [String: Any])
    }

    /// The subcommand `word` of `c`.
    func child(_ c: [String: Any], named word: String) -> [String: Any]? {
        (c["subcommands"] as? [[String: Any]] ?? []).first { $0["commandName"] as? String == word }
    }

    /// The long options of a command and of its default subcommand.
    func options(_ c: [String: Any]) -> Set<String> {
        var names = Set((c["arguments"] as? [[String: Any]] ?? []).flatMap { a in
            (a["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
        })
        if let d = c["defaultSubcommand"] as? String, let sub = child(c, named: d) { names.formUnion(options(sub)) }
        return names
    }
}
