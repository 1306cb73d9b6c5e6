import FoundationEssentials

/// What the session runner observed. Offsets are monotonic time since the run began.
package enum LiveInput: Sendable, Equatable {
    /// The runner woke at `at`: a deadline, a redraw tick or a checkpoint came due, or `command`
    /// (a key, a signal, a request from another `focus`) arrived. `slept`: how long the machine
    /// has been suspended in all since start-up, as the runner's clocks tell it.
    case woke(at: Duration, slept: Duration, command: SessionCommand?)
    /// The process runs again after `.park` (Ctrl-Z, then `fg` or `focus stop` from elsewhere).
    /// (The screen locking and unlocking arrive as commands, `.away(true/false)`, from the
    /// idle watcher; `away` decides what the time behind it is.)
    case continued(at: Duration, slept: Duration)
}

/// What the runner does next, in order.
package enum LiveEffect: Sendable, Equatable {
    /// Things happened: record each work session that ended (before anything says so), redraw
    /// with them, send their notices and hooks, and save a checkpoint when `checkpoint`.
    case handle([EngineEvent], at: Duration, checkpoint: Bool)
    /// Nothing happened: redraw the clock, and save a checkpoint when `checkpoint`.
    case redraw(at: Duration, checkpoint: Bool)
    /// Say what became of the time away (README, "Away from the screen"), or ask about it.
    case tell(AwayMessage)
    /// Ctrl-Z: the session is paused and saved; stop the process for real, and report
    /// `.continued` once it runs again.
    case park
}

/// A live session as a pure value, the shape `CountdownEngine` has one level up: what the runner
/// observed goes in (`LiveInput`), what to do comes out (`LiveEffect`), and when to wake next is
/// asked of it. It decides what a key or a signal does to the countdown, when the machine was
/// suspended (the continuous clock ran ahead of the awake one), when progress is saved, and
/// what time away from the desk is. No I/O: `SessionRunner` performs the effects; tests drive
/// it with offsets alone.
package struct LiveSession: Sendable {
    package private(set) var engine: CountdownEngine
    package var tick: Duration?
    package var checkpointInterval: Duration
    package var suspendThreshold: Duration
    /// What time behind a locked screen is (config `idle`; `keep` watches nothing).
    package var away = AwayTracker(policy: .keep)
    private var slept: Duration
    private var lastCheckpoint: Duration = .zero
    /// Paused by Ctrl-Z (not by the person): resumed when the process is continued.
    private var resumeWhenContinued = false

    package init(plan: SessionPlan, startWall: Date, slept: Duration, tick: Duration?,
                 checkpointInterval: Duration = .seconds(5), suspendThreshold: Duration = .seconds(3)) {
        engine = CountdownEngine(plan: plan, startWall: startWall)
        self.slept = slept
        self.tick = tick
        self.checkpointInterval = checkpointInterval
        self.suspendThreshold = suspendThreshold
    }

    package var isFinished: Bool { engine.isFinished }

    /// The first work session begins at offset zero.
    package mutating func start() -> [LiveEffect] {
        [.handle(engine.start(), at: .zero, checkpoint: true)]
    }

    /// When to wake if nothing arrives: the next deadline, redraw tick or checkpoint, whichever
    /// is first (never before `t`).
    package func wake(at t: Duration) -> Duration {
        var wake = lastCheckpoint + checkpointInterval
        if let d = engine.deadline { wake = min(wake, d) }
        if let tick { wake = min(wake, t + tick) }
        return max(wake, t)
    }

    /// A checkpoint was saved at `t` (a failed one is tried again at the next wake-up).
    package mutating func saved(at t: Duration) {
        lastCheckpoint = t
    }

    package mutating func observe(_ input: LiveInput) -> [LiveEffect] {
        guard !engine.isFinished else { return [] }
        switch input {
        case let .woke(at, sleptNow, command):
            // A suspend shows as the continuous clock running ahead of the awake one.
            if sleptNow - slept > suspendThreshold {
                return [handled(engine.stop(at: at, cause: .suspend(slept: sleptNow - slept)), at: at)]
            }
            slept = sleptNow
            return woke(at: at, command: command)
        case let .continued(at, sleptNow):
            // A suspend of the machine while the process was stopped happened in a pause.
            slept = sleptNow
            guard resumeWhenContinued else { return [] }
            resumeWhenContinued = false
            return [handled(engine.resume(at: at), at: at)]
        }
    }

    private mutating func woke(at: Duration, command: SessionCommand?) -> [LiveEffect] {
        var events = engine.advance(to: at)
        switch command {
        case .suspend?:
            // Ctrl-Z: paused and saved before the process stops, resumed when it is continued.
            resumeWhenContinued = !engine.isPaused && !engine.isFinished
            if resumeWhenContinued { events += engine.pause(at: at) }
            var effects = events.isEmpty ? [] : [handled(events, at: at)]
            if !engine.isFinished { effects.append(.park) }
            return effects
        default: break
        }
        var told: [LiveEffect] = []
        switch away.question == nil ? command : AwayTracker.answerKey(command) {
        case let .away(isAway)?:
            if isAway { away.locked(at: at) } else { (events, told) = unlocked(events, at: at) }
        case let .awayAnswer(answer)?: (events, told) = answered(answer, events, at: at)
        case .togglePause?: events += engine.isPaused ? engine.resume(at: at) : engine.pause(at: at)
        case .pause?: events += engine.pause(at: at)
        case .resume?: events += engine.resume(at: at)
        case .skip?: events += engine.skip(at: at)
        case let .stop(cause)?: events += engine.stop(at: at, cause: cause)
        case .redraw?, .suspend?, nil: break
        }
        events = away.settle(events, at: at, engine: &engine)
        if events.isEmpty {
            return told + [.redraw(at: at, checkpoint: at - lastCheckpoint >= checkpointInterval)]
        }
        return told + [handled(events, at: at)]
    }

    /// The screen unlocked: the time behind it discarded, or a question asked (policy `ask`).
    private mutating func unlocked(_ events: [EngineEvent], at t: Duration) -> ([EngineEvent], [LiveEffect]) {
        let held = away.heldSince
        let more = away.unlocked(at: t, engine: &engine)
        if let question = away.question {
            return (events + more, [.tell(.question(awaySeconds: question.seconds, stopAt: engine.wallClock(at: question.from)))])
        }
        guard let held else { return (events + more, []) }
        return (events + more, [.tell(.discarded(awaySeconds: AwayTracker.Question(from: held, to: t).seconds))])
    }

    /// The person answered the question about their time away.
    private mutating func answered(_ answer: AwayTracker.Answer, _ events: [EngineEvent], at t: Duration) -> ([EngineEvent], [LiveEffect]) {
        guard let question = away.question else { return (events, []) }
        // The figure the question asked about: the seconds spent answering are not time away.
        let seconds = question.seconds
        let more = away.answer(answer, at: t, engine: &engine)
        switch answer {
        case .keep: return (events + more, [.tell(.kept(awaySeconds: seconds))])
        case .discard: return (events + more, [.tell(.discarded(awaySeconds: seconds))])
        case .stop: return (events + more, [])
        }
    }

    /// What the view shows at `t`: the engine's snapshot, and the away question when one waits.
    package func snapshot(at t: Duration) -> SessionSnapshot {
        var snap = engine.snapshot(at: t)
        snap.awayStopAt = away.question.map { engine.wallClock(at: $0.from) }
        return snap
    }

    private func handled(_ events: [EngineEvent], at t: Duration) -> LiveEffect {
        .handle(events, at: t, checkpoint: !engine.isFinished)
    }
}
