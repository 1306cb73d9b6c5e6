import FocusCore
import Foundation
import Testing

/// `focus stop`'s wait for the session it asked to stop, over the interleavings of that
/// session's last steps (record, delete its row, let go of its lock; or be killed) with stop's
/// looks at the row, the lock and a recovery.
@Suite struct StopWatchTests {
    /// The other process, as stop's looks find it.
    struct World {
        var row: StopWatch.Row = .asked
        var lockHeld = true
        var lockReadable = true
        /// The work a recovery records for a killed session (nil in a break).
        var inProgress: SessionEntry? = StopWatchTests.interrupted

        /// Stop's look at the lock, as the kernel answers it.
        var lock: SessionOwner { !lockReadable ? .unknown("no lock file") : lockHeld ? .process(4242) : .nobody }

        /// `recoverStaleSession`: the row again, then the lock, in one transaction.
        mutating func recover() -> StopWatch.Recovery {
            guard row != .gone, !lockHeld else { return .nothing }
            row = .gone
            return .recovered(inProgress)
        }
    }

    /// What the other process does before one of stop's looks.
    enum Change {
        /// Stopped as asked: recorded itself and deleted its row, then let go of its lock.
        case stopsAsAsked
        /// Killed (SIGKILL, a crash): its row stays, the kernel drops its lock.
        case isKilled
        /// Killed, and a new `focus start` recovered its row and runs now.
        case isKilledAndANewSessionStarts
        /// Stopped as asked, and a new `focus start` runs now.
        case stopsAndANewSessionStarts
        /// The lock file can no longer be examined.
        case lockBecomesUnreadable

        func apply(to world: inout World) {
            switch self {
            case .stopsAsAsked: (world.row, world.lockHeld) = (.gone, false)
            case .isKilled: world.lockHeld = false
            case .isKilledAndANewSessionStarts, .stopsAndANewSessionStarts: (world.row, world.lockHeld) = (.another, true)
            case .lockBecomesUnreadable: world.lockReadable = false
            }
        }
    }

    static let interrupted = SessionEntry(
        log: TimeLog(id: 7, taskID: 1, startedAt: Date(timeIntervalSince1970: 1_795_000_000),
                     endedAt: Date(timeIntervalSince1970: 1_795_000_600), plannedSeconds: 1500, focusedSeconds: 600,
                     status: .interrupted, note: "recovered: focus ended unexpectedly"),
        task: "Thesis", subtask: nil)

    /// Runs the watch as `StopCommand` does, applying `script[n]` before its n-th look (looks at
    /// the row, at the lock and recoveries, counted from 0 across rounds). Returns its verdict,
    /// the looks made and the rounds of waiting.
    static func drive(_ script: [Int: Change], world start: World = World()) -> (verdict: StopWatch.Step, looks: [String], waits: Int) {
        let watch = StopWatch()
        var (world, sight, waited, looks, waits) = (start, StopWatch.Sight(), Duration.zero, [String](), 0)
        while true {
            let step = watch.next(sight, waited: waited)
            if [.lookAtRow, .lookAtLock, .recover].contains(step) { script[looks.count]?.apply(to: &world) }
            switch step {
            case .lookAtRow: sight.row = world.row; looks.append("row \(world.row)")
            case .lookAtLock: sight.lock = world.lock; looks.append("lock \(world.lock)")
            case .recover: sight.recovery = world.recover(); looks.append("recover")
            case let .wait(pause): (sight, waited, waits) = (StopWatch.Sight(), waited + pause, waits + 1)
            case .stopped, .died, .gaveUp: return (step, looks, waits)
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var script: [Int: Change]
        var inProgress: SessionEntry? = StopWatchTests.interrupted
        var verdict: StopWatch.Step
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "it stopped before the first look", script: [0: .stopsAsAsked], verdict: .stopped),
        // What CI saw: the row was there, then the lock was free, and nothing was left to recover.
        Case(name: "it stopped between the look at the row and the look at the lock", script: [1: .stopsAsAsked],
             verdict: .stopped),
        Case(name: "it stopped between the look at the lock and the next round", script: [2: .stopsAsAsked], verdict: .stopped),
        Case(name: "it stopped a few rounds later", script: [8: .stopsAsAsked], verdict: .stopped),
        Case(name: "it was killed before the first look", script: [0: .isKilled], verdict: .died(interrupted)),
        Case(name: "it was killed between the two looks", script: [1: .isKilled], verdict: .died(interrupted)),
        Case(name: "it was killed a few rounds later", script: [6: .isKilled], verdict: .died(interrupted)),
        Case(name: "it was killed in a break (no work in progress)", script: [1: .isKilled], inProgress: nil,
             verdict: .died(nil)),
        Case(name: "it stopped and a new session started before the next round", script: [2: .stopsAndANewSessionStarts],
             verdict: .stopped),
        Case(name: "it was killed and a new session recovered it before the next round",
             script: [2: .isKilledAndANewSessionStarts], verdict: .stopped),
        Case(name: "it never stopped", script: [:], verdict: .gaveUp),
        Case(name: "its lock cannot be examined and it never stopped", script: [1: .lockBecomesUnreadable], verdict: .gaveUp),
        Case(name: "its lock cannot be examined but it stopped", script: [1: .lockBecomesUnreadable, 4: .stopsAsAsked],
             verdict: .stopped),
    ]

    @Test(arguments: cases) func eachInterleavingEndsInTheRightVerdict(_ c: Case) {
        let run = Self.drive(c.script, world: World(inProgress: c.inProgress))
        #expect(run.verdict == c.verdict, "looks: \(run.looks)")
    }

    @Test func aStopThatFinishesBetweenTheTwoLooksIsReportedAsStoppedNotAsAProcessThatDied() {
        // The session records itself and lets go of its lock after stop saw its row and before
        // stop looked at the lock: the lock is free, and the recovery finds nothing.
        let run = Self.drive([1: .stopsAsAsked])
        #expect(run.looks == ["row asked", "lock nobody", "recover"])
        #expect(run.verdict == .stopped)
    }

    @Test func aRowIsRecoveredOnlyWhenTheLockIsFreeAndAnotherSessionsRowIsLeftAlone() {
        #expect(Self.drive([8: .stopsAsAsked]).looks.filter { $0 == "recover" }.isEmpty, "the lock was held each time")
        #expect(Self.drive([0: .stopsAndANewSessionStarts]).looks == ["row another"])
        #expect(Self.drive([0: .stopsAsAsked]).looks == ["row gone"])
    }

    @Test func itGivesUpOnlyAfterWaitingItsDeadlineInRoundsOfLooks() {
        let run = Self.drive([:])
        let rounds = Int(StopWatch.deadline / StopWatch.interval)
        #expect(run.waits == rounds)
        #expect(run.looks.count == 2 * (rounds + 1), "a look at the row and the lock each round, one more after the last wait")
        // One round before the deadline it still waits.
        let sight = StopWatch.Sight(row: .asked, lock: .process(4242))
        #expect(StopWatch().next(sight, waited: StopWatch.deadline - StopWatch.interval) == .wait(StopWatch.interval))
        #expect(StopWatch().next(sight, waited: StopWatch.deadline) == .gaveUp)
    }
}
