import FocusCore
import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

/// A view that keeps what the countdown said about time away.
final class AwayMessagesView: SessionView {
    let messages = Mutex<[AwayMessage]>([])
    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {}
    func warn(_ message: String) {}
    func away(_ message: AwayMessage) { messages.withLock { $0.append(message) } }
}

/// The runner with observations from an away watcher in its mailbox, under config `idle`.
@Suite struct AwayRunnerTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func runner(_ h: RunnerHarness, _ store: MemoryStore, _ view: AwayMessagesView, idle: IdlePolicy) -> SessionRunner<TestClock> {
        let origin = start
        var r = SessionRunner(clock: h.clock, now: { origin }, store: store, view: view, notifier: RecordingNotifier(),
                              notices: SessionNotices(path: "Thesis", todayBefore: 0), mailbox: h.mailbox, tick: nil)
        r.idle = idle
        return r
    }

    @Test func discardedTimeAwayIsAPauseWithANote() async {
        let h = RunnerHarness()
        let (store, view) = (MemoryStore(), AwayMessagesView())
        let outcome = h.run(runner(h, store, view, idle: .discard), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(600))
        h.mailbox.post(.away(true))
        await h.clock.advance(by: .seconds(720))
        h.mailbox.post(.away(false))
        await h.clock.advance(by: .seconds(900))
        let result = await outcome.value
        let record = result.recorded.values.first
        #expect(record?.status == .completed && record?.focusedSeconds == 1500)
        #expect(record.map { $0.endedAt.timeIntervalSince($0.startedAt) } == 2220)
        #expect(record?.note == "away 12m")
        #expect(view.messages.withLock { $0 } == [.discarded(awaySeconds: 720)])
    }

    @Test func askingAndStoppingRecordsTheSessionUpToTheLock() async {
        let h = RunnerHarness()
        let (store, view) = (MemoryStore(), AwayMessagesView())
        let outcome = h.run(runner(h, store, view, idle: .ask), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(600))
        h.mailbox.post(.away(true))
        await h.clock.advance(by: .seconds(720))
        h.mailbox.post(.away(false))
        await h.clock.advance(by: .seconds(5))
        #expect(view.messages.withLock { $0 } == [.question(awaySeconds: 720, stopAt: start.addingTimeInterval(600))])
        h.mailbox.post(.skip)  // s, while the question is on screen: stop at the lock
        await h.clock.settle()
        let result = await outcome.value
        let record = result.recorded.values.first
        #expect(record?.status == .interrupted && record?.focusedSeconds == 600)
        #expect(record?.endedAt == start.addingTimeInterval(600))
        #expect(result.cause == .person(reason: "away 12m"))
    }

    @Test func keepIgnoresTheScreen() async {
        let h = RunnerHarness()
        let (store, view) = (MemoryStore(), AwayMessagesView())
        let outcome = h.run(runner(h, store, view, idle: .keep), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(600))
        h.mailbox.post(.away(true))
        await h.clock.advance(by: .seconds(720))
        h.mailbox.post(.away(false))
        await h.clock.advance(by: .seconds(900))
        let record = await outcome.value.recorded.values.first
        #expect(record.map { $0.endedAt.timeIntervalSince($0.startedAt) } == 1500)
        #expect(record?.note == nil)
        #expect(view.messages.withLock { $0 }.isEmpty)
    }
}
