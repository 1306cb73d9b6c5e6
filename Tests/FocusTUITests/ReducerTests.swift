import FocusCore
import FocusRendering
import FocusStorage
import FocusTUI
import Testing

/// Journeys of keys through the reducer: the state they leave and what they ask for.
struct ReducerTests {
    @Test func numbersSwitchScreensTabMovesOnFromOnePaneScreensAndQQuits() {
        var (s, effects) = UIFixtures.press([.char("2")], UIFixtures.state())
        #expect(s.screen == .week)
        (s, effects) = UIFixtures.press([.tab], s)
        #expect(s.screen == .tasks)
        (s, effects) = UIFixtures.press([.char("4"), .backTab], s)
        #expect(s.screen == .tasks)
        #expect(effects.isEmpty)
        (s, effects) = UIFixtures.press([.char("q")], s)
        #expect(effects == [.quit])
    }

    @Test func jkAndArrowsMoveWithinTheListAndGJumpToItsEnds() {
        // Tasks: Thesis, Chapter 2, Introduction.
        var (s, _) = UIFixtures.press([.char("j"), .down, .down, .down], UIFixtures.state(.tasks))
        #expect(s.selected(.tasks) == 2)
        (s, _) = UIFixtures.press([.char("k")], s)
        #expect(s.selected(.tasks) == 1)
        (s, _) = UIFixtures.press([.char("g")], s)
        #expect(s.selected(.tasks) == 0)
        (s, _) = UIFixtures.press([.char("G")], s)
        #expect(s.selected(.tasks) == 2)
        #expect(s.selectedKey[.tasks]?.contains("Introduction") == true)
    }

    @Test func theSelectionStaysOnItsItemWhenAReloadAddsRowsAboveIt() {
        var (s, _) = UIFixtures.press([.char("G")], UIFixtures.state(.tasks))
        let data = UIFixtures.data(tasks: UIFixtures.tasks(extra: ["Garden", "Errands"]))
        s = UIReducer.reduce(s, .loaded(data, s.request)).0
        #expect(s.selected(.tasks) == 4)
        #expect(s.selectedKey[.tasks]?.contains("Introduction") == true)
    }

    @Test func bracketsMoveTodayByDayAndAskForThatDay() {
        let (s, effects) = UIFixtures.press([.char("]"), .char("]"), .char("[")], UIFixtures.state())
        #expect(s.day == UIFixtures.monday.adding(days: 1))
        #expect(effects.count == 3)
        #expect(effects.last == .load(LoadRequest(day: UIFixtures.monday.adding(days: 1), weekStart: UIFixtures.monday, statsDays: 7)))
    }

    @Test func weekMovesByWeekAndEnterOpensTheSelectedDayOnToday() {
        var (s, effects) = UIFixtures.press([.char("]")], UIFixtures.state(.week))
        #expect(s.weekStart == UIFixtures.monday.adding(days: 7))
        #expect(effects == [.load(s.request)])
        (s, effects) = UIFixtures.press([.char("l"), .char("l")], s)
        #expect(s.weekDay == 2)
        (s, effects) = UIFixtures.press([.enter], s)
        #expect(s.screen == .today)
        #expect(s.day == UIFixtures.monday.adding(days: 9))
        #expect(effects == [.load(LoadRequest(day: UIFixtures.monday.adding(days: 9), weekStart: UIFixtures.monday.adding(days: 7), statsDays: 7))])
    }

    @Test func steppingPastSundayMovesToTheNextWeek() {
        var s = UIFixtures.state(.week)
        s.weekDay = 6
        let (next, effects) = UIFixtures.press([.right], s)
        #expect(next.weekStart == UIFixtures.monday.adding(days: 7))
        #expect(next.weekDay == 0)
        #expect(effects.count == 1)
    }

    @Test func statsBracketsStepThroughSevenFourteenAndThirtyDays() {
        var (s, effects) = UIFixtures.press([.char("]"), .char("]"), .char("]")], UIFixtures.state(.stats))
        #expect(s.statsDays == 30)
        #expect(effects.count == 2)
        (s, effects) = UIFixtures.press([.char("[")], s)
        #expect(s.statsDays == 14)
        #expect(effects == [.load(s.request)])
    }

