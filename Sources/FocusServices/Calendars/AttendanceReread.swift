import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// A change of who the person is in meetings (config `email`, `tentative_busy`) applies at the
/// next re-plan (README, "Meetings you declined are free time"): every stored calendar's events
/// are read again from its stored text under the new rule, without waiting for the server's
/// calendar (or the file) to change.
package enum AttendanceReread {
    /// The config keys whose change reads the stored calendars again.
    package static let keys: Set<String> = ["email", "tentative_busy"]

    /// Reads every stored calendar again under the rule of `env` (its config and the accounts'
    /// addresses). A calendar whose stored text no longer reads keeps its busy times.
    package static func run(_ env: ServiceContext, _ db: AppDatabase) throws {
        let attendance = AttendancePolicy.current(env, db)
        for calendar in try db.storedCalendarTexts() where !calendar.content.isEmpty {
            var declined: [(start: Date, end: Date, summary: String)] = []
            guard let expanded = try? CalendarFile.expand(
                calendar.content, file: calendar.name, name: calendar.name, horizon: calendar.horizon, local: env.calendar, strict: false,
                attendance: attendance, declined: { declined = $0.map { ($0.start, $0.end, $0.summary) } }, warn: { _ in }) else { continue }
            try db.replaceBusyTimes(calendarID: calendar.id, expanded.2) { ($0.start, $0.end, $0.summary, $0.allDay, $0.uid) }
            try db.replaceDeclined(calendarNamed: calendar.name, declined)
        }
    }
}
