import FoundationEssentials

/// Blocks the person placed themselves (README, "Your real calendar"): a published block's
/// event dragged to another time in a calendar app is the person's choice. The block is pinned
/// there — the planner plans around it and counts it against the subtask's estimate — until
/// the person moves it again or `focus plan --unpin` hands it back to the planner.
package enum BlockPin {
    /// What a published block's event, found changed on the server, means.
    package enum Verdict: Sendable, Equatable {
        /// Same times as focus wrote them (an ETag changes for other reasons too).
        case unchanged
        /// Moved or resized by the person: pin the block at this time.
        case pin(start: Date, end: Date)
        /// Changed in another way (its text, made all-day, cancelled, unreadable): left as it
        /// is, with a warning, and focus no longer writes it.
        case edited
    }

    /// What the server's copy of a block's event says. `written` is the time focus gave the
    /// event; `found` the copy's start and end (nil when it does not read as a timed event:
    /// an all-day event or a text focus cannot read); a cancelled copy is never a move.
    /// SEQUENCE is not needed: the times alone say whether it moved (apps that move an event
    /// raise it, RFC 5545 section 3.8.7.4, but some do not).
    package static func decide(written: DateInterval, found: DateInterval?, cancelled: Bool) -> Verdict {
        guard let found, !cancelled, found.duration > 0 else { return .edited }
        func second(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded()) }
        if second(found.start) == second(written.start), second(found.end) == second(written.end) { return .unchanged }
        return .pin(start: found.start, end: found.end)
    }

    /// Whether a re-plan keeps a planned block where it is because it is pinned: it is pinned
    /// and its subtask is still open (a done or removed subtask's pinned blocks go).
    package static func holds(_ block: ScheduledBlock, openSubtasks: Set<Int64>) -> Bool {
        block.pinnedUID != nil && block.status == .planned && openSubtasks.contains(block.subtaskID)
    }
}
