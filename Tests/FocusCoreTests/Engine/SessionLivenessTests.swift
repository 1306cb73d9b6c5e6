import FocusCore
import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

/// A store whose every record fails, as one whose task was deleted under it.
final class FailingStore: SessionStore {
    let checkpoints = Mutex<[SessionSnapshot]>([])
    func record(_ work: WorkRecord) throws(FocusError) -> Int64 {
        throw .usage("that change breaks a rule of the store: FOREIGN KEY constraint failed.")
    }
    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) { checkpoints.withLock { $0.append(snapshot) } }
    func finish() throws(FocusError) {}
}

/// A store that keeps every checkpoint whole (to see the paused state).
final class SnapshotStore: SessionStore {
    let checkpoints = Mutex<[SessionSnapshot]>([])
    let records = Mutex<[WorkRecord]>([])
    func record(_ work: WorkRecord) throws(FocusError) -> Int64 {
        records.withLock { $0.append(work) }
        return Int64(records.withLock { $0.count })
    }
    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) { checkpoints.withLock { $0.append(snapshot) } }
    func finish() throws(FocusError) {}
}

/// A runner whose `park` (the process stopped by Ctrl-Z) waits until the test continues it.
final class ParkingHarness: Sendable {
    let mailbox = Mailbox<SessionCommand>()
    let gate = Mailbox<Bool>()
    let parked = Mutex(false)
    let parkCount = Mutex(0)
    private let finished = Mutex(false)
    private let clockSlot = Mutex<TestClock?>(nil)
    var clock: TestClock { clockSlot.withLock { $0! } }

    init() {
        let made = TestClock(isIdle: { [unowned self] in
            self.finished.withLock { $0 } || self.parked.withLock { $0 } || (self.mailbox.isWaiting && self.clock.sleeperCount > 0)
        })
        clockSlot.withLock { $0 = made }
    }

    func park() async {
        parkCount.withLock { $0 += 1 }
        parked.withLock { $0 = true }
        _ = await gate.next()
        parked.withLock { $0 = false }
    }

    func run(_ runner: SessionRunner<TestClock>, plan: SessionPlan) -> Task<SessionRunner<TestClock>.Outcome, Never> {
        Task {
            let outcome = await runner.run(plan: plan)
            self.finished.withLock { $0 = true }
            return outcome
        }
    }
}

