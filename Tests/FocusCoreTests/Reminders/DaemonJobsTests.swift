import FocusCore
import Foundation
import Testing

/// The daemon's network work, decided without a network or a clock: which job runs, which
/// waits, when each comes round again.
@Suite struct DaemonJobsTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    func jobs(refresh: Int? = 900, sync: Bool = true, syncInterval: Int? = 600, publish: Bool = true) -> DaemonJobs {
        DaemonJobs(now: t0, canRefresh: refresh != nil, canSync: sync, canPublish: publish, refreshSeconds: refresh,
                   syncIntervalSeconds: syncInterval, syncDelaySeconds: 10)
    }

    @Test func aRefreshRunsFirstAndTheSyncDueWithItWaitsForItToEnd() {
        var j = jobs()
        #expect(j.next(at: t0) == .refresh)
        // The sync is due too, but one job runs at a time, and its time is no wake meanwhile.
        #expect(j.next(at: t0.addingTimeInterval(1)) == nil)
        #expect(j.wakes.isEmpty)
        j.finished(at: t0.addingTimeInterval(3))
        #expect(j.next(at: t0.addingTimeInterval(3)) == .sync)
    }

    @Test func theNextRefreshComesOneIntervalAfterTheLastBegan() {
        var j = jobs(sync: false, publish: false)
        #expect(j.next(at: t0) == .refresh)
        j.finished(at: t0.addingTimeInterval(5))
        #expect(j.next(at: t0.addingTimeInterval(899)) == nil)
        #expect(j.wakes == [t0.addingTimeInterval(900)])
        #expect(j.next(at: t0.addingTimeInterval(900)) == .refresh)
    }

    @Test func aChangedPlanIsPublishedOnceAndARefreshCountsAsPublishing() {
        var j = jobs(refresh: nil, sync: false)
        j.planRead([1, 100, 200])
        #expect(j.next(at: t0) == .publish)
        j.finished(at: t0)
        j.planRead([1, 100, 200])
        #expect(j.next(at: t0.addingTimeInterval(5)) == nil)
        j.planRead([1, 100, 260])
        #expect(j.next(at: t0.addingTimeInterval(10)) == .publish)

        var r = jobs(sync: false)
        r.planRead([7])
        #expect(r.next(at: t0) == .refresh)
        r.finished(at: t0)
        #expect(r.next(at: t0.addingTimeInterval(1)) == nil)
    }

    @Test func aLocalChangeIsSyncedAMomentLaterAndABurstGoesInOneSync() {
        var j = jobs(refresh: nil, syncInterval: nil, publish: false)
        #expect(!j.watchesLocalChanges)  // nothing synced yet: the first sync sends everything
        #expect(j.next(at: t0) == .sync)
        j.syncStarted(signature: [1])
        #expect(!j.watchesLocalChanges)  // the sync's own writes are no local change
        j.finished(at: t0.addingTimeInterval(2))
        #expect(j.wakes.isEmpty)  // no sync_interval: the next sync waits for a change
        j.dataChanged(to: [1], at: t0.addingTimeInterval(3))
        #expect(j.wakes.isEmpty)
        j.dataChanged(to: [2], at: t0.addingTimeInterval(4))
        j.dataChanged(to: [3], at: t0.addingTimeInterval(6))
        // Each change in the burst moves the sync to a moment after it.
        #expect(j.wakes == [t0.addingTimeInterval(16)])
        #expect(j.next(at: t0.addingTimeInterval(15)) == nil)
        #expect(j.next(at: t0.addingTimeInterval(16)) == .sync)
    }

    @Test func aChangeMadeWhileASyncRanIsSyncedAgain() {
        var j = jobs(refresh: nil, syncInterval: 600, publish: false)
        #expect(j.next(at: t0) == .sync)
        j.syncStarted(signature: [1])
        j.finished(at: t0.addingTimeInterval(2))
        #expect(j.wakes == [t0.addingTimeInterval(602)])
        // The data now reads [2] (changed during the sync): it differs from what the sync began with.
        j.dataChanged(to: [2], at: t0.addingTimeInterval(3))
        #expect(j.wakes == [t0.addingTimeInterval(13)])
    }

    @Test func aReloadedConfigShortensTheRefreshOrStopsIt() {
        var j = jobs(sync: false, publish: false)
        #expect(j.next(at: t0) == .refresh)
        j.finished(at: t0)
        j.reloaded(refreshSeconds: 60, syncIntervalSeconds: nil, at: t0.addingTimeInterval(10))
        #expect(j.wakes == [t0.addingTimeInterval(70)])
        j.reloaded(refreshSeconds: 3600, syncIntervalSeconds: nil, at: t0.addingTimeInterval(20))
        #expect(j.wakes == [t0.addingTimeInterval(70)])  // a longer interval never postpones a due refresh
        j.reloaded(refreshSeconds: nil, syncIntervalSeconds: nil, at: t0.addingTimeInterval(30))
        #expect(j.wakes.isEmpty)
        #expect(j.next(at: t0.addingTimeInterval(4000)) == nil)
    }

    @Test func aDaemonWithoutCalendarsOrSyncRunsNothing() {
        var j = jobs(refresh: nil, sync: false, publish: false)
        j.planRead([1])
        #expect(j.next(at: t0) == nil)
        #expect(j.wakes.isEmpty)
    }
}
