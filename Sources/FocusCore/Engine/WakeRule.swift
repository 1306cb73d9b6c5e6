import FoundationEssentials

/// When a live view (`focus status --follow`, `focus ui`) looks next, as a pure rule: at the
/// first instant what it shows can change by itself, and otherwise not at all, since a key, a
/// signal or a change to the database wakes it anyway (inotify(7)). A view that sleeps to a
/// fixed beat wakes 60 times a minute for nothing (README "Status bars").
package enum WakeRule {
    /// How often to look when the database's directory cannot be watched (it does not exist yet).
    package static let unwatchedSeconds = 1.0
    /// How soon to try again while the database cannot be read.
    package static let failingSeconds = 0.25
    /// The second look after a change: a commit is written to the -wal file, which inotify
    /// reports, and only then made visible in the -shm index, which it does not
    /// (https://sqlite.org/walformat.html).
    package static let settleSeconds = 0.05
    /// How far past the instant a label changes the view looks, so that it reads the new value.
    package static let margin = 0.01

    /// Just past the next whole second: a running session's clock.
    package static func nextSecond(after now: Date) -> Date {
        next(after: now, step: 1)
    }

    /// Just past the next whole minute: a clock `HH:MM` or an "in 25m" (every zone focus
    /// knows is a whole number of minutes from UTC, so local minutes turn with UTC's).
    package static func nextMinute(after now: Date) -> Date {
        next(after: now, step: 60)
    }

    private static func next(after now: Date, step: Double) -> Date {
        let t = now.timeIntervalSince1970
        return Date(timeIntervalSince1970: ((t - margin) / step).rounded(.down) * step + step + margin)
    }

    /// The first of `changes` (the instants at which what is shown changes by itself: the next
    /// tick of a clock shown, a block's edge, midnight, a deadline the view set itself), made
    /// sooner while the directory is not watched, the database fails or a change is settling;
    /// nil when nothing can change until something wakes the view.
    package static func next(after now: Date, changes: [Date?], watching: Bool, failing: Bool = false,
                             settling: Bool = false) -> Date? {
        var wake = changes.compactMap { $0 }.min()
        func cap(_ seconds: Double) { wake = min(wake ?? .distantFuture, now.addingTimeInterval(seconds)) }
        if !watching { cap(unwatchedSeconds) }
        if failing { cap(failingSeconds) }
        if settling { cap(settleSeconds) }
        return wake
    }
}
