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

    /// Runs `plan` until it is over; time behind a locked screen is as `idle` says.
    package func run(plan: SessionPlan) async -> Outcome {
        let origin = clock.now
        func offset() -> Duration { origin.duration(to: clock.now) }
        var live = LiveSession(plan: plan, startWall: now(), slept: sleptSoFar(), tick: tick,
                               checkpointInterval: checkpointInterval, suspendThreshold: suspendThreshold)
        live.away = AwayTracker(policy: idle)
        var outcome = Outcome(recorded: [:], order: [], cause: nil, engine: live.engine.summary)
        var pending = live.start()
        while true {
            for effect in pending { perform(effect, &live, &outcome) }
            pending = []
            guard !live.isFinished else { break }
            let command = await waitForCommand(until: origin.advanced(by: live.wake(at: offset())))
            pending = live.observe(.woke(at: offset(), slept: sleptSoFar(), command: command))
            if pending.last == .park {
                pending.removeLast()
                for effect in pending { perform(effect, &live, &outcome) }
                if let park, !live.isFinished { await park() }
                pending = live.observe(.continued(at: offset(), slept: sleptSoFar()))
            }
        }
        do { try store.finish() } catch { view.warn("could not clear the running session: \(error.description)") }
        // Notices and hooks already started get their (bounded) time to finish before the process exits.
        await poster.drain()
        await hookPoster.drain()
        outcome.engine = live.engine.summary
        return outcome
    }

    /// Does what the live session decided: records, redraws, saves, notifies.
    private func perform(_ effect: LiveEffect, _ live: inout LiveSession, _ outcome: inout Outcome) {
        switch effect {
        case let .handle(events, at, checkpoint):
            handle(events, at: at, checkpoint: checkpoint, &live, &outcome)
        case let .redraw(at, checkpoint):
            let snap = live.snapshot(at: at)
            if checkpoint { save(snap, at: at, &live) }
            view.update(snap, events: [], recorded: [:])
        case let .tell(message):
            view.away(message)
        case .park:
            break
        }
    }

    private func save(_ snap: SessionSnapshot, at t: Duration, _ live: inout LiveSession) {
        do {
            try store.checkpoint(snap)
            live.saved(at: t)
        } catch {
            view.warn("could not save progress: \(error.description)")
        }
    }

    private func handle(_ events: [EngineEvent], at t: Duration, checkpoint: Bool, _ live: inout LiveSession, _ outcome: inout Outcome) {
        let engine = live.engine
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
                    outcome.recorded[id] = record
                    fresh[id] = record
                    outcome.order.append(id)
                } catch {
                    // Said as it is: the view gets no id for it and says it was not recorded,
                    // no hook claims it, and the run ends with an error.
                    outcome.unrecorded.append(record)
                    outcome.recordError = error
                    view.warn("could not record the session: \(error.description)")
                }
            case let .finished(c):
                outcome.cause = c
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
        let snap = live.snapshot(at: t)
        if checkpoint { save(snap, at: t, &live) }
        view.update(snap, events: events, recorded: fresh)
        for send in outgoing { send() }
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
            endsAt: isPaused || plan.isOpen ? nil : wallClock(at: t + remaining),
            focusedSeconds: focused, workStartedAt: phase == .work ? phaseStartedAt : nil,
            workPlannedSeconds: plan.workSeconds)
    }
}