    @Test func helpOpensWithQuestionMarkAndClosesWithEscape() {
        var (s, _) = UIFixtures.press([.char("?")], UIFixtures.state())
        #expect(s.showingHelp)
        (s, _) = UIFixtures.press([.escape], s)
        #expect(!s.showingHelp)
    }

    @Test func anAnswerToAReplacedRequestIsDropped() {
        let s = UIFixtures.state()
        let (moved, _) = UIFixtures.press([.char("]")], s)
        var other = UIFixtures.data()
        other.tasks = []
        let (after, effects) = UIReducer.reduce(moved, .loaded(other, s.request))
        #expect(after.data?.tasks.isEmpty == false)
        #expect(effects.isEmpty)
    }

    @Test func aChangeElsewhereReloadsWhatIsShown() {
        let s = UIFixtures.state(.week)
        #expect(UIReducer.reduce(s, .changed).1 == [.load(s.request)])
    }

    @Test func midnightMovesAViewLeftOnTodayToTheNewDay() {
        let s = UIFixtures.state()
        let (next, effects) = UIReducer.reduce(s, .tick(UIFixtures.at(24, 0, 1)))
        #expect(next.day == UIFixtures.monday.adding(days: 1))
        #expect(effects == [.load(next.request)])
    }
}

/// Sessions from the view: Enter starts one as `focus start` does; the Timer's keys ask what
/// `focus pause`, `resume` and `stop` do.
struct SessionKeyTests {
    static func running(paused: Bool = false) -> RunningSession {
        let snapshot = SessionSnapshot(phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(900), isPaused: paused,
                                       phaseStartedAt: UIFixtures.at(23, 10, 30), endsAt: UIFixtures.at(23, 10, 55), focusedSeconds: 0,
                                       workStartedAt: UIFixtures.at(23, 10, 30), workPlannedSeconds: 1500)
        return RunningSession(active: ActiveSession(pid: 1, taskID: 1, subtaskID: 2, blockID: 7, snapshot: snapshot,
                                                    checkpointAt: UIFixtures.at(23, 10, 30)), task: "Thesis", subtask: "Chapter 2")
    }

    @Test func enterOnABlockStartsItsSubtaskAndShowsTheTimer() {
        // Today: the session at 08:00, Math 101, the block at 10:30.
        let (s, effects) = UIFixtures.press([.char("G"), .enter], UIFixtures.state())
        #expect(effects == [.startSession(path: "#2")])
        #expect(s.screen == .timer)
    }

    /// `q` asks first while the session this view started runs (it goes on without the view);
    /// with none started here, or once it ended, `q` quits at once.
    @Test func qAsksFirstWhileASessionStartedHereRuns() {
        let (started, _) = UIFixtures.press([.char("G"), .enter], UIFixtures.state())
        #expect(UIFixtures.press([.char("q")], started).1 == [.quit], "nothing runs yet")
        var running = started
        running.data?.session = Self.running()
        let (asked, effects) = UIFixtures.press([.char("q")], running)
        #expect(effects.isEmpty)
        #expect(UIView.frame(asked).text.contains("Thesis/Chapter 2 is running; it goes on after the view closes"))
        #expect(UIFixtures.press([.char("n")], asked).1.isEmpty, "no: the view stays")
        #expect(UIFixtures.press([.char("y")], asked).1 == [.quit])
        var elsewhere = UIFixtures.state()
        elsewhere.data?.session = Self.running()
        #expect(UIFixtures.press([.char("q")], elsewhere).1 == [.quit], "a session started elsewhere: q quits")
    }

    @Test func enterOnASubtaskOrATaskStartsIt() {
        #expect(UIFixtures.press([.char("G"), .enter], UIFixtures.state(.tasks)).1 == [.startSession(path: "#3")])
        #expect(UIFixtures.press([.enter], UIFixtures.state(.tasks)).1 == [.startSession(path: "#1")])
    }

