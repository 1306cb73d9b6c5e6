import FocusCore
import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

/// A store that only counts: the test's own bookkeeping must not grow with the run.
final class CountingStore: SessionStore {
    let records = Mutex(0)
    let completed = Mutex(0)
    func record(_ work: WorkRecord) throws(FocusError) -> Int64 {
        if work.status == .completed { completed.withLock { $0 += 1 } }
        return records.withLock { $0 += 1; return Int64($0) }
    }
    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) {}
    func finish() throws(FocusError) {}
}

/// Counts notices; nothing kept.
final class CountingNotifier: Notifier {
    let count = Mutex(0)
    func post(_ notice: Notice) async { count.withLock { $0 += 1 } }
}

/// Watches what the runner holds while it runs, at every work session's end.
final class HoldingsView: SessionView {
    let poster: NoticePoster
    let sessions = Mutex(0)
    let mostHeldTasks = Mutex(0)

    init(poster: NoticePoster) { self.poster = poster }

    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {
        for event in events {
            guard case .workEnded = event else { continue }
            sessions.withLock { $0 += 1 }
            let held = poster.heldTasks
            mostHeldTasks.withLock { $0 = max($0, held) }
        }
    }

    func warn(_ message: String) {}
}

@Suite(.serialized) struct LongRunTests {
    /// 10,000 work/break cycles through the runner and the engine with a TestClock: every
    /// session recorded, every notice delivered, and nothing the runner holds grows with the
    /// run's length except the per-session results it returns (the engine is a fixed set of
    /// counters; notices were once kept as one task handle each until the run ended).
    @Test func tenThousandCyclesRecordEverySessionAndHoldNothingPerCycle() async {
        let cycles = 10_000
        let h = RunnerHarness()
        let store = CountingStore()
        let notifier = CountingNotifier()
        let poster = NoticePoster()
        let view = HoldingsView(poster: poster)
        var runner = SessionRunner(clock: h.clock, now: { Date(timeIntervalSince1970: 1_795_000_000) }, store: store, view: view,
                                   notifier: notifier, notices: SessionNotices(path: "Thesis", todayBefore: 0), mailbox: h.mailbox, tick: nil)
        runner.checkpointInterval = .seconds(3600)
        runner.poster = poster
        let plan = SessionPlan(workSeconds: 60, shortBreakSeconds: 20, longBreakSeconds: 40, cycles: 4, count: cycles)
        let outcome = h.run(runner, plan: plan)
        // One long stretch of time: the clock wakes the runner at every phase end in order.
        await h.clock.advance(by: .seconds(cycles * 100))
        let result = await outcome.value

        #expect(store.records.withLock { $0 } == cycles)
        #expect(store.completed.withLock { $0 } == cycles)
        #expect(result.recorded.count == cycles)
        #expect(result.engine.completedWorkSessions == cycles)
        // A notice at each work end and at each break end but the last (the run ends with work).
        #expect(notifier.count.withLock { $0 } >= cycles)
        #expect(view.sessions.withLock { $0 } == cycles)
        #expect(view.mostHeldTasks.withLock { $0 } <= 1, "notice tasks pile up during a run")
        #expect(poster.pending == 0)
        #expect(poster.heldTasks == 0)
    }
}
