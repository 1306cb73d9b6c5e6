import FocusCoreTestSupport
import FocusCore
import FocusNotifications
import Testing

@Suite struct TerminalNotifierTests {
    @Test func bellAndOneLineGoToStandardError() async {
        let console = RecordingConsole()
        let notifier = TerminalNotifier(console: console, bell: true)
        await notifier.post(Notice(kind: .workCompleted, summary: "Work session complete", body: "Thesis/Chapter 2 — take 5 minutes"))
        #expect(console.stderr == "\u{07}🔔 Work session complete — Thesis/Chapter 2 — take 5 minutes\n")
        #expect(console.stdout == "")
    }

    @Test func noBellWhenTheBellIsOff() async {
        let console = RecordingConsole()
        let notifier = TerminalNotifier(console: console, bell: false)
        await notifier.post(Notice(kind: .breakOver, summary: "Break over", body: "Back to R&D <draft>"))
        await notifier.post(Notice(kind: .test, summary: "Second", body: "one"))
        #expect(console.stderr == "🔔 Break over — Back to R&D <draft>\n🔔 Second — one\n")
    }

    @Test func controlCharactersCannotReachTheTerminal() async {
        let console = RecordingConsole()
        let notifier = TerminalNotifier(console: console, bell: false)
        await notifier.post(Notice(kind: .test, summary: "Evil\u{1B}]0;title\u{07}", body: "line one\nline two\u{1B}[2J"))
        #expect(console.stderr == "🔔 Evil\u{FFFD}]0;title\u{FFFD} — line one line two\u{FFFD}[2J\n")
    }

    @Test(arguments: [
        ("Summary", "", "🔔 Summary\n"),
        ("", "Only body", "🔔 Only body\n"),
        (" \n", "\t", "🔔 \n"),
    ])
    func emptyPartsLeaveOutTheDash(summary: String, body: String, line: String) {
        #expect(TerminalNotifier.message(for: Notice(kind: .test, summary: summary, body: body), bell: false) == line)
    }
}
