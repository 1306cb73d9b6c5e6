import FoundationEssentials

/// What the countdown makes of time behind a locked screen (README, "Away from the screen"): a
/// pure decision over the engine, given the lock and unlock observations as monotonic offsets.
///
/// Under `discard` and `ask`, work is held (paused) from the moment the screen locks, or from
/// the moment work begins while it is locked; a break runs on (it is not focus). On return:
/// - `discard`: the hold was a pause; the work session's focused time excludes it and its note
///   says "away 12m";
/// - `ask`: the hold stays until the person answers: keep (the hold is undone as if nobody had
///   left: phases whose time ran out meanwhile end when they would have), discard (as above),
///   or stop (the session is recorded as interrupted at the moment the hold began);
/// - `keep`: nothing is held; a locked screen changes nothing.
package struct AwayTracker: Sendable, Equatable {
    package enum Answer: Sendable, Equatable {
        case keep
        case discard
        case stop
    }

    /// A return the person is asked about (policy `ask`).
    package struct Question: Sendable, Equatable {
        /// When the hold began: the lock, or the start of work begun while locked.
        package var from: Duration
        /// When the person came back.
        package var to: Duration

        package init(from: Duration, to: Duration) {
            self.from = from
            self.to = to
        }

        package var seconds: Int { max(0, Int((to - from).seconds.rounded())) }
    }

    package let policy: IdlePolicy
    /// When the screen locked (nil: it is not locked).
    package private(set) var lockedSince: Duration?
    /// When this tracker paused the engine's work (nil: the work is not held).
    package private(set) var heldSince: Duration?
    /// The return waiting for an answer.
    package private(set) var question: Question?
    /// Held time already given up in the current work session (its note).
    private var discarded: Duration = .zero

    package init(policy: IdlePolicy) {
        self.policy = policy
    }

    /// The note a work session gets for the time discarded from it: "away 12m" (nil under 1 s).
    package static func note(awaySeconds: Int) -> String? {
        awaySeconds >= 1 ? "away " + DurationParser.format(awaySeconds).replacing(" ", with: "") : nil
    }

    /// What a key means while the question is on screen: s stops at the lock, space (or p, or
    /// `focus resume`) discards; k and d, and every other command, mean what they always do.
    package static func answerKey(_ command: SessionCommand?) -> SessionCommand? {
        switch command {
        case .skip?: return .awayAnswer(.stop)
        case .togglePause?, .resume?: return .awayAnswer(.discard)
        default: return command
        }
    }

    /// The screen locked (or the screen saver came on) at `t`. The hold itself begins in the
    /// `settle` that follows.
    package mutating func locked(at t: Duration) {
        if lockedSince == nil { lockedSince = t }
    }

    /// The person is back at `t`. Under `ask`, sets `question` (when work was held) and changes
    /// nothing until `answer`. Like `answer`, returns the engine's events for `settle`.
    package mutating func unlocked(at t: Duration, engine: inout CountdownEngine) -> [EngineEvent] {
        guard lockedSince != nil else { return [] }
        lockedSince = nil
        guard let held = heldSince else { return [] }
        switch policy {
        case .ask:
            question = Question(from: held, to: t)
            return []
        case .discard, .keep:
            return answer(.discard, at: t, engine: &engine)
        }
    }

    /// The person's answer to `question` at `t` (nothing when there is no held work).
    package mutating func answer(_ answer: Answer, at t: Duration, engine: inout CountdownEngine) -> [EngineEvent] {
        // The person was back when the screen unlocked: the seconds spent reading and answering
        // the question are not time away, whatever the answer (the question named the figure).
        let back = min(question?.to ?? t, t)
        question = nil
        guard let held = heldSince, engine.isPaused, !engine.isFinished else {
            heldSince = nil
            return []
        }
        heldSince = nil
        switch answer {
        case .discard:
            discarded += back - held
            return engine.resume(at: back) + engine.advance(to: t)
        case .keep:
            // Resuming at the instant of the pause adds no paused time: the hold never happened.
            return engine.resume(at: held) + engine.advance(to: t)
        case .stop:
            let reason = AwayTracker.note(awaySeconds: Question(from: held, to: back).seconds) ?? "away"
            return engine.stop(at: held, cause: .person(reason: reason))
        }
    }

    /// After every step of the engine at `t` (a tick, a command, an observation, an answer), with
    /// the step's events: adds the away notes to the work sessions that ended; takes a hold
    /// someone else ended (`focus resume`, a skip, a stop) as a pause that ended then; holds
    /// work that runs while the screen is locked. Returns the events to handle.
    package mutating func settle(_ events: [EngineEvent], at t: Duration, engine: inout CountdownEngine) -> [EngineEvent] {
        var out = annotate(events, at: t)
        if let held = heldSince, !engine.isPaused || engine.isFinished || engine.phase != .work {
            discarded += max(.zero, t - held)
            heldSince = nil
            question = nil
        }
        out += hold(at: t, engine: &engine)
        return out
    }

    /// Holds running work while the screen is locked (not under `keep`, not in a break, not
    /// when the person already paused it).
    private mutating func hold(at t: Duration, engine: inout CountdownEngine) -> [EngineEvent] {
        guard policy != .keep, lockedSince != nil, heldSince == nil, question == nil else { return [] }
        // A phase whose time ran out ends first: a break that began then is not held.
        let passed = annotate(engine.advance(to: t), at: t)
        guard engine.phase == .work, !engine.isPaused, !engine.isFinished else { return passed }
        heldSince = t
        return passed + engine.pause(at: t)
    }

    /// Adds "away 12m" to the note of each work session that ends in `events`: the time held
    /// and given up in it. A work session that ends while held (stopped from elsewhere) gives up
    /// the hold up to `t`.
    private mutating func annotate(_ events: [EngineEvent], at t: Duration) -> [EngineEvent] {
        events.map { event in
            guard case var .workEnded(record) = event else { return event }
            var away = discarded
            if let held = heldSince {
                away += max(.zero, t - held)
                heldSince = nil
            }
            discarded = .zero
            if let note = AwayTracker.note(awaySeconds: Int(away.seconds.rounded())) {
                record.note = record.note.map { $0 + "; " + note } ?? note
            }
            return .workEnded(record)
        }
    }
}
