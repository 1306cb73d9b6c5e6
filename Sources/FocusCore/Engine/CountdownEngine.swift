import FoundationEssentials

/// What the countdown is doing.
package enum Phase: String, Sendable, Equatable, CaseIterable {
    case work
    case shortBreak = "short_break"
    case longBreak = "long_break"

    package var label: String {
        switch self {
        case .work: return "work"
        case .shortBreak: return "short break"
        case .longBreak: return "long break"
        }
    }
}

/// How a run of sessions is set up: lengths, cycles, and when it stops.
package struct SessionPlan: Sendable, Equatable {
    package var workSeconds: Int
    package var shortBreakSeconds: Int
    package var longBreakSeconds: Int
    /// Work sessions before a long break.
    package var cycles: Int
    /// Stop after this many work sessions (nil: until the person stops).
    package var count: Int?
    /// `--open`: one work session that counts up with no planned length until it is stopped,
    /// recorded with status `open` (`workSeconds` is 0).
    package var isOpen = false

    package init(workSeconds: Int, shortBreakSeconds: Int, longBreakSeconds: Int, cycles: Int, count: Int?) {
        self.workSeconds = workSeconds
        self.shortBreakSeconds = shortBreakSeconds
        self.longBreakSeconds = longBreakSeconds
        self.cycles = max(1, cycles)
        self.count = count
    }

    /// `--no-break`: one work session, then the run ends.
    package static func single(workSeconds: Int) -> SessionPlan {
        SessionPlan(workSeconds: workSeconds, shortBreakSeconds: 0, longBreakSeconds: 0, cycles: 1, count: 1)
    }

    /// `--open`: one work session counting up until it is stopped, no break.
    package static var open: SessionPlan {
        var plan = SessionPlan.single(workSeconds: 0)
        plan.isOpen = true
        return plan
    }
}

/// A finished work session, ready to be recorded.
package struct WorkRecord: Sendable, Equatable {
    package var startedAt: Date
    package var endedAt: Date
    package var plannedSeconds: Int
    package var focusedSeconds: Int
    package var status: SessionStatus
    /// What the log's note says of it ("away 12m": time behind a locked screen was discarded).
    package var note: String?

    package init(startedAt: Date, endedAt: Date, plannedSeconds: Int, focusedSeconds: Int, status: SessionStatus, note: String? = nil) {
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.plannedSeconds = plannedSeconds
        self.focusedSeconds = focusedSeconds
        self.status = status
        self.note = note
    }
}

/// Why a run stopped early.
package enum StopCause: Sendable, Equatable {
    /// The person pressed q or Ctrl-C in the countdown's terminal.
    case person(reason: String?)
    /// `focus stop` from another terminal or a status bar: nothing is asked in the countdown's
    /// terminal (its `--reason`, if any, is the note).
    case elsewhere(reason: String?)
    /// SIGTERM or SIGHUP: the terminal or the system ended focus.
    case signal
    /// The machine was suspended; `slept` is how long.
    case suspend(slept: Duration)
}

/// What the engine tells the view, the notifier and the store.
package enum EngineEvent: Sendable, Equatable {
    case phaseStarted(Phase, cycle: Int, plannedSeconds: Int)
    case workEnded(WorkRecord)
    case breakEnded(Phase, cycle: Int)
    case paused
    case resumed
    /// The run is over (plan done, or stopped).
    case finished(StopCause?)
}

