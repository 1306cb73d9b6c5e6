import FocusCLI
import FocusCore
import FocusRendering
import FocusStorage
import FocusTestSupport
import FocusText
import Foundation
import Testing

/// Messages that told the wrong story: raw SQLite text, "Missing value" for a negative number,
/// local input echoed as UTC, a converted number, a date without its year.
@Suite struct MessagesTests {
    @Test func aTaskNameWithASlashIsRefusedInWordsNotAsAConstraint() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let r = await world.output("task", "edit", "Thesis", "--title", "a/b")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid task name 'a/b': expected a name without '/', which separates a task from its subtask.\n")
    }

    @Test func movingASessionOntoAnotherOnesStartSaysItIsADuplicate() async throws {
        let world = try TestWorld(now: "2026-11-23T12:00:00Z")
        await world.run("task", "add", "Thesis")
        await world.run("log", "add", "Thesis", "--start", "09:00", "--duration", "25m")
        await world.run("log", "add", "Thesis", "--start", "10:00", "--duration", "25m")
        let r = await world.output("log", "edit", "2", "--start", "09:00")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: a session of Thesis starting Mon 23 Nov 09:00 is already recorded. Run `focus log` to see it; move this one to another start or remove the other first.\n")
        #expect(!r.err.contains("UNIQUE") && !r.err.contains("constraint"))
        let again = await world.output("log", "add", "Thesis", "--start", "09:00", "--duration", "10m")
        #expect(again.code == 64)
        #expect(again.err.hasPrefix("focus: error: a session of Thesis starting Mon 23 Nov 09:00 is already recorded."))
    }

    @Test func logEditWarnsAboutOverlapsLikeLogAdd() async throws {
        let world = try TestWorld(now: "2026-11-23T12:00:00Z")
        await world.run("task", "add", "Thesis")
        await world.run("log", "add", "Thesis", "--start", "09:00", "--duration", "25m")
        await world.run("log", "add", "Thesis", "--start", "10:00", "--duration", "25m")
        let r = await world.output("log", "edit", "2", "--start", "09:10")
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: this overlaps 1 recorded session.\n")
        // Changing only the note moves nothing: no warning.
        let note = await world.output("log", "edit", "2", "--note", "x")
        #expect(note.err.isEmpty)
    }

    @Test(arguments: [["task", "add", "T/s", "--estimate", "-5m"], ["log", "--last", "-1"], ["stats", "--last", "-7"],
                      ["start", "T", "--duration", "-.5h"]])
    func aNegativeValueIsSaidToBeNegative(arguments: [String]) async throws {
        let world = try TestWorld()
        let r = await world.output(arguments)
        #expect(r.code == 64)
        let option = arguments[arguments.count - 2]
        let value = arguments[arguments.count - 1]
        #expect(r.err == "focus: error: \(option) \(value): the value is negative; give one that is not (text that starts with '-' is written \(option)=\(value)).\n")
    }

    @Test func aNegativeConfigValueIsJudgedByTheSettingItself() async throws {
        let world = try TestWorld()
        // `config set` takes its value as typed (#41: `config set off -2026-12-11`), so the
        // setting itself says what it expected, with or without `--`.
        let r = await world.output("config", "set", "work", "-5m")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid work '-5m': expected a duration that is not negative, like 25m.\n")
        let after = await world.output("config", "set", "work", "--", "-5m")
        #expect(after.code == 64)
        #expect(after.err == "focus: error: invalid work '-5m': expected a duration that is not negative, like 25m.\n")
    }

    @Test func aNegativeValueWrittenWithAnEqualsSignIsSaidToBeNegativeToo() async throws {
        let world = try TestWorld()
        let r = await world.output("task", "add", "T/s", "--estimate=-5m")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid estimate '-5m': expected a duration that is not negative, like 25m.\n")
    }

    @Test func anEndBeforeTheStartIsEchoedAsWrittenInLocalTime() async throws {
        let world = try TestWorld(now: "2026-11-23T12:00:00Z")
        await world.run("task", "add", "Thesis")
        let r = await world.output("log", "add", "Thesis", "--start", "07:00", "--end", "06:00")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid end '06:00': expected a time after the start (Mon 23 Nov 07:00).\n")
    }

    @Test func aHugeFocusedSecondsIsReportedAsWritten() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let file = try dir.file("h.jsonl", """
            {"task": "T", "start": "2026-11-20T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed", "focused_seconds": 1e300}

            """)
        let r = await world.output("import", file)
        #expect(r.code == 65)
        #expect(r.err.hasSuffix("h.jsonl:1: focused_seconds 1e300 is more than a year\n"))
        let csv = try dir.file("h.csv", "task,start,end,status,focused_seconds\nT,2026-11-20T09:00:00Z,2026-11-20T09:25:00Z,completed,4e7\n")
        let c = await world.output("import", csv)
        #expect(c.err.hasSuffix("h.csv:2: focused_seconds 4e7 is more than a year\n"))
    }

    @Test func aFarDueDateShowsItsYear() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let far = await world.output("task", "add", "Thesis/Far", "--estimate", "1h", "--due", "9999-12-31")
        #expect(far.out.hasPrefix("Created task Thesis.\nAdded Thesis/Far (#2) · estimate 1h · due Fri 31 Dec 9999 (end of day) ("))
        let nextYear = await world.output("task", "add", "Thesis/Soon", "--due", "2027-01-05 17:00")
        #expect(nextYear.out.hasPrefix("Added Thesis/Soon (#3) · due Tue 5 Jan 2027 17:00 (in 44 days)"))
        let near = await world.output("task", "add", "Thesis/Near", "--due", "2026-11-27 17:00")
        #expect(near.out.hasPrefix("Added Thesis/Near (#4) · due Fri 27 Nov 17:00 (in 5 days)"))
    }

    @Test func aYearIsShownForDaysInAnotherYearOrHalfAYearAway() {
        let today = LocalDate(year: 2026, month: 1, day: 10)
        #expect(RelativeTime.shortDay(LocalDate(year: 2026, month: 3, day: 1), today: today) == "Sun 1 Mar")
        #expect(RelativeTime.shortDay(LocalDate(year: 2026, month: 12, day: 1), today: today) == "Tue 1 Dec 2026")
        #expect(RelativeTime.shortDay(LocalDate(year: 2025, month: 12, day: 31), today: today) == "Wed 31 Dec 2025")
        #expect(RelativeTime.shortDay(LocalDate(year: 2026, month: 12, day: 1)) == "Tue 1 Dec")
    }

    @Test func everyMomentInAMessageReadsAsTheRestOfFocusWithoutSeconds() async throws {
        let world = try TestWorld(now: "2026-12-07T10:00:00Z")
        await world.run("task", "add", "Thesis")
        let midnight = await world.output("log", "add", "Thesis", "--start", "2026-12-04 00:00", "--duration", "25m")
        #expect(midnight.out == "Recorded #1: Thesis Fri 4 Dec 00:00, 25m.\n", "an instant at midnight is 00:00, not a day: \(midnight.out)")
        let odd = await world.output("log", "add", "Thesis", "--start", "2026-12-04T16:00:42Z", "--duration", "25m")  // 17:00:42 in Berlin
        #expect(odd.out == "Recorded #2: Thesis Fri 4 Dec 17:00, 25m.\n", "\(odd.out)")
        let zone = LocalCalendar(zone: .utc)
        let far = Date(timeIntervalSince1970: 1_764_000_000)  // 2025-11-24 16:00 UTC
        #expect(RelativeTime.moment(far, calendar: zone, now: Date(timeIntervalSince1970: 1_796_000_000)) == "Mon 24 Nov 2025 16:00")
    }

    @Test func aNarrowedTerminalIsClearedRowByRowOfTheOldFrame() {
        // Drawn 80 wide, three lines of 80, 60 and 30 columns; now 40 wide: 2 + 2 + 1 rows.
        #expect(CountdownRenderer.clearSequence(drawnWidths: [80, 60, 30], columns: 40) == "\r\u{1B}[4A\u{1B}[J")
        #expect(CountdownRenderer.clearSequence(drawnWidths: [80, 60, 30], columns: 80) == "\r\u{1B}[2A\u{1B}[J")
        #expect(CountdownRenderer.clearSequence(drawnWidths: [0], columns: 80) == "\r\u{1B}[J")
        #expect(CountdownRenderer.clearSequence(drawnWidths: [], columns: 80) == "")
    }

    @Test func theCountdownFitsATerminalNarrowerThanItsLayout() {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(600), isPaused: false,
            phaseStartedAt: Date(timeIntervalSince1970: 1_795_000_000), endsAt: Date(timeIntervalSince1970: 1_795_001_500),
            focusedSeconds: 900, workStartedAt: Date(timeIntervalSince1970: 1_795_000_000), workPlannedSeconds: 1500)
        let lines = CountdownRenderer(path: "Thesis/Chapter 2", width: 12, color: true).lines(snapshot, todaySeconds: 900)
        for line in lines { #expect(displayWidthForTest(line.string) <= 12, "\(line)") }
    }

    @Test func whileTheAwayQuestionWaitsTheKeyLineSaysWhatTheKeysAnswer() {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(600), isPaused: true,
            phaseStartedAt: Date(timeIntervalSince1970: 1_795_000_000), endsAt: nil,
            focusedSeconds: 900, workStartedAt: Date(timeIntervalSince1970: 1_795_000_000), workPlannedSeconds: 1500)
        let renderer = CountdownRenderer(path: "Thesis", width: 80, color: false)
        #expect(renderer.lines(snapshot, todaySeconds: 900).last?.string == "  space resume · s skip · q stop")
        #expect(renderer.lines(snapshot, todaySeconds: 900, awayStopAt: "13:05").last?.string
            == "  k keep · d discard · s stop at 13:05 · q stop now")
    }
}

/// Display columns of a line that may hold colour escapes.
func displayWidthForTest(_ s: String) -> Int {
    var visible = ""
    var inEscape = false
    for scalar in s.unicodeScalars {
        if inEscape { if scalar == "m" { inEscape = false }; continue }
        if scalar == "\u{1B}" { inEscape = true; continue }
        visible.unicodeScalars.append(scalar)
    }
    return TerminalText.width(visible)
}
