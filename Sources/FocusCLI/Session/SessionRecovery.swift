import FocusCore
import FocusStorage
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Finds a session whose process died (kill -9, power loss) and records it as interrupted,
/// telling the person once.
package enum SessionRecovery {
    /// Whether a process with this pid exists.
    package static func isAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    package static func recoverStale(_ db: AppDatabase, now: Date, calendar: LocalCalendar, console: any Console) throws(FocusError) {
        guard let (session, entry) = try db.recoverStaleSession(isAlive: isAlive, now: now) else { return }
        if let entry {
            let start = calendar.wallClockText(entry.log.startedAt)
            console.note("the session of \(Sanitized.terminal(entry.path)) started \(start) ended unexpectedly (process \(session.pid) is gone); recorded as interrupted with \(DurationParser.format(entry.log.focusedSeconds)) focused (#\(entry.log.id ?? 0)).")
        }
    }
}
