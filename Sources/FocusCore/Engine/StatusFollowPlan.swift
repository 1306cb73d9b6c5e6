import FocusText
import FocusTime
import FoundationEssentials

/// `focus status --follow` as a pure plan: what it saw (`Observed`) → what to do next (keep
/// the reading, read again, open the database afresh, show the empty reading, redraw, warn,
/// exit, wait until). The follower only observes (stat, SQLite's data version, the clock) and
/// performs; tests drive the plan with values, as they do `StopWatch`.
///
/// Generic over the database's fingerprint (size and time of its files, any value that every
/// commit changes) so that the plan holds no I/O type.
package struct StatusFollowPlan<Fingerprint: Equatable & Sendable>: Sendable, Equatable {
    /// How long a database may stay unreadable, or unfinished while another process makes it,
    /// before it is opened anyway and what is wrong with it said.
    package static var patienceSeconds: Double { 3 }

    /// What of the reading shown ages with time.
    package struct Reading: Sendable, Equatable {
        package var day: LocalDate
        /// The start of the next day, when a new reading is due.
        package var midnight: Date
        /// The end of the next block the reading shows.
        package var nextBlockEnd: Date?
        /// The next instant its text changes by itself (a running clock's next second).
        package var nextTick: Date?
        /// Whether the text shows a minute label ("in 25m"), which turns every minute.
        package var minuteLabel: Bool

        package init(day: LocalDate, midnight: Date, nextBlockEnd: Date? = nil, nextTick: Date? = nil, minuteLabel: Bool = false) {
            self.day = day
            self.midnight = midnight
            self.nextBlockEnd = nextBlockEnd
            self.nextTick = nextTick
            self.minuteLabel = minuteLabel
        }
    }

    /// What the follower sees at one look.
    package struct Observed: Sendable, Equatable {
        package var now: Date
        package var today: LocalDate
        /// The database file's inode; nil when there is no file.
        package var inode: Int64?
        /// Whether the file holds a finished database (another process may be making it).
        package var initialized: Bool
        package var fingerprint: Fingerprint?
        /// SQLite's data version on the connection open now; nil when none is open.
        package var dataVersion: Int?
        /// What ages of the reading shown now; nil before the first.
        package var reading: Reading?

        package init(now: Date, today: LocalDate, inode: Int64?, initialized: Bool = true, fingerprint: Fingerprint?,
                     dataVersion: Int?, reading: Reading?) {
            self.now = now
            self.today = today
            self.inode = inode
            self.initialized = initialized
            self.fingerprint = fingerprint
            self.dataVersion = dataVersion
            self.reading = reading
        }
    }

    /// What to do with the database at this look.
    package enum Step: Sendable, Equatable {
        /// The reading still holds: redraw from it.
        case keep
        /// Read again on the connection open.
        case read
        /// Close the connection, open the file afresh (made or replaced since, e.g. by
        /// `focus restore`), then read.
        case reopen
        /// No database: close any connection and show the empty reading (nothing is created;
        /// the database appears with the first write).
        case empty
        /// Another process is making the database: leave it alone for a moment, keep what is
        /// shown (or the empty reading).
        case waitForCreator
    }

    /// What to do when a read failed.
    package enum Failure: Sendable, Equatable {
        /// The first look: fail as `focus status` does.
        case exit
        /// Try again soon, saying nothing (yet).
        case retry
        /// Say this once, and try again.
        case warn(String)
    }

    private var openInode: Int64?
    private var seenFingerprint: Fingerprint?
    private var seenVersion: Int?
    private var failingSince: Date?
    private var warned: String?
    private var settling = false
    private var looks = 0
    private var shown: DisplayText?

    package init() {}

    /// The step for this look.
    package mutating func look(_ o: Observed) -> Step {
        looks += 1
        guard isStale(o) else { return .keep }
        guard let inode = o.inode else { return .empty }
        if openInode == nil, !o.initialized, o.now.timeIntervalSince(failingSince ?? o.now) < Self.patienceSeconds {
            failingSince = failingSince ?? o.now
            seenFingerprint = nil
            return .waitForCreator
        }
        return openInode == inode ? .read : .reopen
    }

    /// The reading is out of date: none yet, the files or SQLite's counter changed (two commits
    /// within one tick of the file system's clock can leave the same size and time; the counter
    /// cannot miss one), the day ended, or the block it shows is over.
    private func isStale(_ o: Observed) -> Bool {
        guard let reading = o.reading else { return true }
        if o.fingerprint != seenFingerprint || reading.day != o.today { return true }
        if let version = o.dataVersion, version != seenVersion { return true }
        if let end = reading.nextBlockEnd, end <= o.now { return true }
        return false
    }

    /// The read (or the empty reading, `inode` nil) succeeded: what was read is what was seen.
    package mutating func read(_ o: Observed, dataVersion: Int?) {
        openInode = o.inode == nil ? nil : o.inode
        seenFingerprint = o.fingerprint
        seenVersion = dataVersion
        failingSince = nil
        warned = nil
    }

    /// The read failed with this description; the connection is to be dropped.
    package mutating func failed(_ description: String, at now: Date) -> Failure {
        if looks <= 1 { return .exit }
        openInode = nil
        seenFingerprint = nil
        let since = failingSince ?? now
        failingSince = since
        guard now.timeIntervalSince(since) >= Self.patienceSeconds, warned != description else { return .retry }
        warned = description
        return .warn("warning: \(description) Trying again.")
    }

    /// Whether this text is to be printed (it differs from the last one printed).
    package mutating func redraw(_ text: DisplayText) -> Bool {
        guard text != shown else { return false }
        shown = text
        return true
    }

    /// When to look next (nil: only when woken), by the rule every live view shares.
    package func wake(after now: Date, reading: Reading?, watching: Bool) -> Date? {
        var changes: [Date?] = []
        if let reading {
            changes = [reading.midnight, reading.nextTick, reading.nextBlockEnd,
                       reading.minuteLabel ? WakeRule.nextMinute(after: now) : nil]
        }
        return WakeRule.next(after: now, changes: changes, watching: watching && reading != nil,
                             failing: failingSince != nil, settling: settling)
    }

    /// What woke the follower: a change in the directory asks for a second look shortly.
    package mutating func woke(changed: Bool) {
        settling = changed
    }
}
