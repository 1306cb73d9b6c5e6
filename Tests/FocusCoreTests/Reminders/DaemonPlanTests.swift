import FocusCore
import FocusTime
import Foundation
import Testing

/// The daemon's loop decided as values (README, "The daemon"), without a database, a clock or
/// a file: when it reads the plan, when a clock jumped, when the database file was renamed
/// over, when ended blocks are settled, and how long it sleeps.
@Suite struct DaemonPlanTests {
    let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    let day = LocalDate(year: 2026, month: 9, day: 21)
    let file = FileIdentity(device: 2049, inode: 100)

    func plan() -> DaemonPlan<Int> {
        DaemonPlan<Int>(wall: t0, monotonic: 0, identity: file, summarySentFor: nil,
                        jobs: DaemonJobs(now: t0, canRefresh: false, canSync: false, canPublish: false, refreshSeconds: nil,
                                         syncIntervalSeconds: nil, syncDelaySeconds: 10))
    }

    func seen(_ seconds: Double, wall: Double? = nil, fingerprint: Int? = 1, identity: FileIdentity?) -> DaemonPlan<Int>.Observation {
        .init(wall: t0.addingTimeInterval(wall ?? seconds), monotonic: seconds, fingerprint: fingerprint, identity: identity)
    }

    /// Read once at start; then only when the database changes, a due instant comes or a clock jumps.
    @Test func theFirstWakeReadsAndAQuietOneDoesNot() {
        var p = plan()
        let step1 = p.observe(seen(0, identity: file))
        #expect(step1 == .init(read: true, dataChanged: true))
        let settles1 = p.planRead(nextWake: t0.addingTimeInterval(60), endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 1)
        #expect(!settles1)
        let step2 = p.observe(seen(5, identity: file))
        #expect(step2 == .init())
        let step3 = p.observe(seen(10, fingerprint: 2, identity: file))
        #expect(step3 == .init(read: true, dataChanged: true))
        _ = p.planRead(nextWake: t0.addingTimeInterval(60), endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 2)
        let step4 = p.observe(seen(60, fingerprint: 2, identity: file))
        #expect(step4.read, "the due instant came")
    }

    /// Issue #39: a database another file was renamed over is opened afresh, and read, with
    /// the new file's own blocks: nothing settled in the old one counts there.
    @Test func aDatabaseRenamedOverIsReopenedAndReadAfresh() {
        var p = plan()
        _ = p.observe(seen(0, identity: file))
        let settles2 = p.planRead(nextWake: nil, endedBlockIDs: [7], newPeriod: false, today: day, fingerprint: 1)
        #expect(settles2)
        _ = p.planRead(nextWake: nil, endedBlockIDs: [7], newPeriod: false, today: day, fingerprint: 1)
        let other = FileIdentity(device: 2049, inode: 200)
        let step = p.observe(seen(5, identity: other))
        #expect(step.reopen && step.read)
        p.opened(other, summarySentFor: day)
        #expect(p.openedIdentity == other && p.summarySentFor == day)
        let step5 = p.observe(seen(6, identity: other))
        #expect(step5 == .init(read: true, dataChanged: true), "read again, the new file's fingerprint unknown")
        let settles3 = p.planRead(nextWake: nil, endedBlockIDs: [7], newPeriod: false, today: day, fingerprint: 1)
        #expect(settles3,
                "block 7 of the new file is another block: settled too")
        // A file that is not there (moved away for a moment) keeps the open one; a failed
        // reopen (nothing reported) is tried again at the next wake.
        let step6 = p.observe(seen(7, identity: nil))
        #expect(!step6.reopen)
        let step7 = p.observe(seen(8, identity: file))
        #expect(step7.reopen)
        let step8 = p.observe(seen(9, identity: file))
        #expect(step8.reopen)
    }

    @Test func aWallClockThatJumpsAgainstTheMonotonicOneMakesItLookAgain() {
        var p = plan()
        _ = p.observe(seen(0, identity: file))
        _ = p.planRead(nextWake: nil, endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 1)
        let step9 = p.observe(seen(5, wall: 6.5, identity: file))
        #expect(step9 == .init(), "1.5 s of drift is no jump")
        let step10 = p.observe(seen(10, wall: 3611.5, identity: file))
        #expect(step10 == .init(read: true, clockMovedSeconds: 3600))
        let step11 = p.observe(seen(15, wall: .infinity, identity: file))
        #expect(step11.clockMovedSeconds == nil, "no arithmetic traps")
    }

    @Test func endedBlocksAreSettledOnceAndANewPeriodOnceADay() {
        var p = plan()
        _ = p.observe(seen(0, identity: file))
        let settles4 = p.planRead(nextWake: nil, endedBlockIDs: [1, 2], newPeriod: false, today: day, fingerprint: 1)
        #expect(settles4)
        #expect(p.mustRead, "read again at once after settling")
        let settles5 = p.planRead(nextWake: nil, endedBlockIDs: [1, 2], newPeriod: false, today: day, fingerprint: 1)
        #expect(!settles5)
        #expect(p.checksNewPeriod(today: day))
        let settles6 = p.planRead(nextWake: nil, endedBlockIDs: [1, 2], newPeriod: true, today: day, fingerprint: 1)
        #expect(settles6)
        #expect(!p.checksNewPeriod(today: day))
        #expect(p.checksNewPeriod(today: day.adding(days: 1)))
    }

    @Test func aFailedReadOrASyncOrAReloadMakesItReadAgain() {
        var p = plan()
        _ = p.observe(seen(0, identity: file))
        p.readFailed()
        let step12 = p.observe(seen(5, identity: file))
        #expect(step12.read)
        _ = p.planRead(nextWake: nil, endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 1)
        p.syncFinished()
        let step13 = p.observe(seen(10, identity: file))
        #expect(step13.read, "what the sync stored is a change")
        _ = p.planRead(nextWake: nil, endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 1)
        p.reloaded()
        let step14 = p.observe(seen(15, identity: file))
        #expect(step14.read)
    }

    @Test func itSleepsUntilTheNextDueInstantAtMostTheCheckInterval() {
        var p = plan()
        _ = p.observe(seen(0, identity: file))
        _ = p.planRead(nextWake: t0.addingTimeInterval(2.0001), endedBlockIDs: [], newPeriod: false, today: day, fingerprint: 1)
        #expect(p.delay(check: .seconds(5), others: [], now: t0) == .milliseconds(2001))
        #expect(p.delay(check: .seconds(5), others: [t0.addingTimeInterval(1)], now: t0) == .seconds(1))
        #expect(p.delay(check: .seconds(5), others: [], now: t0.addingTimeInterval(10)) == .zero, "past due: at once")
        #expect(p.delay(check: .seconds(5), others: [], now: Date(timeIntervalSince1970: -1e300)) == .seconds(5), "no arithmetic traps")
    }
}
