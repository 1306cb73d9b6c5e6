import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusText
import Foundation
import Testing

/// The API shape that makes sanitising impossible to skip: where a renderer or the console
/// shows foreign text, it takes `DisplayText`, never a raw `String`. Each check picks the
/// String-taking overload of `takesString` only if the signature would accept a String (and
/// then fails), the generic one otherwise.
@Suite struct DisplayTextShapeTests {
    private func takesString<R>(_ f: (String) -> R) -> Bool { true }
    private func takesString<T, R>(_ f: (T) -> R) -> Bool { false }
    private func takesString<R>(_ f: (String, Int, Bool) -> R) -> Bool { true }
    private func takesString<A, B, C, R>(_ f: (A, B, C) -> R) -> Bool { false }
    private func takesString<R>(_ f: (TimeLog, String, DateInterval, LocalCalendar) -> R) -> Bool { true }
    private func takesString<A, B, C, D, R>(_ f: (A, B, C, D) -> R) -> Bool { false }

    @Test func renderersTakeForeignTextOnlyAsDisplayText() {
        #expect(!takesString(CountdownRenderer.init(path:width:color:)))
        #expect(!takesString(AgendaRenderer.sessionLine(_:path:on:calendar:)))
    }

    @Test func theConsoleShowsOnlyDisplayText() {
        let console = RecordingConsole(width: 80)
        #expect(!takesString(console.note))
        #expect(!takesString(console.show))
        #expect(!takesString(console.error))
        // What it shows of an interpolated title is safe (`line` has a JSON overload too: a
        // String one would take this literal as a String, unsanitised).
        let title = "T\u{1B}]52;c;eA==\u{7}"
        console.line("Added task \(title).")
        console.error("no task is named '\(title)'")
        #expect(console.stdout == "Added task T\u{FFFD}]52;c;eA==\u{FFFD}.\n")
        #expect(console.stderr == "focus: error: no task is named 'T\u{FFFD}]52;c;eA==\u{FFFD}'\n")
    }

    @Test func renderersGiveDisplayText() {
        let agenda: (AgendaDay, Date, LocalCalendar) -> DisplayText = AgendaRenderer.text(_:now:calendar:)
        _ = agenda
        let report = StatsFixtures.week([], taskFilter: "T\u{1B}[2J")
        let text: DisplayText = StatsRenderer(width: 80, color: false, today: StatsFixtures.day(2026, 11, 22)).render(report)
        #expect(text.string.contains("T\u{FFFD}[2J"))
        #expect(!text.string.contains("\u{1B}"))
    }
}
