import FocusText
import FoundationEssentials

/// One thing publishing the plan to the calendars it is published in has to say (README, "Your
/// real calendar"), as a value: commands and the daemon hand each to FocusRendering's
/// `PublishRenderer`. Only `published` is a result; the rest are notes and warnings.
package enum PublishReport: Sendable, Equatable {
    /// The plan was written to a calendar.
    case published(PublishedPlan)
    /// Something to know that is no problem (a block pinned, a calendar made again).
    case note(String)
    /// A part of the publication that did not go as planned.
    case warning(String)
    /// The calendar holds another machine's plan: this machine stopped publishing there, its
    /// `deleted` blocks ahead deleted from it.
    case gaveUp(calendar: String, blocksThere: Int, host: String, deleted: Int)
    /// The publication failed and waits for the next one.
    case failed(calendar: String, reason: String)

    /// Whether this is said as a warning or note (standard error), not as a result.
    package var isWarning: Bool {
        if case .published = self { return false }
        return true
    }

    /// The refusal of a calendar that holds the plan another machine publishes (`blocksThere`
    /// blocks ahead, from `host`): one calendar holds one plan.
    package static func otherPlan(calendar: String, blocksThere: Int, host: String) -> String {
        "calendar '\(DisplayText(calendar).string)' holds the plan that focus on \(DisplayText(String(host.prefix(64))).string) publishes "
            + "(\(blocksThere) block\(blocksThere == 1 ? "" : "s") ahead): one calendar holds one plan. Publish from that machine, "
            + "or stop it there first (`focus calendar publish \(Quoted.shell(calendar)) --stop`), or publish here to another calendar."
    }
}

/// What a publication wrote to a calendar: how many blocks and sessions it holds, and how many
/// events were made, written again, updated and removed.
package struct PublishedPlan: Sendable, Equatable {
    package var calendar: String
    package var blocks: Int
    package var sessions: Int
    package var created: Int
    package var restored: Int
    package var updated: Int
    package var deleted: Int

    package init(calendar: String, blocks: Int, sessions: Int, created: Int = 0, restored: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.calendar = calendar
        self.blocks = blocks
        self.sessions = sessions
        self.created = created
        self.restored = restored
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether any event was written or deleted.
    package var changedSomething: Bool { created + restored + updated + deleted > 0 }
}