    @Test func enterOnBusyTimeOrWhileASessionRunsSaysWhyNothingStarts() {
        let (busy, none) = UIFixtures.press([.char("j"), .enter], UIFixtures.state())
        #expect(none.isEmpty)
        #expect(busy.message == "Select a block, a session or a task to start a session on it.")
        let (s, effects) = UIFixtures.press([.enter], UIFixtures.state(data: UIFixtures.data(session: Self.running())))
        #expect(effects.isEmpty)
        #expect(s.message == "Thesis/Chapter 2 is running: stop it first (x on Timer, or focus stop).")
        #expect(UIView.frame(s).line(s.height - 2).contains("is running: stop it first"))
    }

    @Test func spacePausesARunningSessionResumesAPausedOneAndXStopsIt() {
        let timer = UIFixtures.state(.timer, data: UIFixtures.data(session: Self.running()))
        #expect(UIFixtures.press([.char(" ")], timer).1 == [.run(["pause"])])
        #expect(UIFixtures.press([.char("x")], timer).1 == [.run(["stop"])])
        let paused = UIFixtures.state(.timer, data: UIFixtures.data(session: Self.running(paused: true)))
        #expect(UIFixtures.press([.char("p")], paused).1 == [.run(["resume"])])
        let idle = UIFixtures.press([.char(" ")], UIFixtures.state(.timer))
        #expect(idle.1.isEmpty)
        #expect(idle.0.message == "No session is running.")
    }
}

extension ReducerTests {
    @Test func pPlansAgainAndReloadsRFetchesTheCalendarsAndSyncsInTheBackground() {
        let s = UIFixtures.state(.week)
        #expect(UIFixtures.press([.char("p")], s).1 == [.replan, .load(s.request)])
        let (fetching, effects) = UIFixtures.press([.char("R")], s)
        #expect(effects == [.refreshAndSync])
        #expect(fetching.message == "Fetching the calendars…")
        // The answer replaces the message, a reload keeps it, the next key clears it.
        var after = UIReducer.reduce(fetching, .said("No subscribed calendars.")).0
        after = UIReducer.reduce(after, .loaded(UIFixtures.data(), after.request)).0
        #expect(after.message == "No subscribed calendars.")
        #expect(UIFixtures.press([.char("j")], after).0.message == nil)
    }

    @Test func sOnTimerAsksTheRunningSessionToSkipItsPhaseAndSaysSoWhenNoneRuns() {
        let timer = UIFixtures.state(.timer, data: UIFixtures.data(session: SessionKeyTests.running()))
        #expect(UIFixtures.press([.char("s")], timer).1 == [.control(.skip)])
        #expect(UIView.frame(timer).line(timer.height - 1).contains("s skip"))
        let idle = UIFixtures.press([.char("s")], UIFixtures.state(.timer))
        #expect(idle.1.isEmpty)
        #expect(idle.0.message == "No session is running.")
        // Elsewhere s is no key.
        #expect(UIFixtures.press([.char("s")], UIFixtures.state(.today, data: UIFixtures.data(session: SessionKeyTests.running()))).1.isEmpty)
    }

    @Test func todaySaysWhyTheSelectedBlockIsWhereItIs() throws {
        let start = UIFixtures.state(.today, width: 220, height: 40)
        let index = try #require(TodayLayout.items(UIFixtures.data().day).firstIndex { if case .block = $0 { true } else { false } })
        var (s, _) = UIFixtures.press(Array(repeating: Key.char("j"), count: index), start)
        let text = UIView.frame(s).text
        #expect(text.contains("Here because it is the earliest free time before its due date, Fri 27 Nov 17:00."))
        var pinned = UIFixtures.chapter
        pinned.pinnedUID = "focus-block-7@example"
        var data = UIFixtures.data()
        data.day.blocks = [pinned]
        s = UIReducer.reduce(s, .loaded(data, s.request)).0
        #expect(UIView.frame(s).text.contains("Here because it is pinned"))
    }

    @Test func onTimerPPausesInsteadOfPlanning() {
        let timer = UIFixtures.state(.timer, data: UIFixtures.data(session: SessionKeyTests.running()))
        #expect(UIFixtures.press([.char("p")], timer).1 == [.run(["pause"])])
    }
}

/// The add form: typed fields become `focus task add`'s arguments; its refusal stays in the form.
struct TaskFormTests {
    static func typed(_ text: String) -> [Key] { text.map { Key.char($0) } }

