import FoundationEssentials

/// A calendar another machine syncs focus's history through (README, "Two machines"): on a
/// machine that connects the account before it sets up sync, it must not count as busy time
/// (it was listed as "✓ busy time", stored, and removed again at `sync setup`).
package enum FocusHistoryCalendar {
    /// Whether the resources hold focus's sync data: an item written by `focus sync` (its
    /// PRODID, or its `X-FOCUS-KIND`). `sync setup` takes only a calendar that holds nothing but
    /// focus's data and other apps' to-dos, so one such item marks the calendar.
    package static func holdsFocusHistory(_ items: [Data]) -> Bool {
        items.contains { data in
            let text = String(decoding: data, as: UTF8.self)
            return text.contains("PRODID:-//focus//sync//EN") || text.contains("X-FOCUS-KIND:")
        }
    }
}