@Suite struct SessionLivenessTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func runner(_ h: ParkingHarness, store: any SessionStore, hooks: RecordingHookRunner? = nil) -> SessionRunner<TestClock> {
        let origin = start
        var r = SessionRunner(clock: h.clock, now: { origin }, store: store, view: MemoryView(), notifier: RecordingNotifier(),
                              notices: SessionNotices(path: "Thesis", todayBefore: 0), mailbox: h.mailbox, tick: nil)
        r.park = { await h.park() }
        if let hooks { r.hooks = SessionHooks(runner: hooks, task: "Thesis", subtask: nil, blockID: nil) }
        return r
    }

    // MARK: Ctrl-Z

    @Test func ctrlZPausesAndSavesBeforeTheProcessStopsAndTheStoppedTimeIsNotFocus() async {
        let h = ParkingHarness()
        let store = SnapshotStore()
        let outcome = h.run(runner(h, store: store), plan: .single(workSeconds: 60))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(10))
        h.mailbox.post(.suspend)
        await h.clock.settle()
        #expect(h.parked.withLock { $0 })
        // Saved as paused before stopping: `focus status` says paused, recovery keeps 10 s.
        let saved = store.checkpoints.withLock { $0.last }
        #expect(saved?.isPaused == true)
        #expect(saved?.focusedSeconds == 10)
        // Stopped for 100 s, then continued (fg).
        await h.clock.advance(by: .seconds(100))
        h.gate.post(true)
        await h.clock.settle()
        #expect(store.checkpoints.withLock { $0.last?.isPaused } == false)
        await h.clock.advance(by: .seconds(50))
        let result = await outcome.value
        let record = result.recorded.values.first
        #expect(record?.status == .completed)
        #expect(record?.focusedSeconds == 60)
        #expect(record.map { $0.endedAt.timeIntervalSince($0.startedAt) } == 160)
        #expect(h.parkCount.withLock { $0 } == 1)
    }

    @Test func ctrlZOnAPausedSessionLeavesItPausedWhenContinued() async {
        let h = ParkingHarness()
        let store = SnapshotStore()
        let outcome = h.run(runner(h, store: store), plan: .single(workSeconds: 60))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(5))
        h.mailbox.post(.pause)
        await h.clock.settle()
        h.mailbox.post(.suspend)
        await h.clock.settle()
        await h.clock.advance(by: .seconds(30))
        h.gate.post(true)
        await h.clock.settle()
        #expect(store.checkpoints.withLock { $0.last?.isPaused } == true, "the person's own pause stays")
        h.mailbox.post(.stop(.person(reason: nil)))
        let result = await outcome.value
        #expect(result.recorded.values.first?.focusedSeconds == 5)
    }

    @Test func aStopAfterCtrlZIsTakenOnceTheProcessIsContinued() async {
        let h = ParkingHarness()
        let store = SnapshotStore()
        let outcome = h.run(runner(h, store: store), plan: .single(workSeconds: 60))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(20))
        h.mailbox.post(.suspend)
        await h.clock.settle()
        // `focus stop` from another terminal: its request, then SIGCONT.
        h.mailbox.post(.stop(.person(reason: "meeting")))
        await h.clock.advance(by: .seconds(40))
        h.gate.post(true)
        let result = await outcome.value
        #expect(result.cause == .person(reason: "meeting"))
        #expect(result.recorded.values.map(\.status) == [.interrupted])
        #expect(result.recorded.values.first?.focusedSeconds == 20)
    }

    // MARK: Failed records

    @Test func aSessionThatCannotBeRecordedIsNeverReportedRecordedAndRunsNoHook() async {
        let h = ParkingHarness()
        let hooks = RecordingHookRunner()
        let outcome = h.run(runner(h, store: FailingStore(), hooks: hooks), plan: .single(workSeconds: 30))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(30))
        let result = await outcome.value
        #expect(result.recorded.isEmpty)
        #expect(result.unrecorded.map(\.status) == [.completed])
        #expect(result.recordError != nil)
        #expect(!hooks.events.contains(.sessionCompleted))
    }

    // MARK: Who may be signalled

    static let row = ActiveSession(
        pid: 4242, taskID: 1, subtaskID: nil, blockID: nil,
        snapshot: SessionSnapshot(phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(1500), isPaused: false,
                                  phaseStartedAt: Date(timeIntervalSince1970: 0), endsAt: nil, focusedSeconds: 0,
                                  workStartedAt: Date(timeIntervalSince1970: 0), workPlannedSeconds: 1500),
        checkpointAt: Date(timeIntervalSince1970: 0))

    static func stopping(_ row: ActiveSession) -> ActiveSession {
        var r = row
        r.request = .stop
        r.reason = "first"
        return r
    }

    @Test(arguments: [
        // No row: nothing to do, whatever holds the lock.
        (ActiveSession.Request.stop, nil as ActiveSession?, SessionOwner.process(77), ControlDecision.noSession),
        // The stored pid is alive but nobody holds the lock: the session is gone, never signalled.
        (.stop, row, .nobody, .recover),
        (.pause, row, .nobody, .recover),
        // Only the kernel's holder is signalled, never the stored pid 4242.
        (.stop, row, .process(77), .send(pid: 77)),
        (.resume, row, .process(4242), .send(pid: 4242)),
        // A pending stop is kept: a second stopper, a pause or a resume change nothing.
        (.stop, stopping(row), .process(77), .alreadyStopping(pid: 77)),
        (.pause, stopping(row), .process(77), .alreadyStopping(pid: 77)),
        // A holder focus cannot name, or a lock it cannot read: no signal at all.
        (.stop, row, .process(0), .unreachable("the session lock is held by a process focus cannot name")),
        (.stop, row, .unknown("the lock cannot be read"), .unreachable("the lock cannot be read")),
    ])
    func controlGoesOnlyToTheProvenHolder(request: ActiveSession.Request, row: ActiveSession?, owner: SessionOwner, expected: ControlDecision) {
        #expect(ControlDecision.decide(request, row: row, owner: owner) == expected)
    }

    @Test func onlyAPositivePidTheKernelNamedIsProven() {
        #expect(SessionOwner.process(12).provenPID == 12)
        #expect(SessionOwner.process(0).provenPID == nil)
        #expect(SessionOwner.nobody.provenPID == nil)
        #expect(SessionOwner.unknown("x").provenPID == nil)
        #expect(SessionOwner.unknown("x").isRunning)
        #expect(!SessionOwner.nobody.isRunning)
    }

    @Test func aSessionRecordsItsTaskAndItsSubtaskOnly() {
        var s = Self.row
        s.subtaskID = 9
        #expect(s.records(.task(id: 1)))
        #expect(s.records(.subtask(taskID: 1, id: 9)))
        #expect(!s.records(.subtask(taskID: 1, id: 8)))
        #expect(!s.records(.task(id: 2)))
    }
}
