import FocusCore
import Foundation
import Testing

@Suite struct CountdownEngineTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let plan = SessionPlan(workSeconds: 1500, shortBreakSeconds: 300, longBreakSeconds: 900, cycles: 4, count: nil)

    func records(_ events: [EngineEvent]) -> [WorkRecord] {
        events.compactMap { if case let .workEnded(r) = $0 { return r }; return nil }
    }

    @Test func aWorkSessionThatReachesZeroIsCompletedWithItsFullLength() {
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        #expect(e.advance(to: .seconds(1499)).isEmpty)
        let events = e.advance(to: .seconds(1500))
        #expect(records(events) == [WorkRecord(startedAt: start, endedAt: start.addingTimeInterval(1500), plannedSeconds: 1500, focusedSeconds: 1500, status: .completed)])
        #expect(events.last == .phaseStarted(.shortBreak, cycle: 1, plannedSeconds: 300))
    }

    @Test(arguments: [1, 59, 600, 1234, 1499])
    func interruptingAtAnyInstantRecordsExactlyTheFocusedSeconds(at second: Int) {
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        let events = e.stop(at: .seconds(second), cause: .person(reason: nil))
        #expect(records(events) == [WorkRecord(startedAt: start, endedAt: start.addingTimeInterval(Double(second)), plannedSeconds: 1500, focusedSeconds: second, status: .interrupted)])
        #expect(events.last == .finished(.person(reason: nil)))
        #expect(e.isFinished)
    }

    @Test func pausedTimeIsNotFocusAndDelaysTheEnd() {
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        #expect(e.pause(at: .seconds(600)) == [.paused])
        #expect(e.remaining(at: .seconds(900)) == .seconds(900))
        #expect(e.deadline == nil)
        #expect(e.advance(to: .seconds(2000)).isEmpty, "nothing ends while paused")
        #expect(e.resume(at: .seconds(900)) == [.resumed])
        #expect(e.deadline == .seconds(1800))
        let stopped = records(e.stop(at: .seconds(1000), cause: .signal))
        let expectedEnd: Date = start.addingTimeInterval(1000)
        #expect(stopped.first?.focusedSeconds == 700)
        #expect(stopped.first?.endedAt == expectedEnd)
    }

    @Test func interruptingWhilePausedExcludesTheCurrentPause() {
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        _ = e.pause(at: .seconds(300))
        #expect(records(e.stop(at: .seconds(1200), cause: .signal)).first?.focusedSeconds == 300)
    }

    @Test func aLongBreakComesAfterTheConfiguredNumberOfWorkSessions() {
        var e = CountdownEngine(plan: SessionPlan(workSeconds: 60, shortBreakSeconds: 10, longBreakSeconds: 30, cycles: 3, count: nil), startWall: start)
        _ = e.start()
        // work 60, break 10, work 60, break 10, work 60 → long break 30 → work (cycle 1).
        let total: Duration = .seconds(230)
        let events = e.advance(to: total)
        let phases = events.compactMap { if case let .phaseStarted(p, c, _) = $0 { return "\(p.rawValue)\(c)" }; return nil }
        #expect(phases == ["short_break1", "work2", "short_break2", "work3", "long_break3", "work1"])
        #expect(records(events).count == 3)
        #expect(records(events).map(\.startedAt) == [start, start.addingTimeInterval(70), start.addingTimeInterval(140)])
    }

    @Test func countStopsAfterKWorkSessionsWithoutAFinalBreak() {
        var e = CountdownEngine(plan: SessionPlan(workSeconds: 60, shortBreakSeconds: 10, longBreakSeconds: 30, cycles: 4, count: 2), startWall: start)
        _ = e.start()
        let events = e.advance(to: .seconds(10_000))
        #expect(records(events).count == 2)
        #expect(events.last == .finished(nil))
        #expect(e.isFinished)
    }

    @Test func noBreakRunsOneSessionAndFinishes() {
        var e = CountdownEngine(plan: .single(workSeconds: 3), startWall: start)
        _ = e.start()
        let events = e.advance(to: .seconds(3))
        #expect(records(events).map(\.status) == [.completed])
        #expect(events.last == .finished(nil))
    }

    @Test func skippingWorkRecordsItAsInterruptedAndStartsTheBreak() {
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        let events = e.skip(at: .seconds(100))
        #expect(records(events).first?.status == .interrupted)
        #expect(records(events).first?.focusedSeconds == 100)
        #expect(e.phase == .shortBreak)
        let back = e.skip(at: .seconds(150))
        #expect(back == [.breakEnded(.shortBreak, cycle: 1), .phaseStarted(.work, cycle: 2, plannedSeconds: 1500)])
        #expect(e.deadline == .seconds(1650))
    }

    @Test func durationsComeFromMonotonicOffsetsSoWallClockJumpsChangeNothing() {
        // The engine never reads the wall clock after start: an hour's jump of the system clock
        // mid-session cannot reach it. Its record is start + monotonic elapsed, whatever `now` says later.
        var e = CountdownEngine(plan: plan, startWall: start)
        _ = e.start()
        let r = records(e.advance(to: .seconds(1500))).first
        #expect(r?.endedAt.timeIntervalSince(r!.startedAt) == 1500)
        #expect(r?.focusedSeconds == 1500)
    }

    @Test func tenThousandCyclesKeepCountsExact() {
        var e = CountdownEngine(plan: SessionPlan(workSeconds: 60, shortBreakSeconds: 5, longBreakSeconds: 20, cycles: 4, count: 10_000), startWall: start)
        _ = e.start()
        var t: Duration = .zero
        var recorded = 0
        while !e.isFinished {
            t += .seconds(60)
            recorded += records(e.advance(to: t)).count
        }
        #expect(recorded == 10_000)
        #expect(e.completedWorkSessions == 10_000)
    }
}

