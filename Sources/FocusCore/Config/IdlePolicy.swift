/// What time behind a locked screen (or an active screen saver) is, config `idle` (README,
/// "Away from the screen").
package enum IdlePolicy: String, Sendable, Equatable, CaseIterable {
    /// On return, the countdown asks: keep it, discard it, or stop the session at the lock.
    case ask
    /// Counted as a pause: the session's focused time excludes it, its note says "away 12m".
    case discard
    /// Counted as focus, as if nobody had left.
    case keep

    /// The policy a countdown follows: `ask` needs someone to answer at a terminal; without one
    /// (output to a pipe, a background job, no controlling terminal) it behaves as `discard`,
    /// so time nobody vouched for is never counted as focus.
    package func effective(canAsk: Bool) -> IdlePolicy {
        self == .ask && !canAsk ? .discard : self
    }
}
