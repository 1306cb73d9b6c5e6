import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus ui` on a real terminal (tmux): screens, live changes from another process, and the
/// terminal given back on every way out.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct FullScreenViewTests {
    /// A tmux format read from the pane (`#{alternate_on}`: 1 while the alternate screen is shown).
    func pane(_ t: Terminal, _ format: String) async throws -> String {
        try await offPool {
            try TestProcess.run("/usr/bin/tmux", ["-L", t.socket, "display-message", "-p", format],
                          environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true).out
        }.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func screensSwitchWithKeysAChangeElsewhereAppearsAndQGivesTheTerminalBack() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t) }
        #expect(try await pane(t, "#{alternate_on}") == "1")
        try await t.keys("3")
        try await t.waitFor("[3 Tasks]")
        try await t.waitFor("Chapter 2")
        // Another process adds a task: the view shows it without a key pressed.
        #expect(try await s.run("task", "add", "Garden/Weeding").code == 0)
        let screen = try await t.waitFor("Weeding")
        #expect(screen.contains("Garden"))
        try await t.keys("2")
        try await t.waitFor("[2 Week]")
        try await t.keys("?")
        try await t.waitFor("Keys on Week")
        try await t.keys("Escape")
        try await t.quitView()
        #expect(try await pane(t, "#{alternate_on}") == "0")
        #expect(try await pane(t, "#{cursor_flag}") == "1")
    }

    @Test func aResizeRedrawsATinyTerminalAsksForRoomAndSIGTERMGivesTheTerminalBack() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await t.start("sh -c 'echo PID=$$; exec \(Sandbox.binary) ui'; echo EXIT=$?")
        try await t.waitFor("[1 Today]")
        try await t.tmux("resize-window", "-x", "50", "-y", "12")
        try await t.waitFor("needs at least 60×16")
        try await t.tmux("resize-window", "-x", "100", "-y", "30")
        try await t.waitFor("[1 Today]")
        let printed = Terminal.plain(t.transcript)
        let pid = try #require(printed.range(of: #"PID=\d+"#, options: .regularExpression).flatMap { Int32(printed[$0].dropFirst(4)) })
        #expect(kill(pid, SIGTERM) == 0)
        try await t.waitFor("EXIT=")
        #expect(try await pane(t, "#{alternate_on}") == "0")
        #expect(try await pane(t, "#{cursor_flag}") == "1")
    }

    @Test func enterStartsTheSessionFocusStatusSeesSpacePausesItAndAStopElsewhereShows() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t, stoppingSession: true) }
        try await t.keys("3")
        try await t.waitFor("Chapter 2")
        try await t.keys("j", "Enter")
        try await t.waitFor("[4 Timer]")
        try await t.waitFor("● WORK  Thesis/Chapter 2")
        #expect(try await s.run("status").out.hasPrefix("Thesis/Chapter 2 · work"))
        try await t.keys("Space")
        let paused = await eventually { (try? await s.run("status").out.contains("paused")) == true }
        #expect(paused)
        try await t.waitFor("PAUSED")
        // Stopped from another terminal: the view shows it at once.
        #expect(try await s.run("stop").code == 0)
        try await t.waitFor("No session is running.")
        #expect(try await s.logs().first?["status"] as? String == "interrupted")
        try await t.quitView()
    }

    @Test func pPlansAgainAndRFetchesTheCalendarsSayingWhatHappenedAboveTheKeys() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await t.openView()
        try await t.keys("p")
        try await t.waitFor("Planned again.")
        try await t.keys("R")
        try await t.waitFor("No subscribed calendars.")
        try await t.quitView()
    }

    @Test func theAddFormSavesThroughTaskAddAndShowsItsRefusalInPlace() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t) }
        try await fillAddForm(t, title: "Chapter 9", estimate: "400h", due: "tomorrow")
        try await t.keys("Enter")
        try await t.waitFor("does not fit before its due date")
        #expect(try await s.run("task", "list").out.contains("Chapter 9") == false)
        // The draft stays: a smaller estimate fits and is saved.
        try await correctEstimate(t, from: "400h", to: "1h")
        try await t.keys("Enter")
        try await t.waitFor("Added Thesis/Chapter 9")
        #expect(try await s.run("task", "list").out.contains("Chapter 9"))
        try await t.quitView()
    }

    @Test func ctrlZGivesTheShellItsScreenFgBringsTheViewBackAndCtrlCQuits() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        // An interactive shell, for job control.
        try await t.start("PS1='$ ' bash --norc --noprofile -i")
        try await t.keys("-l", "\(Sandbox.binary) ui")
        try await t.keys("Enter")
        try await t.waitFor("[1 Today]")
        try await t.keys("C-z")
        try await t.waitFor("Stopped")
        #expect(try await pane(t, "#{alternate_on}") == "0")
        #expect(try await pane(t, "#{cursor_flag}") == "1")
        try await t.keys("-l", "fg")
        try await t.keys("Enter")
        try await t.waitFor("[1 Today]")
        #expect(try await pane(t, "#{alternate_on}") == "1")
        try await t.keys("3")
        try await t.waitFor("[3 Tasks]")
        // Ctrl-C typed at the terminal (the view keeps ISIG) quits it too.
        try await t.keys("C-c")
        try await t.waitFor("$ ")
        try await t.keys("-l", "echo EXIT=$?")
        try await t.keys("Enter")
        try await t.waitFor("EXIT=0")
        #expect(try await pane(t, "#{alternate_on}") == "0")
    }

    @Test func slashSearchesTheTasksAsTaskListSearchDoes() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await s.run("task", "add", "Garden/Weeding", "--notes", "before the rain")
        try await t.openView()
        try await t.keys("3")
        try await t.waitFor("Chapter 2")
        try await t.keys("/")
        try await t.keys("-l", "rain")
        try await t.keys("Enter")
        let matched = await eventually {
            let screen = (try? await t.screen()) ?? ""
            return screen.contains("Weeding") && !screen.contains("Chapter 2")
        }
        #expect(matched)
        try await t.quitView()
    }

    @Test func eEditsASubtaskThroughTaskEdit() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t) }
        try await t.keys("3")
        try await t.waitFor("0m/2h")
        try await t.keys("j", "e")
        try await t.waitFor("Edit Thesis/Chapter 2")
        try await t.keys("Tab", "BSpace", "BSpace")
        try await t.keys("-l", "3h")
        try await t.keys("Enter")
        try await t.waitFor("0m/3h")
        let list = try await s.run("task", "list", "--json").out
        #expect(list.contains("\"estimate_seconds\":10800") || list.contains("\"estimate_seconds\": 10800"), "\(list)")
        try await t.quitView()
    }

    @Test func capitalDDeletesOnceConfirmedAndWorkWithHistoryIsKeptAsTaskRmKeepsIt() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2")
        try await s.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-20 09:00", "--duration", "25m")
        try await s.run("task", "add", "Thesis/Scratch")
        try await t.openView()
        try await t.keys("3")
        try await t.waitFor("Scratch")
        try await t.keys("G", "D")
        try await t.waitFor("Delete Thesis/Scratch? [y/N]")
        try await t.keys("y")
        try await t.waitFor("Deleted Thesis/Scratch.")
        #expect(try await s.run("task", "list").out.contains("Scratch") == false)
        try await t.keys("G", "D")
        try await t.waitFor("Delete Thesis/Chapter 2? [y/N]")
        try await t.keys("y")
        try await t.waitFor("has 1 logged session")
        #expect(try await s.run("task", "list").out.contains("Chapter 2"))
        try await t.quitView()
    }

    @Test func colonRunsASubcommandAndWhatItChangedAppears() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await t.openView()
        try await t.keys("3")
        try await t.waitFor("No open tasks.")
        try await t.keys(":")
        try await t.keys("-l", "task add 'Garden/Weed the beds' --estimate 1h")
        try await t.keys("Enter")
        try await t.waitFor("Created task Garden.")
        try await t.waitFor("Weed the beds")
        try await t.quitView()
    }

    @Test func aDatabaseRestoredUnderneathIsReadAfresh() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        let backup = s.dir.appendingPathComponent("before.sqlite").path
        try await s.run("task", "add", "Keep")
        #expect(try await s.run("backup", backup).code == 0)
        try await s.run("task", "add", "Gone")
        try await t.openView()
        try await t.keys("3")
        try await t.waitFor("Gone")
        #expect(try await s.run("restore", backup).code == 0)
        let restored = await eventually {
            let screen = (try? await t.screen()) ?? ""
            return screen.contains("Keep") && !screen.contains("Gone")
        }
        let screen = (try? await t.screen()) ?? ""
        #expect(restored, "\(screen)")
        try await t.quitView()
    }

    /// SIGINT is what Ctrl-C raises (the view keeps the terminal's ISIG); sent here to the view
    /// alone, since the test's own shell would die of a Ctrl-C typed at the terminal.
    @Test(arguments: [SIGINT, SIGHUP])
    func sigintAndSIGHUPGiveTheTerminalBack(signal: Int32) async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await t.start("sh -c 'echo PID=$$; exec \(Sandbox.binary) ui'; echo EXIT=$?")
        try await t.waitFor("[1 Today]")
        #expect(try await pane(t, "#{alternate_on}") == "1")
        let printed = Terminal.plain(t.transcript)
        let pid = try #require(printed.range(of: #"PID=\d+"#, options: .regularExpression).flatMap { Int32(printed[$0].dropFirst(4)) })
        #expect(kill(pid, signal) == 0)
        try await t.waitFor("EXIT=")
        #expect(try await pane(t, "#{alternate_on}") == "0")
        #expect(try await pane(t, "#{cursor_flag}") == "1")
    }

    @Test func withoutATerminalItSaysWhatToUseInsteadAndExits64() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let r = try await s.run("ui")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: focus ui needs a terminal; use `focus agenda` or `focus status --follow` instead.\n")
    }
}

