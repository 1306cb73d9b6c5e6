import FoundationEssentials

/// What the running session looks like right now: for the view, the store's checkpoint and
/// `focus status`.
package struct SessionSnapshot: Sendable, Equatable {
    package var phase: Phase
    package var cycle: Int
    package var cycles: Int
    package var plannedSeconds: Int
    package var remaining: Duration
    package var isPaused: Bool
    package var phaseStartedAt: Date
    /// When the phase will end if nothing changes (nil while paused).
    package var endsAt: Date?
    /// Focus so far in the current work session, pauses excluded (0 in a break).
    package var focusedSeconds: Int
    /// Start of the current work session (nil in a break).
    package var workStartedAt: Date?
    package var workPlannedSeconds: Int
    /// While "Away 12m: keep, discard, or stop at 13:05?" waits for an answer: the moment `s`
    /// would stop the session at (the keys then mean k keep, d discard, s stop). Not stored.
    package var awayStopAt: Date? = nil

    package var remainingSeconds: Int { Int(remaining.seconds.rounded(.up)) }

    /// An open session (`focus start PATH --open`): it counts up with no planned length, so it
    /// has no end and no remaining time (a countdown's work length is at least a second).
    package var isOpen: Bool { workPlannedSeconds == 0 && phase == .work }

    package init(
        phase: Phase, cycle: Int, cycles: Int, plannedSeconds: Int, remaining: Duration, isPaused: Bool,
        phaseStartedAt: Date, endsAt: Date?, focusedSeconds: Int, workStartedAt: Date?, workPlannedSeconds: Int
    ) {
        self.phase = phase
        self.cycle = cycle
        self.cycles = cycles
        self.plannedSeconds = plannedSeconds
        self.remaining = remaining
        self.isPaused = isPaused
        self.phaseStartedAt = phaseStartedAt
        self.endsAt = endsAt
        self.focusedSeconds = focusedSeconds
        self.workStartedAt = workStartedAt
        self.workPlannedSeconds = workPlannedSeconds
    }
}

/// Where the runner keeps the session: the running-session row and the time log.
package protocol SessionStore: Sendable {
    /// Saves a finished work session; returns its log id. Called before anything says "completed".
    func record(_ work: WorkRecord) throws(FocusError) -> Int64
    /// Saves how far the session got (every `SessionRunner.checkpointInterval`, 5 s, and at every change).
    func checkpoint(_ snapshot: SessionSnapshot) throws(FocusError)
    /// The run is over: clears the running-session row.
    func finish() throws(FocusError)
}

/// Commands from the keyboard, signals and other terminals.
package enum SessionCommand: Sendable, Equatable {
    case togglePause
    case pause
    case resume
    case skip
    case stop(StopCause)
    /// The terminal asked the process to stop (Ctrl-Z, SIGTSTP): pause, let the process stop,
    /// and go on where it was when it is continued — the time stopped is a pause, not focus.
    case suspend
    /// Redraw now (the terminal was resized).
    case redraw
    /// The screen locked or the screen saver came on (true), or the person is back (false):
    /// an `AwayWatcher`'s observation, timed by the runner's clock when it arrives.
    case away(Bool)
    /// The person's answer to "Away 12m: keep, discard, or stop at 13:05?" (k, d; s stops).
    case awayAnswer(AwayTracker.Answer)
}

/// What the countdown says about time away from the screen (README, "Away from the screen").
package enum AwayMessage: Sendable, Equatable {
    /// "Away 12m: keep, discard, or stop at 13:05?"
    case question(awaySeconds: Int, stopAt: Date)
    /// The time away was not counted as focus (a pause).
    case discarded(awaySeconds: Int)
    /// The time away was counted as focus.
    case kept(awaySeconds: Int)
}

/// The screen (or a log of plain lines) that follows the session.
package protocol SessionView: Sendable {
    /// Called at every change and, when the view wants ticks, on each tick.
    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord])
    /// A problem that does not stop the session (a failed checkpoint).
    func warn(_ message: String)
    /// Time away from the screen: a question to answer, or what was made of it.
    func away(_ message: AwayMessage)
}

extension SessionView {
    package func away(_ message: AwayMessage) {}
}
