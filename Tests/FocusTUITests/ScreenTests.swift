import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusStorage
import FocusText
import FocusTUI
import Foundation
import Testing

/// Each screen drawn at 80×24, 120×40 and 60×20 from the pinned day, read as text by region.
struct ScreenTests {
    static let sizes = [(80, 24), (120, 40), (60, 20)]

    @Test(arguments: sizes)
    func everyScreenHasTheTopBarTheKeyLineAndFitsTheTerminal(width: Int, height: Int) {
        for screen in Screen.allCases {
            let frame = UIView.frame(UIFixtures.state(screen, width: width, height: height))
            #expect(frame.height == height)
            let top = frame.line(0)
            for word in ["1 Today", "2 Week", "3 Tasks", "4 Timer", "5 Stats"] { #expect(top.contains(word)) }
            #expect(top.contains("[\(screen.rawValue) \(screen.title)]"))
            #expect(top.hasSuffix("10:40"))
            #expect(frame.line(height - 1).contains("q quit"))
            #expect(frame.line(height - 1).contains("? help"))
            for row in 0..<height { #expect(TerminalText.width(frame.line(row)) <= width, "\(screen) row \(row)") }
        }
    }

    @Test(arguments: sizes)
    func todayShowsBusyTimeBlocksSessionsAndTheNowLineInTimeOrder(width: Int, height: Int) throws {
        let frame = UIView.frame(UIFixtures.state(.today, width: width, height: height))
        #expect(frame.line(1).contains("Mon 23 Nov 2026 (today)"))
        let session = try #require(frame.rows(containing: "08:00 ✓ Thesis/Chapter 2").first)
        let math = try #require(frame.rows(containing: "09:00 ░ Math 101").first)
        let now = try #require(frame.rows(containing: "10:40 now").first)
        let block = try #require(frame.rows(containing: "█ Thesis/Chapter 2").first)
        // Times are cut before names in a narrow terminal.
        if width >= 80 { #expect(frame.line(block).contains("10:30–12:00")) }
        #expect(session < math && math < block)
        #expect(now > math && now <= block + 1)
        #expect(!frame.line(now).contains("…"), "the now-line is drawn to the timeline's width, not cut")
        // The first item is selected; its details stand beside the timeline.
        #expect(frame.line(session).hasPrefix("▶08:00"))
        #expect(frame.text.contains("Session ✓ completed"))
    }

    @Test func theSelectedBlockShowsItsDueDateLoggedTimeAndWhyItIsAtRisk() {
        let (s, _) = UIFixtures.press([.char("j"), .char("j")], UIFixtures.state(.today, width: 120, height: 40))
        let frame = UIView.frame(s)
        #expect(frame.rows(containing: "▶10:30 █ Thesis/Chapter 2").count == 1)
        #expect(frame.text.contains("Planned block · planned"))
        #expect(frame.text.contains("Due Fri 27 Nov 17:00 (in 4 days)"))
        #expect(frame.text.contains("Logged 2h of 6h"))
        // The planner's sentence, wrapped to the pane.
        #expect(frame.text.contains("At risk: Thesis/Chapter 2 due Fri 27 Nov 17:00"))
        #expect(frame.text.contains("needs 4h, 3h free"))
    }

    @Test(arguments: sizes)
    func weekShowsSevenDaysTheSelectedOneBlocksBusyTimeAndDueMarkers(width: Int, height: Int) throws {
        let frame = UIView.frame(UIFixtures.state(.week, width: width, height: height))
        let header = frame.line(2)
        // Days are named `Mo 23` where a column is too narrow for `[Mon 23]`.
        #expect(header.contains(width >= 80 ? "[Mon 23]" : "[Mo 23]"))
        for day in ["Tu", "We", "Th", "Fr", "Sa", "Su"] { #expect(header.contains(day)) }
        for number in 24...29 { #expect(header.contains(" \(number)")) }
        #expect(frame.line(1).contains("1 at risk (1 block)"))
        let nine = try #require(frame.rows(containing: "09:00 ").first)
        #expect(frame.line(nine).contains("Math"))
        let due = try #require(frame.rows(containing: "! Cha").first)
        // Due at 17:00: the marker closes the slot that ends then.
        #expect(frame.line(due).hasPrefix("16:"))
        // The block from 10:30 starts in the 10:00 slot (80×24) or the 10:30 one (120×40).
        #expect(frame.rows(containing: "Chap").contains { frame.line($0).hasPrefix("10:") })
        #expect(frame.text.contains("Mon 23 Nov: 1 block · 1 event · 3h free"))
    }

    @Test(arguments: sizes)
    func tasksShowTheTreeWithDueEstimateBarPriorityAndRisk(width: Int, height: Int) throws {
        let frame = UIView.frame(UIFixtures.state(.tasks, width: width, height: height))
        let thesis = try #require(frame.rows(containing: "Thesis").first)
        #expect(frame.line(thesis).hasPrefix("▶ Thesis"))
        let chapter = frame.line(try #require(frame.rows(containing: "Chapter 2").first { $0 > thesis }))
        #expect(chapter.contains("Fri 27 Nov"))
        #expect(chapter.contains("2h/6h"))
        #expect(chapter.contains("███░░░░░"))
        #expect(chapter.contains("high"))
        #expect(chapter.contains("at risk"))
        #expect(frame.text.contains("2 subtasks · 2h logged in 4 sessions"))
    }

    @Test(arguments: sizes)
    func statsShowPerDayBarsAndTheShareByTask(width: Int, height: Int) throws {
        let frame = UIView.frame(UIFixtures.state(.stats, width: width, height: height))
        #expect(frame.line(1).contains("Last 7 days · Tue 17 Nov – Mon 23 Nov"))
        #expect(frame.line(1).contains("3h 25m focused"))
        let share = try #require(frame.rows(containing: "Share by task").first)
        #expect(frame.line(share + 1).contains("Thesis"))
        #expect(frame.line(share + 1).contains("71%"))
        #expect(frame.line(share + 2).contains("Garden"))
        // The tallest day (Friday, 2h) reaches the top of the chart; the axis names it.
        #expect(frame.line(2).contains("2h │"))
        #expect(frame.line(2).contains("█"))
        #expect(frame.rows(containing: "└").count == 1)
    }

    /// Enter on a task: the same screen for that task alone, named first, its subtasks' shares.
    @Test(arguments: sizes)
    func statsOfOneTaskNameItAndShareItsTimeBySubtask(width: Int, height: Int) throws {
        var s = UIFixtures.press([.enter], UIFixtures.state(.stats, width: width, height: height)).0
        s = UIReducer.reduce(s, .loaded(UIFixtures.data(statsTask: "Thesis"), s.request)).0
        let frame = UIView.frame(s)
        #expect(frame.line(1).contains("Last 7 days · Tue 17 Nov – Mon 23 Nov"))
        #expect(frame.line(1).contains("2h 55m focused"))
        #expect(frame.line(2).hasPrefix("Thesis · its days and subtasks"))
        #expect(frame.line(3).contains("2h │"))
        let share = try #require(frame.rows(containing: "Share by subtask").first)
        #expect(frame.line(share + 1).contains("▶ Chapter 2"))
        #expect(frame.line(share + 1).contains("83%"))
        #expect(frame.line(share + 2).contains("Chapter 3"))
        #expect(frame.line(share + 2).contains("17%"))
        #expect(frame.rows(containing: "Garden").isEmpty)
        for row in 0..<frame.height { #expect(TerminalText.width(frame.line(row)) <= width) }
    }

    @Test func timerShowsTheSessionRunningElsewhereAsTheCountdownDrawsIt() throws {
        let snapshot = SessionSnapshot(phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500), isPaused: false,
                                       phaseStartedAt: UIFixtures.at(23, 10, 30), endsAt: UIFixtures.at(23, 10, 55), focusedSeconds: 0,
                                       workStartedAt: UIFixtures.at(23, 10, 30), workPlannedSeconds: 1500)
        let active = ActiveSession(pid: 1, taskID: 1, subtaskID: 2, blockID: 7, snapshot: snapshot, checkpointAt: UIFixtures.at(23, 10, 30))
        let session = RunningSession(active: active, task: "Thesis", subtask: "Chapter 2")
        let timer = UIView.frame(UIFixtures.state(.timer, data: UIFixtures.data(session: session)))
        #expect(timer.text.contains("● WORK  Thesis/Chapter 2"))
        #expect(timer.text.contains("15:00"))
        // The clock large: `15:00` five rows tall.
        #expect(timer.rows(containing: "  █ ███   ███ ███").count == 2, "the top and bottom rows of 1 5 : 0 0")
        #expect(timer.rows(containing: "  █ █   █ █ █ █ █").count == 1, "the second row, with the colon's upper dot")
        // Elsewhere, the session is a strip under the top bar.
        let today = UIView.frame(UIFixtures.state(.today, data: UIFixtures.data(session: session)))
        #expect(today.line(1).contains("● WORK Thesis/Chapter 2 · 15:00 left"))
        #expect(UIView.frame(UIFixtures.state(.timer)).text.contains("No session is running."))
    }

    @Test func aTerminalTooSmallGetsOneLineAskingForRoom() {
        let frame = UIView.frame(UIFixtures.state(.today, width: 59, height: 20))
        #expect(frame.line(0).hasPrefix("focus ui needs at least 60×16; this terminal is 59×20."))
        #expect(frame.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1)
    }

    @Test func helpListsTheKeysOfTheScreenFromTheTable() {
        let (s, _) = UIFixtures.press([.char("2"), .char("?")], UIFixtures.state())
        let frame = UIView.frame(s)
        #expect(frame.text.contains("Keys on Week"))
        #expect(frame.text.contains("Enter   open the day"))
        #expect(frame.text.contains("[ ]     week before, week after"))
        #expect(!frame.text.contains("day before, day after\n"))
    }
}

extension ScreenTests {
    @Test func itemsSharingASlotAreCountedAndEachIsReachedWithJ() throws {
        var data = UIFixtures.data()
        let short = BlockView(id: 8, subtaskID: 3, task: "Thesis", subtask: "Introduction", start: UIFixtures.at(23, 11, 0),
                              end: UIFixtures.at(23, 11, 25), status: .planned)
        data.day.blocks.append(short)
        var s = UIFixtures.state(.today, data: data)
        let frame = UIView.frame(s)
        // 80×24: hour slots; 11:00 holds the chapter's block (from 10:30) and the introduction's.
        let eleven = frame.line(try #require(frame.rows(containing: " 11:00 ").first))
        #expect(eleven.contains("█ Thesis/Introduction 11:00–11:25 +1"))
        (s, _) = UIFixtures.press([.char("G")], s)
        let selected = UIView.frame(s)
        #expect(selected.rows(containing: "▶11:00 █ Thesis/Introduction 11:00–11:25").count == 1)
        #expect(selected.text.contains("Logged 0m of 2h"))
    }
}
