import FoundationEssentials

/// The daemon's network work as a pure value: which job is due, which waits, and when each
/// comes round again (README, "The daemon"). The daemon runs one job at a time beside its
/// reminder loop: a calendar refresh (which publishes too) when `calendar_refresh` comes round,
/// else a sync when one is due (at start, every `sync_interval`, and a moment after a local
/// change), else a publication when the plan changed. The loop tells it what it observed
/// (a plan read, data changed, a job finished, the config reloaded) and starts what `next`
/// returns.
package struct DaemonJobs: Sendable, Equatable {
    /// What the daemon runs beside its loop, one at a time.
    package enum Kind: Sendable, Equatable { case refresh, publish, sync }

    /// Which kinds this daemon can run at all (a daemon without calendars never refreshes).
    package var canRefresh: Bool
    package var canSync: Bool
    package var canPublish: Bool
    /// Seconds between refreshes (`calendar_refresh`); nil: never.
    package var refreshSeconds: Int?
    /// Seconds between syncs (`sync_interval`); nil: only at start and after local changes.
    package var syncIntervalSeconds: Int?
    /// How long after a local change the sync runs (changes made in a burst go in one sync).
    package var syncDelaySeconds: Double

    /// The job running now, if any.
    package private(set) var running: Kind?
    package private(set) var nextRefresh: Date?
    package private(set) var nextSync: Date?
    /// What the synced data was (its signature) when the last sync began; nil before the first.
    package private(set) var syncedSignature: [Int64]?
    private var syncStartSignature: [Int64]?
    /// The plan as last read, and as last published (or refreshed, which publishes).
    package private(set) var planSignature: [Int64]?
    private var publishedPlan: [Int64]?

    /// A refresh and a sync are both due at start.
    package init(now: Date, canRefresh: Bool, canSync: Bool, canPublish: Bool, refreshSeconds: Int?,
                 syncIntervalSeconds: Int?, syncDelaySeconds: Double) {
        self.canRefresh = canRefresh
        self.canSync = canSync
        self.canPublish = canPublish
        self.refreshSeconds = refreshSeconds
        self.syncIntervalSeconds = syncIntervalSeconds
        self.syncDelaySeconds = syncDelaySeconds
        nextSync = canSync ? now : nil
        nextRefresh = canRefresh && refreshSeconds != nil ? now : nil
    }

    /// Whether a change to the database could be a local change a sync should send: a sync has
    /// run, and none is running (its own writes are not a change to send).
    package var watchesLocalChanges: Bool { running != .sync && syncedSignature != nil }

    /// The synced data's signature after the database changed: a sync a moment later, with
    /// whatever follows it, when it differs from what was synced.
    package mutating func dataChanged(to signature: [Int64], at now: Date) {
        guard watchesLocalChanges, signature != syncedSignature else { return }
        nextSync = now.addingTimeInterval(syncDelaySeconds)
        syncedSignature = signature
    }

    /// The plan as read now: a publication is due when it differs from the one published.
    package mutating func planRead(_ signature: [Int64]) { planSignature = signature }

    /// The job that should start now (and what it changes), or nil: one runs at a time, a
    /// refresh before a sync before a publication.
    package mutating func next(at now: Date) -> Kind? {
        guard running == nil else { return nil }
        if canRefresh, let due = nextRefresh, due <= now, let interval = refreshSeconds {
            nextRefresh = now.addingTimeInterval(Double(interval))
            publishedPlan = planSignature
            running = .refresh
        } else if canSync, let due = nextSync, due <= now {
            nextSync = nil
            running = .sync
        } else if canPublish, let signature = planSignature, signature != publishedPlan {
            publishedPlan = signature
            running = .publish
        }
        return running
    }

    /// A sync started with the data's signature as it was then.
    package mutating func syncStarted(signature: [Int64]?) { syncStartSignature = signature }

    /// The running job finished. After a sync, what the data was when it began counts as
    /// synced: a change made while it ran (or its own writes) is seen as new, and costs at most
    /// one more quiet sync; the next comes `sync_interval` later.
    package mutating func finished(at now: Date) {
        if running == .sync {
            syncedSignature = syncStartSignature ?? []
            nextSync = syncIntervalSeconds.map { now.addingTimeInterval(Double($0)) }
        }
        running = nil
    }

    /// The config was read again: a shorter `calendar_refresh` takes effect now, a removed one
    /// stops refreshes, a new `sync_interval` counts from now.
    package mutating func reloaded(refreshSeconds: Int?, syncIntervalSeconds: Int?, at now: Date) {
        self.refreshSeconds = refreshSeconds
        self.syncIntervalSeconds = syncIntervalSeconds
        if canRefresh, let interval = refreshSeconds {
            let then = now.addingTimeInterval(Double(interval))
            nextRefresh = min(nextRefresh ?? then, then)
        } else {
            nextRefresh = nil
        }
        if canSync { nextSync = syncIntervalSeconds.map { now.addingTimeInterval(Double($0)) } ?? nextSync }
    }

    /// When the loop must wake for a job. A job due while another runs waits for it: its time
    /// is not a wake (it would be in the past, and the loop would spin until the job ends).
    package var wakes: [Date] { running == nil ? [nextRefresh, nextSync].compactMap { $0 } : [] }
}
