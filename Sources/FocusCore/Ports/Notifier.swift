import FoundationEssentials

/// A desktop notification, independent of how it is delivered.
package struct Notice: Sendable, Equatable {
    package enum Urgency: String, Sendable, Equatable { case low, normal, critical }
    package enum Kind: String, Sendable, Equatable {
        case workCompleted = "work_completed"
        case breakOver = "break_over"
        case longBreakStarted = "long_break_started"
        case blockReminder = "block_reminder"
        case blockStarts = "block_starts"
        case daySummary = "day_summary"
        case planChanged = "plan_changed"
        case test
    }

    package var kind: Kind
    package var summary: String
    package var body: String
    package var urgency: Urgency
    /// Milliseconds before the server may hide it; nil means the server's default.
    package var expiresAfterMilliseconds: Int?

    package init(kind: Kind, summary: String, body: String, urgency: Urgency = .normal, expiresAfterMilliseconds: Int? = nil) {
        self.kind = kind
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.expiresAfterMilliseconds = expiresAfterMilliseconds
    }
}

/// Delivers notices. Posting never throws into a session and never blocks the countdown:
/// an implementation that cannot deliver falls back or drops the notice by itself.
package protocol Notifier: Sendable {
    func post(_ notice: Notice) async
}

/// Drops every notice (notifications turned off).
package struct SilentNotifier: Notifier {
    package init() {}
    package func post(_ notice: Notice) async {}
}
