import FoundationEssentials

/// The desktop notices a run produces, with texts a person can act on. Interrupted sessions are
/// not notified: the person did it.
package struct SessionNotices: Sendable {
    package var path: String
    /// Focus already logged today before this run began.
    package var todayBefore: Int
    package var enabled: Bool
    package var workEndUrgency: Notice.Urgency
    package var expiryMilliseconds: Int?

    package init(path: String, todayBefore: Int, enabled: Bool = true, workEndUrgency: Notice.Urgency = .critical, expiryMilliseconds: Int? = 10_000) {
        self.path = path
        self.todayBefore = todayBefore
        self.enabled = enabled
        self.workEndUrgency = workEndUrgency
        self.expiryMilliseconds = expiryMilliseconds
    }

    /// `25 min`, `1h 30m`, `90s`.
    package static func length(_ seconds: Int) -> String {
        if seconds >= 60, seconds < 3600, seconds % 60 == 0 { return "\(seconds / 60) min" }
        return DurationParser.format(seconds)
    }

    /// The notice for one event, given the engine after the event's batch.
    package func notice(for event: EngineEvent, engine: CountdownEngine) -> Notice? {
        guard enabled else { return nil }
        switch event {
        case let .workEnded(record) where record.status == .completed:
            var parts = ["\(SessionNotices.length(record.plannedSeconds)) done"]
            if engine.plan.count != 1 { parts.append("\(engine.cycle) of \(engine.plan.cycles)") }
            parts.append("\(DurationParser.format(todayBefore + engine.focusedSecondsRecorded)) today")
            if !engine.isFinished, engine.phase != .work, engine.plannedSeconds > 0 {
                parts.append("\(SessionNotices.length(engine.plannedSeconds)) \(engine.phase == .longBreak ? "long break" : "break")")
            }
            return Notice(kind: .workCompleted, summary: "Focus complete: \(path)", body: parts.joined(separator: " · "),
                          urgency: workEndUrgency, expiresAfterMilliseconds: nil)
        case .breakEnded:
            return Notice(kind: .breakOver, summary: "Break over",
                          body: "Back to \(path) (\(SessionNotices.length(engine.plan.workSeconds)))",
                          urgency: .normal, expiresAfterMilliseconds: expiryMilliseconds)
        case let .phaseStarted(.longBreak, _, planned):
            return Notice(kind: .longBreakStarted, summary: "Long break",
                          body: "\(SessionNotices.length(planned)) · \(engine.completedWorkSessions) sessions done — step away from the screen",
                          urgency: .normal, expiresAfterMilliseconds: expiryMilliseconds)
        default:
            return nil
        }
    }
}