extension FullScreenViewTests {
    /// Where most of these tests start: a sandbox holding `Thesis/Chapter 2` (2 h estimated) and
    /// `focus ui` open on a terminal of its own. Undone by `close`, also when opening fails.
    func openOnChapter2() async throws -> (Sandbox, Terminal) {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        do {
            try await s.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h")
            try await t.openView()
        } catch {
            close(s, t)
            throw error
        }
        return (s, t)
    }

    /// The terminal killed and the sandbox removed; with `stoppingSession`, a session the test
    /// left running stopped first (one started in the view runs on detached from the pane).
    func close(_ s: Sandbox, _ t: Terminal, stoppingSession: Bool = false) {
        if stoppingSession {
            _ = try? TestProcess.run(Sandbox.binary, ["stop"], environment: s.environment, stdin: nil, capture: false)
        }
        t.kill()
        s.remove()
    }
}

extension Terminal {
    /// `focus ui` started in this terminal, once its top bar shows Today.
    func openView() async throws {
        try await start("\(Sandbox.binary) ui; echo EXIT=$?")
        _ = try await waitFor("[1 Today]")
    }

    /// `q`, and the view's exit status 0 printed after it.
    func quitView() async throws {
        try await keys("q")
        _ = try await waitFor("EXIT=0")
    }
}
