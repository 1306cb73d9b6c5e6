import FocusText
import FocusTime
import FoundationEssentials
import FocusCore

/// Fixed zones, instants and sessions for the stats tests.
package enum StatsFixtures {
    package static let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    package static let newYork = LocalCalendar(zone: ZoneRules.named("America/New_York")!)

    package static func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d) }

    /// A local wall-clock reading in `calendar` (the earlier one in a fall-back overlap).
    package static func local(_ calendar: LocalCalendar, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Date {
        calendar.instant(day(y, m, d), TimeOfDay(hour: h, minute: mi), second: s)
    }

    /// A wall-clock reading at a fixed UTC offset (in seconds): how a session recorded
    /// elsewhere, e.g. `2026-11-17T07:30:00+09:00`, names its instant.
    package static func offset(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0, utcOffset: Int) -> Date {
        let seconds = day(y, m, d).dayNumber * 86_400 + h * 3600 + mi * 60 + s - utcOffset
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// A stable id for a name (FNV-1a), the same in every test.
    package static func id(_ name: String) -> Int64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return Int64(bitPattern: h & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// A session; focused defaults to the wall time, planned to 25 minutes.
    package static func session(
        _ task: String, _ subtask: String? = nil, from start: Date, to end: Date,
        focused: Int? = nil, planned: Int = 1500, status: SessionStatus = .completed
    ) -> SessionEntry {
        let wall = Int(end.timeIntervalSince(start).rounded())
        // Ids as a database gives them: one per task title, one per subtask within its task.
        let log = TimeLog(
            taskID: id(task), subtaskID: subtask.map { id(task + "/" + $0) }, startedAt: start, endedAt: end,
            plannedSeconds: planned, focusedSeconds: focused ?? wall, status: status)
        return SessionEntry(log: log, task: task, subtask: subtask)
    }

    /// A Berlin session on a day of November 2026, from h:mi for `minutes`.
    package static func nov(
        _ d: Int, _ h: Int, _ mi: Int, minutes: Int, _ task: String = "Thesis", _ subtask: String? = nil,
        focused: Int? = nil, planned: Int = 1500, status: SessionStatus = .completed
    ) -> SessionEntry {
        let start = local(berlin, 2026, 11, d, h, mi)
        return session(task, subtask, from: start, to: start.addingTimeInterval(Double(minutes * 60)), focused: focused, planned: planned, status: status)
    }

    /// The week of 16–22 November 2026 in Berlin, "now" at noon on the 22nd.
    package static func week(
        _ sessions: [SessionEntry], progress: [SubtaskProgress] = [], now: Date? = nil, historyFrom: LocalDate? = nil,
        taskFilter: String? = nil
    ) -> StatsReport {
        StatsCalculator.report(StatsInput(
            window: StatsWindow(from: day(2026, 11, 16), to: day(2026, 11, 22)), calendar: berlin,
            now: now ?? local(berlin, 2026, 11, 22, 12, 0), sessions: sessions, progress: progress,
            taskFilter: taskFilter, historyFrom: historyFrom))
    }

    /// The report for one window in a calendar.
    package static func report(_ calendar: LocalCalendar, from: LocalDate, to: LocalDate, _ sessions: [SessionEntry], now: Date? = nil) -> StatsReport {
        StatsCalculator.report(StatsInput(
            window: StatsWindow(from: from, to: to), calendar: calendar,
            now: now ?? calendar.startOfDay(to).addingTimeInterval(43_200), sessions: sessions))
    }

    /// Focused seconds per day, in window order.
    package static func seconds(_ r: StatsReport) -> [Int] { r.days.map(\.focusedSeconds) }
}
