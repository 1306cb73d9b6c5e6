import FoundationEssentials

/// When the end-of-day summary notice is due, as a pure function of the configured time,
/// the last day it was sent for and the moment.
package enum DaySummarySchedule {
    /// The day whose summary is due now (nil when none is), and the next moment one will be.
    /// A moment more than `ReminderSchedule.graceSeconds` ago is skipped, not sent late.
    package static func decide(at time: TimeOfDay?, lastSent: LocalDate?, now: Date,
                               calendar: LocalCalendar) -> (due: LocalDate?, next: Date?) {
        guard let time else { return (nil, nil) }
        let today = calendar.day(of: now)
        let moment = calendar.instant(today, time)
        if moment > now { return (nil, moment) }
        let tomorrow = calendar.instant(today.adding(days: 1), time)
        let due = lastSent != today && now.timeIntervalSince(moment) <= ReminderSchedule.graceSeconds
        return (due ? today : nil, tomorrow)
    }

    /// "Today: 2h 15m focused · 5 sessions" with "4 completed, 1 interrupted" as the body.
    package static func notice(focusedSeconds: Int, completed: Int, interrupted: Int) -> Notice {
        let sessions = completed + interrupted
        let summary = "Today: \(DurationParser.format(focusedSeconds)) focused · \(sessions) session\(sessions == 1 ? "" : "s")"
        return Notice(kind: .daySummary, summary: summary, body: "\(completed) completed, \(interrupted) interrupted")
    }
}
