import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

/// Finds a session whose process died (kill -9, power loss) and records it as interrupted,
/// telling the person once. Whether the process lives is the session lock's answer
/// (`SessionLock`), never a pid read from the database.
package enum SessionRecovery {
    package static func recoverStale(_ db: AppDatabase, now: Date, calendar: LocalCalendar, console: any Console) throws(FocusError) {
        let found = try db.recoverStaleSession(owner: { SessionLock.owner(database: db.path) }, now: now)
        if let found { tell(found.session, found.log, calendar: calendar, console: console) }
    }

    /// One line on standard error about a session recovered as interrupted.
    package static func tell(_ session: ActiveSession, _ entry: SessionEntry?, calendar: LocalCalendar, console: any Console) {
        guard let entry else { return }
        let start = RelativeTime.moment(entry.log.startedAt, calendar: calendar)
        console.note("the session of \(entry.path) started \(start) ended unexpectedly (its process is gone); recorded as \(entry.log.status.rawValue) with \(DurationParser.format(entry.log.focusedSeconds)) focused (#\(entry.log.id ?? 0)).")
    }
}