    @Test func aOpensTheFormFromTheSelectedTaskAndEnterRunsTaskAddWithTheFields() {
        var (s, _) = UIFixtures.press([.char("a")], UIFixtures.state(.tasks))
        #expect(s.form?.values.first == "Thesis/")
        // Letters that are keys elsewhere (q, j, p) are text here.
        (s, _) = UIFixtures.press(Self.typed("Chapter qjp") + [.backspace, .backspace, .backspace, .char("4"), .tab]
                                  + Self.typed("2h") + [.tab] + Self.typed("fri 17:00") + [.tab, .tab, .tab, .tab] + Self.typed("high"), s)
        #expect(s.form?.field == 6)
        let frame = UIView.frame(s)
        #expect(frame.text.contains("  Estimate  2h"))
        #expect(frame.text.contains("▶ Priority  high▏"))
        #expect(frame.line(s.height - 1).contains("Tab next field  Enter save  Esc cancel"))
        let (saving, effects) = UIFixtures.press([.enter], s)
        #expect(effects == [.run(["task", "add", "Thesis/Chapter 4", "--estimate", "2h", "--due", "fri 17:00", "--priority", "high"])])
        #expect(saving.form?.saving == true)
        let (saved, reload) = UIReducer.reduce(saving, .said("Added Thesis/Chapter 4 (#5)."))
        #expect(saved.form == nil)
        #expect(saved.message == "Added Thesis/Chapter 4 (#5).")
        #expect(reload == [.load(saved.request)])
    }

    @Test func aRefusalIsShownInTheFormAndTheDraftStaysUntilEsc() {
        var (s, _) = UIFixtures.press([.char("a")] + Self.typed("Big") + [.tab] + Self.typed("200h") + [.enter], UIFixtures.state(.tasks))
        let refusal = "focus: error: 'Thesis/Big' does not fit before its due date, Fri 27 Nov 17:00: it needs 200h of work."
        s = UIReducer.reduce(s, .failed(refusal)).0
        #expect(s.form?.saving == false)
        #expect(s.form?.error == refusal)
        #expect(s.form?.values[1] == "200h")
        #expect(UIView.frame(s).text.contains("does not fit before its due date"))
        s = UIReducer.reduce(s, .loaded(UIFixtures.data(), s.request)).0
        #expect(s.form?.values[0] == "Thesis/Big")
        (s, _) = UIFixtures.press([.escape], s)
        #expect(s.form == nil)
    }

    @Test func anEmptyPathIsAskedForBeforeAnythingRuns() {
        let (s, effects) = UIFixtures.press([.char("a"), .backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .enter],
                                            UIFixtures.state(.tasks))
        #expect(effects.isEmpty)
        #expect(s.form?.error?.hasPrefix("Give the work a path first") == true)
    }
}

/// Enter on a task in Stats' list shows that task's stats in place (as `stats --task PATH`):
/// its days, its subtasks as the share list, a title naming it; Esc or Backspace go back.
struct StatsDrillTests {
    @Test func enterDrillsIntoTheTaskAndEscGoesBackWhileBracketsAndRangeKeepIt() {
        // Stats lists Thesis, then Garden; Garden is not among the open tasks, Thesis is.
        var (s, effects) = UIFixtures.press([.enter], UIFixtures.state(.stats))
        #expect(s.screen == .stats)
        #expect(s.statsTask == "Thesis")
        #expect(effects == [.load(s.request)])
        #expect(s.request.statsTask == "Thesis")
        s = UIReducer.reduce(s, .loaded(UIFixtures.data(statsTask: "Thesis"), s.request)).0
        var text = UIView.frame(s).text
        #expect(text.contains("Thesis · its days and subtasks · Esc: all tasks"))
        #expect(text.contains("Share by subtask"))
        #expect(text.contains("Chapter 2"))
        #expect(!text.contains("Garden"))
        // j moves among the subtasks; Enter again does not leave the task.
        (s, effects) = UIFixtures.press([.char("j")], s)
        #expect(s.selected(.stats) == 1)
        (s, effects) = UIFixtures.press([.enter], s)
        #expect(effects.isEmpty)
        #expect(s.statsTask == "Thesis")
        // `]` and `r` load the other window still restricted to the task.
        (s, effects) = UIFixtures.press([.char("]")], s)
        #expect(effects == [.load(s.request)])
        #expect(s.request.statsDays == 14 && s.request.statsTask == "Thesis")
        (s, effects) = UIFixtures.press([.char("r")] + "2026-11-01 2026-11-15".map { Key.char($0) } + [.enter], s)
        #expect(effects == [.load(s.request)])
        #expect(s.request.statsRange == StatsRange(from: "2026-11-01", to: "2026-11-15") && s.request.statsTask == "Thesis")
        // Esc: all tasks again, in the same window.
        (s, effects) = UIFixtures.press([.escape], s)
        #expect(s.statsTask == nil)
        #expect(effects == [.load(s.request)])
        #expect(s.request.statsRange == StatsRange(from: "2026-11-01", to: "2026-11-15"))
        s = UIReducer.reduce(s, .loaded(UIFixtures.data(), s.request)).0
        text = UIView.frame(s).text
        #expect(text.contains("Share by task"))
        #expect(text.contains("Garden"))
        #expect(!text.contains("Esc: all tasks"))
    }

