import FocusCore
import FocusCoreTestSupport
import Foundation
import Testing

/// Which hooks a run calls, when, and with what JSON on their standard input.
@Suite struct SessionHooksTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z

    func makeRunner(_ h: RunnerHarness, _ store: MemoryStore, hooks: RecordingHookRunner) -> SessionRunner<TestClock> {
        let origin = start
        var r = SessionRunner(clock: h.clock, now: { origin }, store: store, view: MemoryView(), notifier: RecordingNotifier(),
                              notices: SessionNotices(path: "Thesis/Chapter 2", todayBefore: 0), mailbox: h.mailbox, tick: nil)
        r.hooks = SessionHooks(runner: hooks, task: "Thesis", subtask: "Chapter 2", blockID: 7)
        return r
    }

    @Test func aCompletedSessionCallsSessionCompletedWithItsRecord() async {
        let h = RunnerHarness()
        let hooks = RecordingHookRunner()
        let task = h.run(makeRunner(h, MemoryStore(), hooks: hooks), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(1500))
        _ = await task.value
        #expect(hooks.events == [.sessionCompleted])
        #expect(hooks.payloads.first?.rendered() == """
            {"event": "session-completed", "id": 1, "task": "Thesis", "subtask": "Chapter 2", \
            "start": "2026-11-18T11:06:40Z", "end": "2026-11-18T11:31:40Z", "focused_seconds": 1500, "planned_seconds": 1500, \
            "status": "completed", "block_id": 7, "completed_in_run": 1, "focused_seconds_in_run": 1500}
            """)
    }

    @Test func stoppingEarlyCallsSessionInterruptedWithTheFocusSoFar() async {
        let h = RunnerHarness()
        let hooks = RecordingHookRunner()
        let task = h.run(makeRunner(h, MemoryStore(), hooks: hooks), plan: .single(workSeconds: 1500))
        await h.clock.settle()
        await h.clock.advance(by: .seconds(90))
        h.mailbox.post(.stop(.person(reason: nil)))
        await h.clock.settle()
        _ = await task.value
        #expect(hooks.events == [.sessionInterrupted])
        let payload = hooks.payloads.first?.rendered() ?? ""
        #expect(payload.contains(#""focused_seconds": 90, "planned_seconds": 1500, "status": "interrupted""#), "\(payload)")
    }

    @Test func theEndOfABreakCallsBreakOverAndTheNextSessionItsOwnHook() async {
        let h = RunnerHarness()
        let hooks = RecordingHookRunner()
        let plan = SessionPlan(workSeconds: 60, shortBreakSeconds: 30, longBreakSeconds: 90, cycles: 4, count: 2)
        let task = h.run(makeRunner(h, MemoryStore(), hooks: hooks), plan: plan)
        await h.clock.settle()
        await h.clock.advance(by: .seconds(60))
        await h.clock.advance(by: .seconds(30))
        await h.clock.advance(by: .seconds(60))
        _ = await task.value
        #expect(hooks.events == [.sessionCompleted, .breakOver, .sessionCompleted])
        #expect(hooks.payloads[1].rendered() == """
            {"event": "break-over", "task": "Thesis", "subtask": "Chapter 2", "phase": "short_break", "cycle": 1, \
            "end": "2026-11-18T11:08:10Z", "next_work_seconds": 60, "block_id": 7}
            """)
    }

    @Test func aBlockStartingGivesItsTaskSubtaskAndTimes() {
        let block = ReminderBlock(id: 4, path: "Thesis/Chapter 2/Part a", start: start, end: start.addingTimeInterval(3000))
        #expect(SessionHooks.blockStarts(block).rendered() == """
            {"event": "block-starts", "block_id": 4, "task": "Thesis", "subtask": "Chapter 2/Part a", \
            "start": "2026-11-18T11:06:40Z", "end": "2026-11-18T11:56:40Z", "planned_seconds": 3000}
            """)
    }
}
