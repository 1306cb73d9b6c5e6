import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus ui` on a real terminal (tmux), second round: the add form's live verdict, `s` on
/// Timer, and the terminal given back after a crash.
extension FullScreenViewTests {
    /// On Tasks (`3`), the add form (`a`) filled in field by field, without Enter.
    func fillAddForm(_ t: Terminal, title: String, estimate: String, due: String) async throws {
        try await t.keys("3")
        try await t.waitFor("Chapter 2")
        try await t.keys("a")
        try await t.waitFor("Add work")
        try await t.keys("-l", title)
        try await t.keys("Tab")
        try await t.keys("-l", estimate)
        try await t.keys("Tab")
        try await t.keys("-l", due)
    }

    /// Back from the due date to the estimate (`BTab`), `old` erased and `new` typed.
    func correctEstimate(_ t: Terminal, from old: String, to new: String) async throws {
        try await t.keys("BTab")
        for _ in 0..<old.count { try await t.keys("BSpace") }
        try await t.keys("-l", new)
    }

    @Test func theAddFormSaysWhileTypingWhetherTheWorkFitsAndSavesNothing() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t) }
        try await fillAddForm(t, title: "Chapter 9", estimate: "400h", due: "tomorrow")
        // No Enter: the planner's dry run answers a moment after the typing stops.
        try await t.waitFor("does not fit before its due date")
        #expect(try await s.run("task", "list").out.contains("Chapter 9") == false)
        try await correctEstimate(t, from: "400h", to: "1h")
        try await t.waitFor("Fits; no other block moves.")
        #expect(try await s.run("task", "list").out.contains("Chapter 9") == false)
        try await t.keys("Escape")
        try await t.quitView()
    }

    @Test func sOnTimerSkipsTheRunningSessionToItsBreak() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t, stoppingSession: true) }
        try await t.keys("3")
        try await t.waitFor("Chapter 2")
        try await t.keys("j", "Enter")
        try await t.waitFor("● WORK  Thesis/Chapter 2")
        try await t.keys("s")
        let skipped = await eventually { (try? await s.run("status", "--json").out.contains("\"short_break\"")) == true }
        #expect(skipped)
        try await t.waitFor("BREAK")
        // The session started here runs on without the view: q asks first, y quits.
        try await t.keys("q")
        try await t.waitFor("goes on after the view closes")
        try await t.keys("y")
        _ = try await t.waitFor("EXIT=0")
        #expect(try await s.run("status", "--json").out.contains("\"short_break\""), "the session still runs")
    }

    @Test func aSessionStartedInAnotherProcessShowsOnTimerWithoutAKey() async throws {
        let (s, t) = try await openOnChapter2()
        defer { close(s, t, stoppingSession: true) }
        try await t.keys("4")
        try await t.waitFor("No session is running.")
        // As from another terminal: its own session, no terminal of the view's.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: Sandbox.binary)
        other.arguments = ["start", "Thesis/Chapter 2", "--no-break"]
        other.environment = s.environment
        other.standardInput = FileHandle.nullDevice
        other.standardOutput = FileHandle.nullDevice
        other.standardError = FileHandle.nullDevice
        try other.run()
        try await t.waitFor("● WORK  Thesis/Chapter 2")
        try await t.quitView()
    }

    @Test(arguments: [SIGSEGV, SIGABRT, SIGBUS])
    func aCrashGivesTheTerminalBackAndStillEndsTheProcessByItsSignal(signal: Int32) async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await t.start("sh -c 'echo PID=$$; exec \(Sandbox.binary) ui'; echo EXIT=$?")
        try await t.waitFor("[1 Today]")
        #expect(try await pane(t, "#{alternate_on}") == "1")
        let printed = Terminal.plain(t.transcript)
        let pid = try #require(printed.range(of: #"PID=\d+"#, options: .regularExpression).flatMap { Int32(printed[$0].dropFirst(4)) })
        #expect(kill(pid, signal) == 0)
        let screen = try await t.waitFor("EXIT=")
        #expect(screen.contains("EXIT=\(128 + signal)"))
        #expect(try await pane(t, "#{alternate_on}") == "0")
        #expect(try await pane(t, "#{cursor_flag}") == "1")
    }
}