    @Test func backspaceGoesBackAndTheSecondTaskCanBeDrilledIntoToo() {
        var (s, effects) = UIFixtures.press([.char("j"), .enter], UIFixtures.state(.stats))
        #expect(s.statsTask == "Garden")
        #expect(s.selected(.stats) == 0)
        (s, effects) = UIFixtures.press([.backspace], s)
        #expect(s.statsTask == nil)
        #expect(effects == [.load(s.request)])
        // Outside a task, Esc changes nothing.
        (s, effects) = UIFixtures.press([.escape], UIFixtures.state(.stats))
        #expect(effects.isEmpty)
        #expect(s.statsTask == nil)
    }
}

extension ReducerTests {
    @Test func slashSearchesTasksAsEachLetterIsTypedEnterKeepsItEscClearsIt() {
        var (s, effects) = UIFixtures.press([.char("/")], UIFixtures.state(.tasks))
        #expect(s.keyContext == .search)
        #expect(effects.isEmpty)
        (s, effects) = UIFixtures.press([.char("c"), .char("h"), .char("q")], s)
        #expect(s.search == "chq")
        #expect(effects.count == 3)
        #expect(effects.last == .load(LoadRequest(day: UIFixtures.monday, weekStart: UIFixtures.monday, statsDays: 7, search: "chq")))
        (s, effects) = UIFixtures.press([.backspace, .enter], s)
        #expect(s.search == "ch")
        #expect(s.keyContext == .screen)
        #expect(UIView.frame(s).line(1).hasPrefix("/ch · 1 task"))
        (s, _) = UIFixtures.press([.char("/")], s)
        (s, effects) = UIFixtures.press([.escape], s)
        #expect(s.search == nil)
        #expect(effects == [.load(s.request)])
    }
}

