import FoundationEssentials

/// Which file a path names: its device and inode (stat(2)). A database another file was renamed
/// over (`mv other.sqlite focus.sqlite`, a restore from elsewhere) has another identity, while a
/// process that opened the old one keeps reading the old, unlinked file.
package struct FileIdentity: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// The reminder daemon's loop as a pure value (README, "The daemon"), as `StopWatch` is the
/// countdown's: what it remembers from one wake to the next, and what to do at each. The loop
/// observes (the wall and monotonic clocks, the database files' fingerprint and the identity
/// of the file at the database's path), asks `observe`, performs the step (reopen, read the
/// plan), reports what came of it (`opened`, `planRead`, `readFailed`, …), and sleeps `delay`.
/// `Fingerprint` is whatever cheap summary of the database files the loop measures: any
/// commit by any process changes it.
package struct DaemonPlan<Fingerprint: Equatable & Sendable>: Sendable {
    /// What the loop saw on waking.
    package struct Observation: Sendable {
        package var wall: Date
        /// Seconds on a monotonic clock (from any origin, the same at every wake).
        package var monotonic: Double
        /// nil: unknown (the files could not be read), which counts as a change.
        package var fingerprint: Fingerprint?
        /// The file at the database's path now; nil when none is there (then the open one is kept).
        package var identity: FileIdentity?

        package init(wall: Date, monotonic: Double, fingerprint: Fingerprint?, identity: FileIdentity?) {
            self.wall = wall
            self.monotonic = monotonic
            self.fingerprint = fingerprint
            self.identity = identity
        }
    }

    /// What to do at this wake, in this order.
    package struct Step: Sendable, Equatable {
        /// The database at the path is another file than the one open: open it afresh.
        package var reopen = false
        /// Read the plan (and post what is due).
        package var read = false
        /// The wall clock moved this many seconds against the monotonic one (suspend, a clock
        /// change): worth a line in the log.
        package var clockMovedSeconds: Int?
        /// The database files changed: a local change a sync may have to send.
        package var dataChanged = false

        package init(reopen: Bool = false, read: Bool = false, clockMovedSeconds: Int? = nil, dataChanged: Bool = false) {
            self.reopen = reopen
            self.read = read
            self.clockMovedSeconds = clockMovedSeconds
            self.dataChanged = dataChanged
        }
    }

    /// A wall clock that moved this much more (or less) than the monotonic one was changed or suspended.
    package var jumpThresholdSeconds: Double = 2
    /// The network jobs beside the loop (refresh, sync, publish).
    package var jobs: DaemonJobs
    /// The day whose end-of-day summary was sent last.
    package var summarySentFor: LocalDate?
    package private(set) var mustRead = true
    package private(set) var nextWake: Date?
    /// Ended blocks already settled (re-planned as done, partial or missed) by this daemon.
    package private(set) var settled = Set<Int64>()
    /// The local day the daemon last re-planned for a new period of recurring work: once a day
    /// at most, so an instance that cannot be made never keeps it re-planning.
    package private(set) var periodsPlannedFor: LocalDate?
    /// The file the open database is.
    package private(set) var openedIdentity: FileIdentity?
    private var lastFingerprint: Fingerprint?
    private var lastWall: Date
    private var lastMonotonic: Double

    package init(wall: Date, monotonic: Double, identity: FileIdentity?, summarySentFor: LocalDate?, jobs: DaemonJobs) {
        lastWall = wall
        lastMonotonic = monotonic
        openedIdentity = identity
        self.summarySentFor = summarySentFor
        self.jobs = jobs
    }

    /// What to do at a wake: reopen a database renamed over, read the plan when a clock jumped,
    /// the database changed or a due instant came.
    package mutating func observe(_ seen: Observation) -> Step {
        var step = Step()
        let drift = seen.wall.timeIntervalSince(lastWall) - (seen.monotonic - lastMonotonic)
        if abs(drift) > jumpThresholdSeconds, drift.isFinite {
            step.clockMovedSeconds = Int(drift.rounded())
            mustRead = true
        }
        lastWall = seen.wall
        lastMonotonic = seen.monotonic
        if let identity = seen.identity, identity != openedIdentity {
            step.reopen = true
            mustRead = true
        }
        if seen.fingerprint == nil || seen.fingerprint != lastFingerprint {
            step.dataChanged = true
            mustRead = true
        }
        if let wake = nextWake, wake <= seen.wall { mustRead = true }
        step.read = mustRead
        return step
    }

    /// The database at the path was opened afresh: another file, with blocks, reminders and
    /// summaries of its own (its `summarySentFor` as it records it).
    package mutating func opened(_ identity: FileIdentity?, summarySentFor: LocalDate?) {
        openedIdentity = identity
        self.summarySentFor = summarySentFor
        settled = []
        periodsPlannedFor = nil
        nextWake = nil
        lastFingerprint = nil
        mustRead = true
    }

    /// Whether this read should also ask if a new period of recurring work is due today.
    package func checksNewPeriod(today: LocalDate) -> Bool { periodsPlannedFor != today }

    /// The plan was read: its next due instant, the blocks that ended, whether a new period of
    /// recurring work is due, and the fingerprint after the read. True: settle now (re-plan),
    /// then read again at once; each ended block is settled once.
    package mutating func planRead(nextWake: Date?, endedBlockIDs: [Int64], newPeriod: Bool, today: LocalDate,
                                   fingerprint: Fingerprint?) -> Bool {
        self.nextWake = nextWake
        mustRead = false
        if newPeriod { periodsPlannedFor = today }
        let ended = Set(endedBlockIDs)
        if !ended.isSubset(of: settled) || newPeriod {
            settled.formUnion(ended)
            mustRead = true
            lastFingerprint = nil
            return true
        }
        lastFingerprint = fingerprint
        return false
    }

    /// A locked or unreadable database: read again at the next wake, never fatal.
    package mutating func readFailed() { mustRead = true }

    /// The config was read again (SIGHUP): so is the plan.
    package mutating func reloaded() { mustRead = true }

    /// A sync finished: what it stored is read as a change.
    package mutating func syncFinished() { lastFingerprint = nil }

    /// How long to sleep: until the next due instant (the plan's, `others`), at most `check`.
    package func delay(check: Duration, others: [Date], now: Date) -> Duration {
        guard let due = ([nextWake].compactMap { $0 } + others).min() else { return check }
        let untilDue = max(0, due.timeIntervalSince(now))
        guard untilDue * 1000 < Double(Int64.max) else { return check }
        return min(check, .milliseconds(Int64((untilDue * 1000).rounded(.up))))
    }
}
