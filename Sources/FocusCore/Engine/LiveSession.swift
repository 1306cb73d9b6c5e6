import FoundationEssentials

/// What the session runner observed. Offsets are monotonic time since the run began.
package enum LiveInput: Sendable, Equatable {
    /// The runner woke at `at`: a deadline, a redraw tick or a checkpoint came due, or `command`
    /// (a key, a signal, a request from another `focus`) arrived. `slept`: how long the machine
    /// has been suspended in all since start-up, as the runner's clocks tell it.
    case woke(at: Duration, slept: Duration, command: SessionCommand?)
    /// The process runs again after `.park` (Ctrl-Z, then `fg` or `focus stop` from elsewhere).
    case continued(at: Duration, slept: Duration)
    /// The screen was locked from `from` to `to`: time away from the desk, which `awayPolicy`
    /// decides about (the idle watcher reports each such time once, when the screen unlocks).
    case away(from: Duration, to: Duration)
}

/// What the runner does next, in order.
package enum LiveEffect: Sendable, Equatable {
    /// Things happened: record each work session that ended (before anything says so), redraw
    /// with them, send their notices and hooks, and save a checkpoint when `checkpoint`.
    case handle([EngineEvent], at: Duration, checkpoint: Bool)
    /// Nothing happened: redraw the clock, and save a checkpoint when `checkpoint`.
    case redraw(at: Duration, checkpoint: Bool)
    /// Ctrl-Z: the session is paused and saved; stop the process for real, and report
    /// `.continued` once it runs again.
    case park
}

/// What time behind a locked screen is (PRODUCT.md, config `idle`).
package enum AwayPolicy: Sendable, Equatable {
    /// Focus as any other time.
    case keep
    /// A pause: the session's focused time excludes it.
    case discard
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
    package var awayPolicy: AwayPolicy = .keep
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
        case let .away(from, to):
            guard awayPolicy == .discard else { return [] }
            engine.discount(from: from, to: to)
            return [.redraw(at: to, checkpoint: true)]
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
        case .togglePause?: events += engine.isPaused ? engine.resume(at: at) : engine.pause(at: at)
        case .pause?: events += engine.pause(at: at)
        case .resume?: events += engine.resume(at: at)
        case .skip?: events += engine.skip(at: at)
        case let .stop(cause)?: events += engine.stop(at: at, cause: cause)
        case .redraw?, nil: break
        }
        if events.isEmpty {
            return [.redraw(at: at, checkpoint: at - lastCheckpoint >= checkpointInterval)]
        }
        return [handled(events, at: at)]
    }

    private func handled(_ events: [EngineEvent], at t: Duration) -> LiveEffect {
        .handle(events, at: t, checkpoint: !engine.isFinished)
    }
}