/// `:` runs a focus subcommand inside the view.
struct CommandLineTests {
    @Test(arguments: [
        ("task done 'Thesis/Chapter 2'", ["task", "done", "Thesis/Chapter 2"]),
        ("  log   --last 3 ", ["log", "--last", "3"]),
        (#"task add "Big \"one\"" --notes a\ b"#, ["task", "add", #"Big "one""#, "--notes", "a b"]),
        (#"x "a\b" ''"#, ["x", #"a\b"#, ""]),
    ])
    func wordsAreSplitAsAShellSplitsThemWithoutExpansion(line: String, words: [String]) {
        #expect(CommandWords.split(line) == words)
    }

    @Test func anOpenQuoteIsNoCommand() {
        #expect(CommandWords.split("task add 'Thesis") == nil)
    }

    @Test func colonTypesACommandThatEnterRunsInTheBackground() {
        var (s, _) = UIFixtures.press([.char(":")] + "focus task done 'Thesis/Chapter 2'".map { Key.char($0) }, UIFixtures.state(.week))
        #expect(s.keyContext == .command)
        #expect(UIView.frame(s).line(s.height - 2) == ":focus task done 'Thesis/Chapter 2'▏")
        #expect(UIView.frame(s).line(s.height - 1).contains("Enter run  Esc cancel"))
        let effects: [Effect]
        (s, effects) = UIFixtures.press([.enter], s)
        #expect(effects == [.runInBackground(["task", "done", "Thesis/Chapter 2"])])
        #expect(s.commandLine == nil)
        #expect(s.message == "Running focus task done Thesis/Chapter 2…")
        let (open, none) = UIFixtures.press([.char(":"), .char("'"), .enter], UIFixtures.state())
        #expect(none.isEmpty)
        #expect(open.message == "A quote is not closed: '")
        #expect(UIFixtures.press([.char(":"), .char("x"), .escape], UIFixtures.state()).0.keyContext == .screen)
    }
}

extension ReducerTests {
    @Test func dMarksTheSubtaskDoneOrOpenAgainAndArchivesATaskThroughTaskDone() {
        let tasks = UIFixtures.state(.tasks)
        #expect(UIFixtures.press([.char("j"), .char("d")], tasks).1 == [.run(["task", "done", "#2"]), .load(tasks.request)])
        #expect(UIFixtures.press([.char("d")], tasks).1 == [.run(["task", "done", "#1"]), .load(tasks.request)])
        var finished = UIFixtures.tasks()
        finished[0].subtasks[0].subtask.done = true
        let reopened = UIFixtures.state(.tasks, data: UIFixtures.data(tasks: finished))
        #expect(UIFixtures.press([.char("j"), .char("d")], reopened).1 == [.run(["task", "done", "#2", "--undo"]), .load(reopened.request)])
    }
}

extension TaskFormTests {
    @Test func eEditsTheSelectedSubtaskAndSendsOnlyWhatChangedWithNoneForAFieldEmptied() {
        var (s, _) = UIFixtures.press([.char("j"), .char("e")], UIFixtures.state(.tasks))
        #expect(s.form?.values == ["Chapter 2", "6h", "2026-11-27 17:00", "", "", "", "high", ""])
        #expect(UIView.frame(s).text.contains("Edit Thesis/Chapter 2 (as focus task edit"))
        // The estimate becomes 8h, the due date is emptied.
        (s, _) = UIFixtures.press([.tab, .backspace, .backspace, .char("8"), .char("h"), .tab] + Array(repeating: Key.backspace, count: 16), s)
        let (_, effects) = UIFixtures.press([.enter], s)
        #expect(effects == [.run(["task", "edit", "#2", "--estimate", "8h", "--due", "none"])])
        let (task, none) = UIFixtures.press([.char("e")], UIFixtures.state(.tasks))
        #expect(none.isEmpty)
        #expect(task.form == nil)
        #expect(task.message?.hasPrefix("e edits a subtask") == true)
    }
}

extension ReducerTests {
    @Test func capitalDAsksFirstAndOnlyYesRunsTaskRm() {
        var (s, effects) = UIFixtures.press([.char("j"), .char("D")], UIFixtures.state(.tasks))
        #expect(effects.isEmpty)
        #expect(UIView.frame(s).line(s.height - 2) == "Delete Thesis/Chapter 2? [y/N]")
        #expect(UIView.frame(s).line(s.height - 1).contains("y yes  n no"))
        (s, effects) = UIFixtures.press([.char("y")], s)
        #expect(effects == [.run(["task", "rm", "#2"]), .load(s.request)])
        #expect(s.confirm == nil)
        let (no, none) = UIFixtures.press([.char("D"), .char("x")], UIFixtures.state(.tasks))
        #expect(none.isEmpty)
        #expect(no.keyContext == .screen)
    }
}

/// The add form's live verdict: each change of a new subtask's draft asks for the planner's dry
/// run, and only the verdict on the draft as it still is shows in the form.
extension TaskFormTests {
    @Test func typingASubtaskAsksForItsDryRunAndItsVerdictShowsInTheForm() {
        var (s, effects) = UIFixtures.press([.char("a")] + Self.typed("Big") + [.tab] + Self.typed("200h"), UIFixtures.state(.tasks))
        #expect(effects.last == .preview(["task", "add", "Thesis/Big", "--estimate", "200h"]))
        #expect(effects.allSatisfy { if case .preview = $0 { true } else { false } })
        let refusal = "'Thesis/Big' does not fit before its due date, Fri 27 Nov 17:00: it needs 200h of work and there is only 9h of free time before then."
        // A verdict on an older draft is dropped.
        s = UIReducer.reduce(s, .previewed(["task", "add", "Thesis/Big", "--estimate", "200"], FormVerdict(fits: true, sentence: "Fits."))).0
        #expect(s.form?.verdict == nil)
        s = UIReducer.reduce(s, .previewed(["task", "add", "Thesis/Big", "--estimate", "200h"], FormVerdict(fits: false, sentence: refusal))).0
        #expect(s.form?.verdict?.fits == false)
        #expect(UIView.frame(s).text.contains("does not fit before its due date, Fri 27 Nov 17:00"))
        // Typing on makes it stale: gone until the next dry run answers, which names what moves.
        (s, effects) = UIFixtures.press([.backspace], s)
        #expect(s.form?.verdict == nil)
        #expect(effects == [.preview(["task", "add", "Thesis/Big", "--estimate", "200"])])
        s = UIReducer.reduce(s, .previewed(effects.isEmpty ? [] : ["task", "add", "Thesis/Big", "--estimate", "200"],
                                           FormVerdict(fits: true, sentence: "Fits; it moves:", moves: ["Thesis/Chapter 2: Mon 09:00 → Tue 10:00"]))).0
        let frame = UIView.frame(s)
        #expect(frame.text.contains("Fits; it moves:"))
        #expect(frame.text.contains("  · Thesis/Chapter 2: Mon 09:00 → Tue 10:00"))
        // Nothing was run: only Enter saves.
        #expect(s.form?.saving == false)
    }

    @Test func aTaskAloneAsksForNoDryRun() {
        let (_, effects) = UIFixtures.press([.char("a")] + Array(repeating: Key.backspace, count: 7) + Self.typed("Garden"), UIFixtures.state(.tasks))
        #expect(effects.isEmpty)
    }

    /// The edit form, like the add form, has the planner's verdict on the draft before saving.
    @Test func theEditFormAsksForTheDryRunOfItsEditAndShowsItsVerdict() {
        var (s, edits) = UIFixtures.press([.char("j"), .char("e"), .tab] + Self.typed("1"), UIFixtures.state(.tasks))
        guard case let .preview(arguments)? = edits.last else {
            Issue.record("no dry run asked: \(edits)")
            return
        }
        #expect(Array(arguments.prefix(2)) == ["task", "edit"])
        #expect(arguments.contains("--estimate"))
        let refusal = "'Thesis/Chapter 2' does not fit before its due date, Fri 27 Nov 17:00: it needs 81h of work."
        s = UIReducer.reduce(s, .previewed(arguments, FormVerdict(fits: false, sentence: refusal))).0
        #expect(UIView.frame(s).text.contains("does not fit before its due date"))
        #expect(s.form?.saving == false, "nothing saved: only Enter saves")
    }
}

/// h/l and Tab between the two panes of Today, Tasks and Stats; j/k then move in the pane that
/// has the keys.
struct PaneTests {
    @Test func lAndTabGiveTheDetailsTheKeysAndJKScrollThemHGivesThemBack() {
        var (s, _) = UIFixtures.press([.char("j"), .char("j")], UIFixtures.state(.today, width: 120, height: 16))
        let list = UIView.frame(s).text
        #expect(list.contains(" │ "))
        (s, _) = UIFixtures.press([.char("l")], s)
        #expect(s.otherPane.contains(.today))
        #expect(UIView.frame(s).text.contains(" ┃ "), "the rule beside the pane with the keys is heavy")
        let selected = s.selected(.today)
        (s, _) = UIFixtures.press([.char("j")], s)
        #expect(s.selected(.today) == selected, "j scrolls the details, the timeline's selection stays")
        #expect(s.paneCursor[.today] == 1)
        (s, _) = UIFixtures.press([.char("h")], s)
        #expect(!s.otherPane.contains(.today))
        (s, _) = UIFixtures.press([.tab], s)
        #expect(s.otherPane.contains(.today))
        (s, _) = UIFixtures.press([.backTab], s)
        #expect(!s.otherPane.contains(.today))
    }

    @Test func onTasksTheDetailsScrollAndOnStatsTheBarsPickADay() {
        var (tasks, _) = UIFixtures.press([.char("j"), .char("l")], UIFixtures.state(.tasks))
        #expect(tasks.otherPane.contains(.tasks))
        #expect(UIView.frame(tasks).text.contains("━━━"), "stacked panes: the rule over the details is heavy")
        (tasks, _) = UIFixtures.press([.char("j")], tasks)
        #expect(tasks.selected(.tasks) == 1)

        var (stats, _) = UIFixtures.press([.char("h")], UIFixtures.state(.stats))
        #expect(stats.otherPane.contains(.stats))
        let last = UIView.frame(stats).text
        #expect(last.contains("▶ "), "the day picked in the bars, with its focus")
        (stats, _) = UIFixtures.press([.char("k")], stats)
        #expect(UIView.frame(stats).text != last, "k picks the day before")
        (stats, _) = UIFixtures.press([.char("l")], stats)
        #expect(!stats.otherPane.contains(.stats), "l: the task list has the keys again")
    }

    /// Every key the help lists on a screen does something there: from one of a few starting
    /// points (as it opens, one row down, the other pane, the list's end, the next window, after
    /// Enter), the
    /// frame or the effects differ. The key table is walked, so a key added later is held to it.
    @Test func everyKeyTheHelpListsChangesSomethingOnItsScreen() {
        for screen in Screen.allCases {
            var data = UIFixtures.data()
            if screen == .timer { data = UIFixtures.data(session: SessionKeyTests.running()) }
            let fresh = UIFixtures.state(screen, width: 120, height: 40, data: data)
            let starts = [fresh] + [[Key.char("j")], [.char("l")], [.char("h")], [.char("G")], [.char("]")], [.tab], [.enter]].map {
                UIFixtures.press($0, fresh).0
            }
            for binding in KeyTable.bindings where binding.context == .screen && (binding.screens?.contains(screen) ?? true) {
                for (key, action) in binding.keys where action != .show(screen) {
                    let works = starts.contains { start in
                        let (after, effects) = UIFixtures.press([key], start)
                        return !effects.isEmpty || UIView.frame(after).text != UIView.frame(start).text
                    }
                    #expect(works, "\(key) (\(binding.label) \(binding.short)) changes nothing on \(screen.title)")
                }
            }
        }
    }
}

/// Stats' windows: `[ ]` step through 7, 14 and 30 days; `r` takes a range typed as `stats
/// --from/--to` take it, and `[ ]` leave it for the windows again.
struct StatsRangeTests {
    @Test func rTakesARangeTypedAsFromToAndBracketsGoBackToTheWindows() {
        var (s, effects) = UIFixtures.press([.char("r")], UIFixtures.state(.stats))
        #expect(s.keyContext == .range)
        (s, effects) = UIFixtures.press("2026-11-01 2026-11-15".map { Key.char($0) }, s)
        #expect(UIView.frame(s).text.contains("From To: 2026-11-01 2026-11-15"))
        (s, effects) = UIFixtures.press([.enter], s)
        #expect(s.rangeLine == nil)
        #expect(s.statsRange == StatsRange(from: "2026-11-01", to: "2026-11-15"))
        #expect(effects == [.load(s.request)])
        #expect(s.request.statsRange == StatsRange(from: "2026-11-01", to: "2026-11-15"))
        (s, effects) = UIFixtures.press([.char("]")], s)
        #expect(s.statsRange == nil)
        #expect(effects == [.load(s.request)])
    }

    @Test func aRangeThatIsNotTwoDatesSaysSoAndEscCloses() {
        var (s, effects) = UIFixtures.press([.char("r"), .char("m"), .char("o"), .char("n"), .enter], UIFixtures.state(.stats))
        #expect(effects.isEmpty)
        #expect(s.message?.hasPrefix("Type two dates") == true)
        (s, _) = UIFixtures.press([.escape], s)
        #expect(s.rangeLine == nil)
        #expect(s.statsRange == nil)
    }
}
