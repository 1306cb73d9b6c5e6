import FoundationEssentials

/// Drives a `CountdownEngine` with a real (or test) clock: sleeps until the next deadline, a
/// redraw tick or a checkpoint, whichever comes first, wakes at once for commands, records every
/// work session in the store before telling anyone it is over, and posts notices without ever
/// waiting for them on the tick path.
package struct SessionRunner<C: Clock>: Sendable where C.Duration == Duration {
    package var clock: C
    package var now: @Sendable () -> Date
    package var store: any SessionStore
    package var view: any SessionView
    package var notifier: any Notifier
    package var notices: SessionNotices
    /// The person's hook scripts (none unless set): run like notices, never waited on while ticking.
    package var hooks: SessionHooks?
    package var mailbox: Mailbox<SessionCommand>
    /// Redraw interval for a live view (nil: update only on changes).
    package var tick: Duration?
    /// How often progress is saved while nothing else happens (the crash-recovery granularity).
    package var checkpointInterval: Duration = .seconds(5)
    /// Total time the machine has slept since start-up (continuous clock minus suspending clock).
    /// A jump of more than `suspendThreshold` between two wake-ups means the machine was suspended.
    package var sleptSoFar: @Sendable () -> Duration = { .zero }
    package var suspendThreshold: Duration = .seconds(3)
    /// Where notices go out, in order and off the session's path (one task held at a time).
    package var poster = NoticePoster()
    /// Hooks, one after another, apart from the notices.
    package var hookPoster = NoticePoster()
    /// Called after a `.suspend` has paused the session and saved it: restores the terminal and
    /// stops the process; returns once the process is continued. Nil: the pause alone.
    package var park: (@Sendable () async -> Void)?
    /// What time behind a locked screen is (config `idle`, already resolved for whether anyone
    /// can be asked). Observations arrive in the mailbox as `.away`; `.keep` changes nothing.
    package var idle: IdlePolicy = .keep

    package init(
        clock: C, now: @escaping @Sendable () -> Date, store: any SessionStore, view: any SessionView,
        notifier: any Notifier, notices: SessionNotices, mailbox: Mailbox<SessionCommand>, tick: Duration?
    ) {
        self.clock = clock
        self.now = now
        self.store = store
        self.view = view
        self.notifier = notifier
        self.notices = notices
        self.mailbox = mailbox
        self.tick = tick
    }

    /// The outcome of a run: every work session recorded, and how it ended.
    package struct Outcome: Sendable, Equatable {
        package var recorded: [Int64: WorkRecord]
        package var order: [Int64]
        package var cause: StopCause?
        package var engine: CountdownEngine.Summary
        /// Work sessions that ended but could not be saved, with why: never reported as recorded.
        package var unrecorded: [WorkRecord] = []
        package var recordError: FocusError?
    }

    package func run(plan: SessionPlan) async -> Outcome {
        let origin = clock.now
        var engine = CountdownEngine(plan: plan, startWall: now())
        var recorded: [Int64: WorkRecord] = [:]
        var order: [Int64] = []
        var cause: StopCause?
        var unrecorded: [WorkRecord] = []
        var recordError: FocusError?
        var lastCheckpoint: Duration = .zero
        var slept = sleptSoFar()
        var away = AwayTracker(policy: idle)

        func offset() -> Duration { origin.duration(to: clock.now) }

        func saveCheckpoint(_ snap: SessionSnapshot, at t: Duration) {
            do {
                try store.checkpoint(snap)
                lastCheckpoint = t
            } catch {
                view.warn("could not save progress: \(error.description)")
            }
        }

        func handle(_ events: [EngineEvent], at t: Duration) {
            var fresh: [Int64: WorkRecord] = [:]
            // Notices and hooks go out after the view has shown what happened, so the line
            // "✓ completed … (recorded as #1)" comes before a notice printed in the terminal.
            var outgoing: [() -> Void] = []
            for event in events {
                var recordedAs: Int64?
                switch event {
                case let .workEnded(record):
                    do {
                        let id = try store.record(record)
                        recordedAs = id
                        recorded[id] = record
                        fresh[id] = record
                        order.append(id)
                    } catch {
                        // Said as it is: the view gets no id for it and says it was not recorded,
                        // no hook claims it, and the run ends with an error.
                        unrecorded.append(record)
                        recordError = error
                        view.warn("could not record the session: \(error.description)")
                    }
                case let .finished(c):
                    cause = c
                default: break
                }
                if let notice = notices.notice(for: event, engine: engine) {
                    let (poster, notifier) = (poster, notifier)
                    outgoing.append { poster.post(notice, via: notifier) }
                }
                if case .workEnded = event, recordedAs == nil {
                    // Not recorded: the session hooks run for recorded sessions only.
                } else if let hooks, let (hook, payload) = hooks.call(for: event, recordedAs: recordedAs, engine: engine, at: engine.wallClock(at: t)) {
                    let (runner, hookPoster) = (hooks.runner, hookPoster)
                    outgoing.append { hookPoster.enqueue { await runner.run(hook, payload: payload) } }
                }
            }
            let snap = engine.snapshot(at: t)
            if !engine.isFinished { saveCheckpoint(snap, at: t) }
            view.update(snap, events: events, recorded: fresh)
            for send in outgoing { send() }
        }

        func lock(at t: Duration) -> [EngineEvent] {
            away.locked(at: t)
            return []
        }

        func unlock(at t: Duration) -> [EngineEvent] {
            let held = away.heldSince
            let events = away.unlocked(at: t, engine: &engine)
            if let question = away.question {
                view.away(.question(awaySeconds: question.seconds, stopAt: engine.wallClock(at: question.from)))
            } else if let held {
                view.away(.discarded(awaySeconds: AwayTracker.Question(from: held, to: t).seconds))
            }
            return events
        }

        func answerAway(_ answer: AwayTracker.Answer, at t: Duration) -> [EngineEvent] {
            guard let question = away.question else { return [] }
            let seconds = AwayTracker.Question(from: question.from, to: t).seconds
            let events = away.answer(answer, at: t, engine: &engine)
            switch answer {
            case .keep: view.away(.kept(awaySeconds: seconds))
            case .discard: view.away(.discarded(awaySeconds: seconds))
            case .stop: break
            }
            return events
        }

        handle(engine.start(), at: .zero)

        while !engine.isFinished {
            let t = offset()
            var wake = lastCheckpoint + checkpointInterval
            if let d = engine.deadline { wake = min(wake, d) }
            if let tick { wake = min(wake, t + tick) }
            let command = await waitForCommand(until: origin.advanced(by: max(wake, t)))
            let at = offset()

            // A suspend shows as the continuous clock running ahead of this one.
            let sleptNow = sleptSoFar()
            if sleptNow - slept > suspendThreshold {
                handle(engine.stop(at: at, cause: .suspend(slept: sleptNow - slept)), at: at)
                break
            }
            slept = sleptNow

            var events = engine.advance(to: at)
            if command == .suspend {
                // Ctrl-Z: paused and saved before the process stops, resumed when it is continued.
                let wasPaused = engine.isPaused
                if !wasPaused { events += engine.pause(at: at) }
                if !events.isEmpty { handle(events, at: at) }
                events = []
                if !engine.isFinished, let park { await park() }
                // A suspend of the machine while the process was stopped happened in a pause.
                slept = sleptSoFar()
                let back = offset()
                if !wasPaused, !engine.isFinished { handle(engine.resume(at: back), at: back) }
                continue
            }
            switch away.question == nil ? command : AwayTracker.answerKey(command) {
            case let .away(isAway)?: events += isAway ? lock(at: at) : unlock(at: at)
            case let .awayAnswer(answer)?: events += answerAway(answer, at: at)
            case .togglePause?: events += engine.isPaused ? engine.resume(at: at) : engine.pause(at: at)
            case .pause?: events += engine.pause(at: at)
            case .resume?: events += engine.resume(at: at)
            case .skip?: events += engine.skip(at: at)
            case let .stop(c)?: events += engine.stop(at: at, cause: c)
            case .redraw?, .suspend?, nil: break
            }
            events = away.settle(events, at: at, engine: &engine)
            if events.isEmpty {
                let snap = engine.snapshot(at: at)
                if at - lastCheckpoint >= checkpointInterval, !engine.isFinished { saveCheckpoint(snap, at: at) }
                view.update(snap, events: [], recorded: [:])
            } else {
                handle(events, at: at)
            }
        }
        do { try store.finish() } catch { view.warn("could not clear the running session: \(error.description)") }
        // Notices and hooks already started get their (bounded) time to finish before the process exits.
        await poster.drain()
        await hookPoster.drain()
        return Outcome(recorded: recorded, order: order, cause: cause, engine: engine.summary, unrecorded: unrecorded, recordError: recordError)
    }

    /// Sleeps until `deadline` unless a command arrives first.
    private func waitForCommand(until deadline: C.Instant) async -> SessionCommand? {
        if let queued = mailbox.poll() { return queued }
        let clock = self.clock
        let mailbox = self.mailbox
        return await withTaskGroup(of: SessionCommand?.self) { group in
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return nil
            }
            group.addTask { await mailbox.next() }
            var got: SessionCommand?
            for await result in group {
                group.cancelAll()
                if let result { got = result }
            }
            return got
        }
    }
}

extension CountdownEngine {
    package struct Summary: Sendable, Equatable {
        package var completedWorkSessions: Int
        package var workSessionsEnded: Int
    }

    package var summary: Summary { Summary(completedWorkSessions: completedWorkSessions, workSessionsEnded: workSessionsEnded) }

    package func snapshot(at t: Duration) -> SessionSnapshot {
        let remaining = remaining(at: t)
        let focused = phase == .work ? Int(elapsed(at: t).seconds.rounded()) : 0
        return SessionSnapshot(
            phase: phase, cycle: cycle, cycles: plan.cycles, plannedSeconds: plannedSeconds, remaining: remaining,
            isPaused: isPaused, phaseStartedAt: phaseStartedAt,
            endsAt: isPaused ? nil : wallClock(at: t + remaining),
            focusedSeconds: focused, workStartedAt: phase == .work ? phaseStartedAt : nil,
            workPlannedSeconds: plan.workSeconds)
    }
}
