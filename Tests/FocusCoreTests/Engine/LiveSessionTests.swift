import FocusCore
import Foundation
import Testing

/// The live session as a value: what the runner observed in, what to do out. No clock, no I/O.
@Suite struct LiveSessionTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let plan = SessionPlan(workSeconds: 1500, shortBreakSeconds: 300, longBreakSeconds: 900, cycles: 4, count: nil)

    func live(_ plan: SessionPlan, tick: Duration? = nil) -> LiveSession {
        var l = LiveSession(plan: plan, startWall: start, slept: .zero, tick: tick)
        _ = l.start()
        l.saved(at: .zero)
        return l
    }

    func records(_ effects: [LiveEffect]) -> [WorkRecord] {
        effects.flatMap { effect -> [WorkRecord] in
            guard case let .handle(events, _, _) = effect else { return [] }
            return events.compactMap { if case let .workEnded(r) = $0 { return r }; return nil }
        }
    }

    @Test func theFirstWorkSessionStartsAndIsSaved() {
        var l = LiveSession(plan: plan, startWall: start, slept: .zero, tick: nil)
        #expect(l.start() == [.handle([.phaseStarted(.work, cycle: 1, plannedSeconds: 1500)], at: .zero, checkpoint: true)])
    }

    @Test func itWakesForTheDeadlineTheTickOrTheCheckpointWhicheverIsFirst() {
        var l = live(plan)
        #expect(l.wake(at: .seconds(1)) == .seconds(5), "checkpoint every 5 s")
        l.saved(at: .seconds(1497))
        #expect(l.wake(at: .seconds(1498)) == .seconds(1500), "the deadline")
        let ticking = live(plan, tick: .milliseconds(250))
        #expect(ticking.wake(at: .seconds(1)) == .milliseconds(1250))
    }

    @Test func aQuietWakeUpRedrawsAndSavesOnlyWhenACheckpointIsDue() {
        var l = live(plan, tick: .milliseconds(250))
        #expect(l.observe(.woke(at: .seconds(1), slept: .zero, command: nil)) == [.redraw(at: .seconds(1), checkpoint: false)])
        #expect(l.observe(.woke(at: .seconds(5), slept: .zero, command: nil)) == [.redraw(at: .seconds(5), checkpoint: true)])
    }

    @Test func qStopsAndRecordsTheFocusSoFarAsInterrupted() {
        var l = live(plan)
        let effects = l.observe(.woke(at: .seconds(600), slept: .zero, command: .stop(.person(reason: nil))))
        #expect(records(effects).map(\.status) == [.interrupted])
        #expect(records(effects).map(\.focusedSeconds) == [600])
        #expect(effects.last.map { if case let .handle(_, _, checkpoint) = $0 { return checkpoint }; return true } == false,
                "a finished run saves no checkpoint")
        #expect(l.isFinished)
        #expect(l.observe(.woke(at: .seconds(700), slept: .zero, command: .skip)).isEmpty, "nothing after the end")
    }

    @Test func aSuspendOfTheMachineStopsTheSessionAtTheMomentOfTheSuspend() {
        var l = live(plan)
        let effects = l.observe(.woke(at: .seconds(300), slept: .seconds(3600), command: nil))
        #expect(records(effects).map(\.focusedSeconds) == [300])
        guard case let .handle(events, _, _)? = effects.first else { Issue.record("no events"); return }
        #expect(events.last == .finished(.suspend(slept: .seconds(3600))))
    }

    @Test func ctrlZPausesParksAndResumesWhenContinued() {
        var l = live(plan)
        let parked = l.observe(.woke(at: .seconds(100), slept: .zero, command: .suspend))
        #expect(parked == [.handle([.paused], at: .seconds(100), checkpoint: true), .park])
        // Stopped for an hour (the machine slept meanwhile: that is a pause, not a suspend).
        let back = l.observe(.continued(at: .seconds(3700), slept: .seconds(1800)))
        #expect(back == [.handle([.resumed], at: .seconds(3700), checkpoint: true)])
        #expect(l.observe(.woke(at: .seconds(3701), slept: .seconds(1800), command: nil)).count == 1)
        #expect(!l.isFinished)
        let stop = l.observe(.woke(at: .seconds(3800), slept: .seconds(1800), command: .stop(.signal)))
        #expect(records(stop).map(\.focusedSeconds) == [200], "the time stopped is a pause")
    }

    @Test func ctrlZWhilePausedLeavesItPausedWhenContinued() {
        var l = live(plan)
        _ = l.observe(.woke(at: .seconds(10), slept: .zero, command: .togglePause))
        #expect(l.observe(.woke(at: .seconds(20), slept: .zero, command: .suspend)) == [.park])
        #expect(l.observe(.continued(at: .seconds(30), slept: .zero)).isEmpty)
        #expect(l.engine.isPaused)
    }

    @Test func anOpenSessionHasNoDeadlineAndIsRecordedOpenWhenStopped() {
        var l = live(.open)
        #expect(l.engine.deadline == nil)
        #expect(l.wake(at: .seconds(3)) == .seconds(5), "only checkpoints wake it")
        #expect(l.observe(.woke(at: .seconds(86_000), slept: .zero, command: nil)) == [.redraw(at: .seconds(86_000), checkpoint: true)])
        _ = l.observe(.woke(at: .seconds(86_100), slept: .zero, command: .togglePause))
        _ = l.observe(.woke(at: .seconds(86_400), slept: .zero, command: .togglePause))
        let stopped = records(l.observe(.woke(at: .seconds(90_000), slept: .zero, command: .stop(.elsewhere(reason: nil)))))
        #expect(stopped == [WorkRecord(startedAt: start, endedAt: start.addingTimeInterval(90_000), plannedSeconds: 0,
                                       focusedSeconds: 89_700, status: .open)])
    }

    @Test func anOpenSessionsSnapshotHasNoEndAndCountsUp() {
        var l = live(.open)
        _ = l.observe(.woke(at: .seconds(42), slept: .zero, command: nil))
        let snap = l.engine.snapshot(at: .seconds(42))
        #expect(snap.isOpen)
        #expect(snap.endsAt == nil)
        #expect(snap.focusedSeconds == 42)
        #expect(snap.remainingSeconds == 0)
    }

    @Test func anOpenSessionTellsWhatBecameOfTheTimeAwayAsACountdownDoes() {
        var discarding = live(.open)
        discarding.away = AwayTracker(policy: .discard)
        _ = discarding.observe(.woke(at: .seconds(600), slept: .zero, command: .away(true)))
        #expect(discarding.engine.isPaused)
        let back = discarding.observe(.woke(at: .seconds(1320), slept: .zero, command: .away(false)))
        #expect(back.first == .tell(.discarded(awaySeconds: 720)))
        let stopped = records(discarding.observe(.woke(at: .seconds(2400), slept: .zero, command: .stop(.elsewhere(reason: nil)))))
        #expect(stopped.map(\.focusedSeconds) == [1680])
        #expect(stopped.map(\.note) == ["away 12m"])

        var asking = live(.open)
        asking.away = AwayTracker(policy: .ask)
        _ = asking.observe(.woke(at: .seconds(600), slept: .zero, command: .away(true)))
        let asked = asking.observe(.woke(at: .seconds(1320), slept: .zero, command: .away(false)))
        #expect(asked.first == .tell(.question(awaySeconds: 720, stopAt: start.addingTimeInterval(600))))
        // `s` while asked: stopped at the lock, recorded open.
        let answered = records(asking.observe(.woke(at: .seconds(1330), slept: .zero, command: .skip)))
        #expect(answered == [WorkRecord(startedAt: start, endedAt: start.addingTimeInterval(600), plannedSeconds: 0,
                                        focusedSeconds: 600, status: .open)])
    }

    @Test func skippingAnOpenSessionEndsItAsOpen() {
        var l = live(.open)
        let effects = l.observe(.woke(at: .seconds(60), slept: .zero, command: .skip))
        #expect(records(effects).map(\.status) == [.open])
        #expect(l.isFinished)
    }

    @Test func timeAwayIsKeptUnlessThePolicyDiscardsIt() {
        var kept = live(plan)
        #expect(kept.observe(.woke(at: .seconds(100), slept: .zero, command: .away(true))) == [.redraw(at: .seconds(100), checkpoint: true)])
        #expect(kept.observe(.woke(at: .seconds(400), slept: .zero, command: .away(false))).allSatisfy { if case .tell = $0 { false } else { true } })
        #expect(records(kept.observe(.woke(at: .seconds(600), slept: .zero, command: .stop(.signal)))).map(\.focusedSeconds) == [600])

        var discarded = live(plan)
        discarded.away = AwayTracker(policy: .discard)
        _ = discarded.observe(.woke(at: .seconds(100), slept: .zero, command: .away(true)))
        let back = discarded.observe(.woke(at: .seconds(400), slept: .zero, command: .away(false)))
        #expect(back.first == .tell(.discarded(awaySeconds: 300)), "the person is told the time away was not counted")
        #expect(records(discarded.observe(.woke(at: .seconds(600), slept: .zero, command: .stop(.signal)))).map(\.focusedSeconds) == [300])
    }

    @Test func askingAboutTimeAwayTellsTheQuestionAndKeepUndoesTheHold() {
        var asked = live(plan)
        asked.away = AwayTracker(policy: .ask)
        _ = asked.observe(.woke(at: .seconds(100), slept: .zero, command: .away(true)))
        let back = asked.observe(.woke(at: .seconds(400), slept: .zero, command: .away(false)))
        guard case let .tell(.question(seconds, _))? = back.first else {
            Issue.record("no question asked: \(back)")
            return
        }
        #expect(seconds == 300)
        #expect(asked.snapshot(at: .seconds(405)).awayStopAt != nil, "the view shows the question's keys while it waits")
        let kept = asked.observe(.woke(at: .seconds(410), slept: .zero, command: .awayAnswer(.keep)))
        // The figure asked about: the ten seconds spent answering were not time away.
        #expect(kept.first == .tell(.kept(awaySeconds: 300)))
        #expect(asked.snapshot(at: .seconds(411)).awayStopAt == nil)
        #expect(records(asked.observe(.woke(at: .seconds(600), slept: .zero, command: .stop(.signal)))).map(\.focusedSeconds) == [600])
    }
}
