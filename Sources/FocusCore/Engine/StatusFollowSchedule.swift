import FocusTime
import FoundationEssentials

/// What `focus status --follow` decides, as a pure value: whether its reading of the database is
/// stale, and when to look again. The follower observes (file fingerprints, SQLite's data
/// version, inotify wake-ups, the clock) and does what this says; tests drive it with dates.
package struct StatusFollowSchedule: Sendable, Equatable {
    /// The longest sleep without a look at the files (when inotify misses a change).
    package static let idleCheckSeconds = 60.0
    /// How often to look when the directory cannot be watched (it does not exist yet).
    package static let unwatchedCheckSeconds = 1.0
    /// How soon to try again while the database cannot be read.
    package static let failingCheckSeconds = 0.25
    /// The second look after a change.
    package static let settleSeconds = 0.05

    /// What the last reading holds that ages: its day, and the end of the next block it shows.
    package struct Reading: Sendable, Equatable {
        package var day: LocalDate
        package var nextBlockEnd: Date?
        /// The next instant its text changes by itself (a running clock's next second).
        package var nextTick: Date?

        package init(day: LocalDate, nextBlockEnd: Date?, nextTick: Date?) {
            self.day = day
            self.nextBlockEnd = nextBlockEnd
            self.nextTick = nextTick
        }
    }

    package init() {}

    /// The database must be read again: nothing read yet, its files or SQLite's counter changed
    /// (two commits within one tick of the file system's clock can leave the same size and
    /// time; the counter cannot miss one), the day ended, or the block it shows is over.
    package func isStale(_ reading: Reading?, filesChanged: Bool, versionChanged: Bool, today: LocalDate, now: Date) -> Bool {
        guard let reading else { return true }
        if filesChanged || versionChanged || reading.day != today { return true }
        if let end = reading.nextBlockEnd, end <= now { return true }
        return false
    }

    /// When to look next: at most a minute away; at midnight, the next tick and the next block's
    /// end; every second when the directory is not watched; soon while the database fails; and
    /// once more shortly after a change (a commit is written to the -wal file, which inotify
    /// reports, and only then made visible in the -shm index, which it does not).
    package func wake(after now: Date, reading: Reading?, midnight: Date?, watching: Bool, failing: Bool,
                      changedLastTime: Bool) -> Date {
        var wake = now.addingTimeInterval(Self.idleCheckSeconds)
        if let reading {
            wake = [wake, midnight, reading.nextTick, reading.nextBlockEnd].compactMap { $0 }.min() ?? wake
        }
        if !watching || reading == nil { wake = min(wake, now.addingTimeInterval(Self.unwatchedCheckSeconds)) }
        if failing { wake = min(wake, now.addingTimeInterval(Self.failingCheckSeconds)) }
        if changedLastTime { wake = min(wake, now.addingTimeInterval(Self.settleSeconds)) }
        return wake
    }
}
