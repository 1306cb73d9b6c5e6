import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusStorage
import FocusTUI
import Foundation

/// A pinned day for the view's tests: Monday 23 November 2026 in Berlin, 10:40. A class from
/// 09:00 to 10:00, a session done from 08:00, a block of Thesis/Chapter 2 from 10:30 to 12:00;
/// the chapter (6h, 2h logged) is due Friday at 17:00 and at risk.
enum UIFixtures {
    static let calendar = StatsFixtures.berlin
    static func at(_ d: Int, _ h: Int, _ m: Int) -> Date { StatsFixtures.local(calendar, 2026, 11, d, h, m) }
    static let now = at(23, 10, 40)
    static let monday = LocalDate(year: 2026, month: 11, day: 23)
    static let hours = DayHours(start: TimeOfDay(hour: 8, minute: 0), end: TimeOfDay(hour: 18, minute: 0))

    static let chapter = BlockView(id: 7, subtaskID: 2, task: "Thesis", subtask: "Chapter 2", start: at(23, 10, 30), end: at(23, 12, 0), status: .planned)
    static let math = BusyEvent(start: at(23, 9, 0), end: at(23, 10, 0), summary: "Math 101", allDay: false, calendar: "Classes")
    static let done = StatsFixtures.session("Thesis", "Chapter 2", from: at(23, 8, 0), to: at(23, 8, 25))
    static let dueFriday = at(27, 17, 0)

    static func day(_ date: LocalDate, blocks: [BlockView] = [], events: [BusyEvent] = [], sessions: [SessionEntry] = [], due: [DueView] = []) -> AgendaDay {
        AgendaDay(day: date, events: events, blocks: blocks, sessions: sessions, freeSeconds: 3 * 3600, hours: hours, due: due)
    }

    static func tasks(extra: [String] = []) -> [TaskOverview] {
        var chapter = Subtask(id: 2, taskID: 1, title: "Chapter 2", estimateSeconds: 6 * 3600, due: dueFriday, createdAt: at(1, 9, 0))
        chapter.priority = .high
        let intro = Subtask(id: 3, taskID: 1, title: "Introduction", estimateSeconds: 2 * 3600, createdAt: at(1, 9, 0))
        var overviews = [TaskOverview(task: FocusTask(id: 1, title: "Thesis", createdAt: at(1, 9, 0)), loggedSeconds: 7200, sessionCount: 4,
                                      subtasks: [SubtaskOverview(subtask: chapter, loggedSeconds: 7200), SubtaskOverview(subtask: intro, loggedSeconds: 0)])]
        for (index, title) in extra.enumerated() {
            overviews.insert(TaskOverview(task: FocusTask(id: Int64(10 + index), title: title, createdAt: at(1, 9, 0)), loggedSeconds: 0,
                                          sessionCount: 0, subtasks: []), at: 0)
        }
        return overviews
    }

    static let risk = RiskView(subtaskID: 2, task: "Thesis", subtask: "Chapter 2", due: dueFriday, neededSeconds: 4 * 3600,
                               freeSeconds: 3 * 3600, competitors: [])

    /// `statsTask`: Stats restricted to that task, as the loader reads `stats --task` (Thesis
    /// has a second subtask, Chapter 3, with half an hour on Sunday).
    static func data(session: RunningSession? = nil, tasks: [TaskOverview] = tasks(), statsTask: String? = nil) -> UIData {
        let due = DueView(subtaskID: 2, task: "Thesis", subtask: "Chapter 2", due: dueFriday, estimateSeconds: 6 * 3600, loggedSeconds: 7200, done: false)
        let today = day(monday, blocks: [chapter], events: [math], sessions: [done])
        let week = (0..<7).map { offset in
            offset == 0 ? today : day(monday.adding(days: offset), due: offset == 4 ? [due] : [])
        }
        var stats = StatsFixtures.report(calendar, from: monday.adding(days: -6), to: monday, [
            StatsFixtures.session("Thesis", "Chapter 2", from: at(20, 9, 0), to: at(20, 11, 0)),
            StatsFixtures.session("Garden", nil, from: at(21, 9, 0), to: at(21, 10, 0)),
            done,
        ], now: now)
        if let statsTask {
            let sessions = [
                StatsFixtures.session("Thesis", "Chapter 2", from: at(20, 9, 0), to: at(20, 11, 0)),
                StatsFixtures.session("Thesis", "Chapter 3", from: at(22, 14, 0), to: at(22, 14, 30)),
                done,
            ].filter { $0.task == statsTask }
            stats = StatsCalculator.report(StatsInput(window: StatsWindow(from: monday.adding(days: -6), to: monday), calendar: calendar,
                                                      now: now, sessions: sessions, taskFilter: statsTask))
        }
        return UIData(day: today, week: week, tasks: tasks, risks: [risk], stats: stats, session: session)
    }

    /// A state on `screen` with the fixture's data loaded.
    static func state(_ screen: Screen = .today, width: Int = 80, height: Int = 24, data: UIData = data()) -> UIState {
        var s = UIState(now: now, calendar: calendar, width: width, height: height)
        s = UIReducer.reduce(s, .loaded(data, s.request)).0
        s.screen = screen
        return s
    }

    /// Keys pressed one after another; the effects of all of them.
    static func press(_ keys: [Key], _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        var effects: [Effect] = []
        for key in keys {
            let (next, asked) = UIReducer.reduce(s, .key(key))
            s = next
            effects += asked
        }
        return (s, effects)
    }
}

extension Frame {
    /// The rows whose text holds `text`.
    func rows(containing text: String) -> [Int] { (0..<height).filter { line($0).contains(text) } }
}
