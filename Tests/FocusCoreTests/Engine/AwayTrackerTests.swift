import FocusCore
import Foundation
import Testing

/// Time behind a locked screen under config `idle` (README, "Away from the screen"): the
/// tracker driven with the engine over scripted offsets, as the runner drives them.
@Suite struct AwayTrackerTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    enum Step: Sendable {
        case lock, unlock, answer(AwayTracker.Answer), stopElsewhere, pause, resume
        /// The runner waking at a deadline with nothing else to do.
        case tick
    }

    struct Run {
        var records: [WorkRecord] = []
        var finished: [StopCause?] = []
        var tracker: AwayTracker
        var engine: CountdownEngine
    }

    /// Drives a run: each step at its second, then time on to `end` seconds.
    static func run(_ policy: IdlePolicy, plan: SessionPlan = .single(workSeconds: 1500), _ steps: [(Int, Step)], until end: Int) -> Run {
        var tracker = AwayTracker(policy: policy)
        var engine = CountdownEngine(plan: plan, startWall: start)
        var records: [WorkRecord] = []
        var finished: [StopCause?] = []
        func take(_ events: [EngineEvent]) {
            for event in events {
                if case let .workEnded(record) = event { records.append(record) }
                if case let .finished(cause) = event { finished.append(cause) }
            }
        }
        take(engine.start())
        for (second, step) in steps {
            let t = Duration.seconds(second)
            var events = engine.advance(to: t)
            switch step {
            case .lock: tracker.locked(at: t)
            case .unlock: events += tracker.unlocked(at: t, engine: &engine)
            case let .answer(a): events += tracker.answer(a, at: t, engine: &engine)
            case .stopElsewhere: events += engine.stop(at: t, cause: .elsewhere(reason: nil))
            case .pause: events += engine.pause(at: t)
            case .resume: events += engine.resume(at: t)
            case .tick: break
            }
            take(tracker.settle(events, at: t, engine: &engine))
        }
        let t = Duration.seconds(end)
        take(tracker.settle(engine.advance(to: t), at: t, engine: &engine))
        return Run(records: records, finished: finished, tracker: tracker, engine: engine)
    }

    static func at(_ seconds: Int) -> Date { start.addingTimeInterval(Double(seconds)) }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: IdlePolicy
        var steps: [(Int, Step)]
        /// The recorded session: end (seconds after start), focused seconds, status, note.
        var end: Int
        var focused: Int
        var status: SessionStatus
        var note: String?
        var testDescription: String { name }
    }

    // 25 minutes of work; locked at 10:00 into it, back 12 minutes later (at 22:00).
    static let cases: [Case] = [
        Case(name: "discard: the time away is a pause and the note says so", policy: .discard,
             steps: [(600, .lock), (1320, .unlock)], end: 2220, focused: 1500, status: .completed, note: "away 12m"),
        Case(name: "keep: a locked screen changes nothing", policy: .keep,
             steps: [(600, .lock), (1320, .unlock)], end: 1500, focused: 1500, status: .completed, note: nil),
        Case(name: "ask, kept: as if nobody had left", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.keep))], end: 1500, focused: 1500, status: .completed, note: nil),
        Case(name: "ask, discarded: a pause up to the return, the answering is focus", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.discard))], end: 2220, focused: 1500, status: .completed, note: "away 12m"),
        Case(name: "ask, stopped: ends when the screen locked", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.stop))], end: 600, focused: 600, status: .interrupted, note: nil),
        Case(name: "ask, kept after the countdown ran out: completed when it would have", policy: .ask,
             steps: [(1400, .lock), (1700, .unlock), (1710, .answer(.keep))], end: 1500, focused: 1500, status: .completed, note: nil),
        Case(name: "discard, stopped elsewhere while away: focus up to the lock", policy: .discard,
             steps: [(600, .lock), (900, .stopElsewhere)], end: 900, focused: 600, status: .interrupted, note: "away 5m"),
        Case(name: "discard, paused by the person before the lock: their pause, no note", policy: .discard,
             steps: [(100, .pause), (200, .lock), (400, .unlock), (500, .resume)], end: 1900, focused: 1500, status: .completed, note: nil),
        Case(name: "discard, locked twice: both spans", policy: .discard,
             steps: [(100, .lock), (220, .unlock), (300, .lock), (480, .unlock)], end: 1800, focused: 1500, status: .completed, note: "away 5m"),
        Case(name: "ask, locked again before answering: one question, one span", policy: .ask,
             steps: [(600, .lock), (700, .unlock), (710, .lock), (1200, .unlock), (1210, .answer(.discard))], end: 2100, focused: 1500, status: .completed, note: "away 10m"),
    ]

    @Test(arguments: cases)
    func theRecordedSessionFollowsThePolicy(_ c: Case) {
        let r = AwayTrackerTests.run(c.policy, c.steps, until: 3000)
        #expect(r.records == [WorkRecord(startedAt: AwayTrackerTests.start, endedAt: AwayTrackerTests.at(c.end), plannedSeconds: 1500,
                                         focusedSeconds: c.focused, status: c.status, note: c.note)])
    }

    // An open session (`start --open`): counting up; locked at 10:00, back 12 minutes later
    // (at 22:00), stopped from elsewhere at 40:00 unless a row says otherwise.
    static let openCases: [Case] = [
        Case(name: "open, discard: the time away is left out and the note says so", policy: .discard,
             steps: [(600, .lock), (1320, .unlock), (2400, .stopElsewhere)], end: 2400, focused: 1680, status: .open, note: "away 12m"),
        Case(name: "open, keep: a locked screen changes nothing", policy: .keep,
             steps: [(600, .lock), (1320, .unlock), (2400, .stopElsewhere)], end: 2400, focused: 2400, status: .open, note: nil),
        Case(name: "open, ask, kept: as if nobody had left", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.keep)), (2400, .stopElsewhere)], end: 2400, focused: 2400, status: .open, note: nil),
        Case(name: "open, ask, discarded: a pause up to the return, the answering is focus", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.discard)), (2400, .stopElsewhere)], end: 2400, focused: 1680,
             status: .open, note: "away 12m"),
        Case(name: "open, ask, stopped: ends, still open, when the screen locked", policy: .ask,
             steps: [(600, .lock), (1320, .unlock), (1330, .answer(.stop))], end: 600, focused: 600, status: .open, note: nil),
        Case(name: "open, discard, stopped elsewhere while away: focus up to the lock", policy: .discard,
             steps: [(600, .lock), (900, .stopElsewhere)], end: 900, focused: 600, status: .open, note: "away 5m"),
        Case(name: "open, discard, locked twice: both spans", policy: .discard,
             steps: [(100, .lock), (220, .unlock), (300, .lock), (480, .unlock), (2400, .stopElsewhere)], end: 2400, focused: 2100,
             status: .open, note: "away 5m"),
    ]

    @Test(arguments: openCases)
    func anOpenSessionFollowsThePolicyToo(_ c: Case) {
        let r = AwayTrackerTests.run(c.policy, plan: .open, c.steps, until: 90_000)
        #expect(r.records == [WorkRecord(startedAt: AwayTrackerTests.start, endedAt: AwayTrackerTests.at(c.end), plannedSeconds: 0,
                                         focusedSeconds: c.focused, status: c.status, note: c.note)])
    }

    @Test func anOpenSessionIsHeldWhileLockedAndAskedAboutOnReturn() {
        let r = AwayTrackerTests.run(.ask, plan: .open, [(600, .lock), (1320, .unlock)], until: 5000)
        #expect(r.records.isEmpty, "an open session runs until it is stopped")
        #expect(r.engine.isPaused, "held from the lock until the answer")
        #expect(r.tracker.question == AwayTracker.Question(from: .seconds(600), to: .seconds(1320)))
        #expect(r.engine.snapshot(at: .seconds(5000)).focusedSeconds == 600)
    }

    @Test func askingStopsWithTheTimeAwayAsTheReason() {
        let r = AwayTrackerTests.run(.ask, [(600, .lock), (1320, .unlock), (1330, .answer(.stop))], until: 3000)
        #expect(r.finished == [.person(reason: "away 12m")])
    }

    @Test func askHoldsTheWorkUntilTheAnswer() {
        let r = AwayTrackerTests.run(.ask, [(600, .lock), (1320, .unlock)], until: 3000)
        #expect(r.records.isEmpty, "nothing recorded before the person answers")
        #expect(r.engine.isPaused)
        #expect(r.tracker.question == AwayTracker.Question(from: .seconds(600), to: .seconds(1320)))
        #expect(r.tracker.question?.seconds == 720)
    }

    @Test func aLockDuringABreakHoldsTheWorkThatBeginsWhileAway() {
        let plan = SessionPlan(workSeconds: 60, shortBreakSeconds: 30, longBreakSeconds: 30, cycles: 4, count: 2)
        // Locked at 70 s (in the break that ends at 90 s, when the runner wakes), back at 200 s.
        let r = AwayTrackerTests.run(.discard, plan: plan, [(70, .lock), (90, .tick), (200, .unlock)], until: 1000)
        #expect(r.records.map(\.note) == [nil, "away 2m"])
        #expect(r.records.map(\.focusedSeconds) == [60, 60])
        #expect(r.records.last?.endedAt == AwayTrackerTests.at(90 + 110 + 60))
    }

    @Test func askWithNobodyToAnswerDiscards() {
        #expect(IdlePolicy.ask.effective(canAsk: false) == .discard)
        #expect(IdlePolicy.ask.effective(canAsk: true) == .ask)
        #expect(IdlePolicy.keep.effective(canAsk: false) == .keep)
    }

    @Test(arguments: [(0, nil), (1, "away 1s"), (720, "away 12m"), (4500, "away 1h15m")] as [(Int, String?)])
    func theNoteSaysHowLongTheScreenWasLocked(seconds: Int, note: String?) {
        #expect(AwayTracker.note(awaySeconds: seconds) == note)
    }

    @Test func whileAskingSStopsAndSpaceDiscards() {
        #expect(AwayTracker.answerKey(.skip) == .awayAnswer(.stop))
        #expect(AwayTracker.answerKey(.togglePause) == .awayAnswer(.discard))
        #expect(AwayTracker.answerKey(.stop(.person(reason: nil))) == .stop(.person(reason: nil)))
    }
}