/// The countdown as a pure state machine. Time is given to it as monotonic offsets since the run
/// began (`Duration`), and wall-clock timestamps are derived as `startWall + offset`, so a change
/// of the wall clock mid-session cannot alter any duration. Tests drive 25 minutes in microseconds
/// by passing offsets; `SessionRunner` feeds it a real clock.
package struct CountdownEngine: Sendable {
    package let plan: SessionPlan
    private let startWall: Date

    package private(set) var phase: Phase = .work
    /// 1-based position of the current (or last) work session in its set of `plan.cycles`.
    package private(set) var cycle = 1
    /// Work sessions ended so far in this run (completed or not).
    package private(set) var workSessionsEnded = 0
    package private(set) var completedWorkSessions = 0
    /// Focus recorded by this run so far, in seconds.
    package private(set) var focusedSecondsRecorded = 0
    package private(set) var isFinished = false
    private var phaseStart: Duration = .zero
    private var pausedTotal: Duration = .zero
    private var pausedSince: Duration?

    package init(plan: SessionPlan, startWall: Date) {
        self.plan = plan
        self.startWall = startWall
    }

    /// Starts the first work session at offset zero.
    package mutating func start() -> [EngineEvent] {
        [.phaseStarted(.work, cycle: cycle, plannedSeconds: plan.workSeconds)]
    }

    package var isPaused: Bool { pausedSince != nil }

    package var plannedSeconds: Int {
        switch phase {
        case .work: return plan.workSeconds
        case .shortBreak: return plan.shortBreakSeconds
        case .longBreak: return plan.longBreakSeconds
        }
    }

    /// The wall-clock instant the current phase started.
    package var phaseStartedAt: Date { wallClock(at: phaseStart) }

    /// Time counted in the current phase at `t`, pauses excluded.
    package func elapsed(at t: Duration) -> Duration {
        let pausing = pausedSince.map { t - $0 } ?? .zero
        return max(.zero, t - phaseStart - pausedTotal - pausing)
    }

    package func remaining(at t: Duration) -> Duration {
        max(.zero, .seconds(plannedSeconds) - elapsed(at: t))
    }

    /// When the current phase will end, as an offset; nil while paused or finished, and always
    /// for an open session (it ends when it is stopped).
    package var deadline: Duration? {
        guard !isFinished, pausedSince == nil, !plan.isOpen else { return nil }
        return phaseStart + pausedTotal + .seconds(plannedSeconds)
    }

    /// Moves time forward, ending every phase whose deadline has passed.
    package mutating func advance(to t: Duration) -> [EngineEvent] {
        var events: [EngineEvent] = []
        while let d = deadline, d <= t {
            events += endPhase(at: d, completed: true)
        }
        return events
    }

    package mutating func pause(at t: Duration) -> [EngineEvent] {
        var events = advance(to: t)
        guard !isFinished, pausedSince == nil else { return events }
        pausedSince = t
        events.append(.paused)
        return events
    }

    package mutating func resume(at t: Duration) -> [EngineEvent] {
        guard !isFinished, let since = pausedSince else { return [] }
        pausedTotal += t - since
        pausedSince = nil
        return [.resumed] + advance(to: t)
    }

    /// Ends the current phase now: work ends early (interrupted), a break ends and work begins.
    package mutating func skip(at t: Duration) -> [EngineEvent] {
        var events = advance(to: t)
        guard !isFinished else { return events }
        events += endPhase(at: t, completed: false)
        return events
    }

    /// Stops the run: a work session in progress is recorded as interrupted (an open one as open)
    /// with its focused time.
    package mutating func stop(at t: Duration, cause: StopCause) -> [EngineEvent] {
        var events = advance(to: t)
        guard !isFinished else { return events }
        if phase == .work {
            let record = workRecord(endingAt: t, status: endedEarly)
            focusedSecondsRecorded += record.focusedSeconds
            events.append(.workEnded(record))
        }
        isFinished = true
        events.append(.finished(cause))
        return events
    }

    /// How a work session that ends before its deadline is recorded.
    private var endedEarly: SessionStatus { plan.isOpen ? .open : .interrupted }

    /// The wall-clock instant of an offset: the start plus monotonic time.
    package func wallClock(at offset: Duration) -> Date {
        startWall.addingTimeInterval(offset.seconds)
    }

    private func workRecord(endingAt t: Duration, status: SessionStatus) -> WorkRecord {
        let focused = status == .completed ? Double(plan.workSeconds) : elapsed(at: t).seconds
        return WorkRecord(
            startedAt: wallClock(at: phaseStart), endedAt: wallClock(at: t), plannedSeconds: plan.workSeconds,
            focusedSeconds: Int(focused.rounded()), status: status)
    }

    private mutating func endPhase(at t: Duration, completed: Bool) -> [EngineEvent] {
        var events: [EngineEvent] = []
        let ended = phase
        if ended == .work {
            let record = workRecord(endingAt: t, status: completed ? .completed : endedEarly)
            focusedSecondsRecorded += record.focusedSeconds
            events.append(.workEnded(record))
            workSessionsEnded += 1
            if completed { completedWorkSessions += 1 }
            if let count = plan.count, workSessionsEnded >= count {
                isFinished = true
                pausedSince = nil
                events.append(.finished(nil))
                return events
            }
            phase = cycle >= plan.cycles ? .longBreak : .shortBreak
        } else {
            events.append(.breakEnded(ended, cycle: cycle))
            cycle = ended == .longBreak ? 1 : cycle + 1
            phase = .work
        }
        phaseStart = t
        pausedTotal = .zero
        pausedSince = nil
        events.append(.phaseStarted(phase, cycle: cycle, plannedSeconds: plannedSeconds))
        return events
    }
}

extension Duration {
    /// Seconds as a Double.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
