import FocusCore
import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

/// A store that keeps everything in memory and logs the order of calls.
final class MemoryStore: SessionStore {
    let calls = Mutex<[String]>([])
    let records = Mutex<[WorkRecord]>([])
    func record(_ work: WorkRecord) throws(FocusError) -> Int64 {
        records.withLock { $0.append(work) }
        calls.withLock { $0.append("record \(work.status.rawValue) \(work.focusedSeconds)") }
        return Int64(records.withLock { $0.count })
    }
    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError) {
        calls.withLock { $0.append("checkpoint \(snapshot.phase.rawValue) \(snapshot.focusedSeconds)") }
    }
    func finish() throws(FocusError) { calls.withLock { $0.append("finish") } }
}

final class MemoryView: SessionView {
    let updates = Mutex<[String]>([])
    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {
        if !events.isEmpty { updates.withLock { $0.append(events.map { "\($0)" }.joined(separator: ",")) } }
    }
    func warn(_ message: String) { updates.withLock { $0.append("warn \(message)") } }
}

final class SleepMeter: Sendable {
    let slept = Mutex<Duration>(.zero)
}

/// A runner under test: its clock knows when the runner is idle (asleep and listening, or done).
final class RunnerHarness: Sendable {
    let mailbox = Mailbox<SessionCommand>()
    private let finished = Mutex(false)
    private let clockSlot = Mutex<TestClock?>(nil)

    var clock: TestClock { clockSlot.withLock { $0! } }

    init() {
        let made = TestClock(isIdle: { [unowned self] in self.isIdle })
        clockSlot.withLock { $0 = made }
    }

    private var isIdle: Bool {
        finished.withLock { $0 } || (mailbox.isWaiting && clock.sleeperCount > 0)
    }

    func run(_ runner: SessionRunner<TestClock>, plan: SessionPlan) -> Task<SessionRunner<TestClock>.Outcome, Never> {
        Task {
            let outcome = await runner.run(plan: plan)
            self.finished.withLock { $0 = true }
            return outcome
        }
    }
}

@Suite struct SessionRunnerTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func makeRunner(_ clock: TestClock, _ store: MemoryStore, _ mailbox: Mailbox<SessionCommand>, notifier: RecordingNotifier = RecordingNotifier(),
                    meter: SleepMeter = SleepMeter()) -> SessionRunner<TestClock> {
        let origin = start
        var r = SessionRunner(clock: clock, now: { origin }, store: store, view: MemoryView(), notifier: notifier,
                              notices: SessionNotices(path: "Thesis", todayBefore: 0), mailbox: mailbox, tick: nil)
        r.sleptSoFar = { meter.slept.withLock { $0 } }
        return r
    }

    @Test func aFullSessionIsRecordedAsCompletedBeforeTheRunEnds() async {
        let h = RunnerHarness()
        let store = MemoryStore()
        let notifier = RecordingNotifier()
        let task = h.run(makeRunner(h.clock, store, h.mailbox, notifier: notifier), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(1500))
        let result = await task.value
        #expect(result.recorded.values.map(\.status) == [.completed])
        #expect(store.calls.withLock { $0 }.suffix(2) == ["record completed 1500", "finish"])
        #expect(notifier.notices.map(\.kind) == [.workCompleted])
    }

    @Test func progressIsCheckpointedAtLeastEvery5Seconds() async {
        let h = RunnerHarness()
        let (clock, mailbox) = (h.clock, h.mailbox)
        let store = MemoryStore()
        let outcome = h.run(makeRunner(clock, store, mailbox), plan: .single(workSeconds: 60))
        await clock.settle()
        await clock.advance(by: .seconds(45))
        mailbox.post(.stop(.person(reason: nil)))
        await clock.settle()
        let result = await outcome.value
        let checkpoints = store.calls.withLock { $0 }.filter { $0.hasPrefix("checkpoint") }
        #expect(checkpoints == ["checkpoint work 0"] + stride(from: 5, through: 45, by: 5).map { "checkpoint work \($0)" })
        #expect(result.recorded.values.first?.focusedSeconds == 45)
        #expect(result.cause == .person(reason: nil))
    }

    @Test func aStopCommandWakesTheRunnerAtOnce() async {
        let h = RunnerHarness()
        let (clock, mailbox) = (h.clock, h.mailbox)
        let store = MemoryStore()
        let outcome = h.run(makeRunner(clock, store, mailbox), plan: .single(workSeconds: 1500))
        await clock.settle()
        await clock.advance(by: .seconds(7))
        mailbox.post(.stop(.signal))
        await clock.settle()
        let result = await outcome.value
        #expect(result.recorded.values.map(\.status) == [.interrupted])
        #expect(result.recorded.values.first?.focusedSeconds == 7)
        #expect(result.cause == .signal)
    }

    @Test func pauseAndResumeFromCommandsExcludeThePause() async {
        let h = RunnerHarness()
        let (clock, mailbox) = (h.clock, h.mailbox)
        let store = MemoryStore()
        let outcome = h.run(makeRunner(clock, store, mailbox), plan: .single(workSeconds: 60))
        await clock.settle()
        await clock.advance(by: .seconds(10))
        mailbox.post(.togglePause)
        await clock.advance(by: .seconds(100))
        mailbox.post(.togglePause)
        await clock.advance(by: .seconds(50))
        let result = await outcome.value
        let record = result.recorded.values.first
        #expect(record?.status == .completed)
        #expect(record?.focusedSeconds == 60)
        #expect(record.map { $0.endedAt.timeIntervalSince($0.startedAt) } == 160, "\(store.calls.withLock { $0 })")
    }

    @Test func aSuspendEndsTheSessionAsInterruptedAtTheMomentOfSuspend() async {
        let h = RunnerHarness()
        let (clock, mailbox) = (h.clock, h.mailbox)
        let store = MemoryStore()
        let meter = SleepMeter()
        let outcome = h.run(makeRunner(clock, store, mailbox, meter: meter), plan: .single(workSeconds: 1500))
        await clock.settle()
        await clock.advance(by: .seconds(20))
        // The machine sleeps for 8 hours: the awake clock stands still, the continuous one does not.
        meter.slept.withLock { $0 = .seconds(8 * 3600) }
        await clock.advance(by: .seconds(10))
        let result = await outcome.value
        #expect(result.recorded.values.first?.status == .interrupted)
        // Noticed at the first wake-up after the suspend (the next checkpoint, at 25 s of awake time).
        #expect(result.recorded.values.first?.focusedSeconds == 25)
        #expect(result.cause == .suspend(slept: .seconds(8 * 3600)))
    }
}