@Suite struct SessionNoticesTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aCompletedWorkSessionSaysWhatIsNext() {
        var e = CountdownEngine(plan: SessionPlan(workSeconds: 1500, shortBreakSeconds: 300, longBreakSeconds: 900, cycles: 4, count: nil), startWall: start)
        _ = e.start()
        let events = e.advance(to: .seconds(1500))
        let notices = SessionNotices(path: "Thesis/Chapter 2", todayBefore: 3000)
        let posted = events.compactMap { notices.notice(for: $0, engine: e) }
        #expect(posted == [Notice(kind: .workCompleted, summary: "Focus complete: Thesis/Chapter 2",
                                  body: "25 min done · 1 of 4 · 1h 15m today · 5 min break", urgency: .critical)])
    }

    @Test func breakOverAndLongBreakAreNotifiedButInterruptionsAreNot() {
        var e = CountdownEngine(plan: SessionPlan(workSeconds: 60, shortBreakSeconds: 60, longBreakSeconds: 120, cycles: 2, count: nil), startWall: start)
        _ = e.start()
        let notices = SessionNotices(path: "Thesis", todayBefore: 0)
        let events = e.advance(to: .seconds(180))
        let kinds = events.compactMap { notices.notice(for: $0, engine: e)?.kind }
        #expect(kinds == [.workCompleted, .breakOver, .workCompleted, .longBreakStarted])
        let stop = e.stop(at: .seconds(200), cause: .person(reason: nil))
        #expect(stop.compactMap { notices.notice(for: $0, engine: e) }.isEmpty)
    }

    @Test func noticesCanBeTurnedOff() {
        var e = CountdownEngine(plan: .single(workSeconds: 60), startWall: start)
        _ = e.start()
        let events = e.advance(to: .seconds(60))
        #expect(events.compactMap { SessionNotices(path: "T", todayBefore: 0, enabled: false).notice(for: $0, engine: e) }.isEmpty)
    }
}
