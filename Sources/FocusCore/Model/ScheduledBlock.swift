import FoundationEssentials

package enum BlockStatus: String, Sendable, Codable, CaseIterable {
    /// In the future (or running now) and not yet worked.
    case planned
    /// Its time was fully worked.
    case done
    /// Some, but not all, of its time was worked.
    case partial
    /// It passed with no session.
    case missed
}

/// A work block the scheduler placed for a subtask.
package struct ScheduledBlock: Sendable, Equatable, Hashable {
    package var id: Int64?
    package var subtaskID: Int64
    package var startedAt: Date
    package var endedAt: Date
    package var status: BlockStatus
    /// Set when the person moved the block's published event in a calendar app (README,
    /// "Your real calendar"): the UID of that event. A pinned block stays where it is until
    /// the person moves it again or `focus plan --unpin` lets the planner place it.
    package var pinnedUID: String?

    package init(id: Int64? = nil, subtaskID: Int64, startedAt: Date, endedAt: Date, status: BlockStatus = .planned, pinnedUID: String? = nil) {
        self.id = id
        self.subtaskID = subtaskID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.status = status
        self.pinnedUID = pinnedUID
    }
}