/// One log of what the view showed and what the notifier was given, in the order it happened.
final class OrderLog: Sendable {
    let entries = Mutex<[String]>([])
    /// Signalled when a notice arrives: the view waits on it (a little) to give a notice posted
    /// too early every chance to come first.
    let noticeArrived = DispatchSemaphore(value: 0)
}

final class OrderView: SessionView {
    let log: OrderLog
    init(_ log: OrderLog) { self.log = log }
    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {
        guard !recorded.isEmpty else { return }
        _ = log.noticeArrived.wait(timeout: .now() + .milliseconds(300))
        log.entries.withLock { $0.append("view: recorded #\(recorded.keys.sorted().map(String.init).joined())") }
    }
    func warn(_ message: String) {}
}

final class OrderNotifier: Notifier {
    let log: OrderLog
    init(_ log: OrderLog) { self.log = log }
    func post(_ notice: Notice) async {
        log.entries.withLock { $0.append("notice: \(notice.kind)") }
        log.noticeArrived.signal()
    }
}

@Suite struct SessionMessageOrderTests {
    @Test func theRecordLineIsShownBeforeTheSessionsNoticeIsPosted() async {
        let h = RunnerHarness()
        let log = OrderLog()
        let origin = Date(timeIntervalSince1970: 1_795_000_000)
        let runner = SessionRunner(clock: h.clock, now: { origin }, store: MemoryStore(), view: OrderView(log), notifier: OrderNotifier(log),
                                   notices: SessionNotices(path: "Thesis", todayBefore: 0), mailbox: h.mailbox, tick: nil)
        let task = h.run(runner, plan: SessionPlan(workSeconds: 60, shortBreakSeconds: 30, longBreakSeconds: 60, cycles: 4, count: 2))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(60))
        await h.clock.advance(by: .seconds(30))
        await h.clock.advance(by: .seconds(60))
        _ = await task.value
        let entries = log.entries.withLock { $0 }
        let shown = entries.indices.filter { entries[$0].hasPrefix("view: recorded") }
        let completed = entries.indices.filter { entries[$0] == "notice: workCompleted" }
        #expect(shown.count == 2 && completed.count == 2, "\(entries)")
        for (view, notice) in zip(shown, completed) { #expect(view < notice, "\(entries)") }
    }
}
