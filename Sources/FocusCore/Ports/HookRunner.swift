import FoundationEssentials

/// The moments a person can attach a script to: each is an executable file of this name in
/// `$XDG_CONFIG_HOME/focus/hooks/`.
package enum HookEvent: String, Sendable, Equatable, CaseIterable {
    /// A work session reached 0:00 and was recorded as completed.
    case sessionCompleted = "session-completed"
    /// A work session was stopped early and recorded as interrupted.
    case sessionInterrupted = "session-interrupted"
    /// A short or long break ended.
    case breakOver = "break-over"
    /// A planned block begins (sent by `focus daemon`).
    case blockStarts = "block-starts"
}

/// Runs the person's hook for an event with its JSON on standard input. Like `Notifier`, it
/// never throws into a session: a missing hook is nothing, a failing or slow one is logged and
/// bounded in time by the implementation. Callers run it off their main path.
package protocol HookRunner: Sendable {
    func run(_ event: HookEvent, payload: JSON) async
}

/// Runs nothing (tests of other things, and no hooks configured).
package struct NoHooks: HookRunner {
    package init() {}
    package func run(_ event: HookEvent, payload: JSON) async {}
}
