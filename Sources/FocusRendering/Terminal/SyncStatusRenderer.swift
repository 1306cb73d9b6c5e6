import FocusCore
import FocusText
import FoundationEssentials

/// `focus sync status`, as text and as JSON (README, "Two machines"). Pure: `nil` is sync not
/// set up.
package enum SyncStatusRenderer {
    /// The lines of `sync status`, each ending in a newline; moments are said relative to `now`.
    package static func text(_ status: SyncStatus?, calendar: LocalCalendar, now: Date) -> DisplayText {
        guard let status else {
            return "Sync is not set up. Run `focus sync setup CALENDAR` with a calendar of a connected CalDAV account.\n"
        }
        func when(_ date: Date) -> String {
            "\(RelativeTime.moment(date, calendar: calendar, now: now)) (\(CalendarStaleness.ageText(now.timeIntervalSince(date))) ago)"
        }
        var out: DisplayText = "Syncing through \(status.calendar) (\(CalendarFeed.shownAddress(status.url))).\n"
        out += "Last sync: \(status.syncedAt.map { when($0) } ?? "never")\n"
        if status.failedSinceLastSync, let error = status.lastError, let at = status.lastErrorAt {
            out += "Last attempt failed \(when(at)): \(error)\n"
        }
        let pending = status.pending
        out += pending.total == 0 ? "Nothing waits to be sent.\n"
            : "Waiting to be sent: \(pending.changed) changed, \(pending.added) new, \(pending.removed) removed.\n"
        out += conflictLines(status.conflicts, calendar: calendar, when: when)
        if !status.skipped.isEmpty {
            let keys = status.skipped.map(\.description).joined(separator: ", ")
            out += "Settings from the other machines skipped at the last sync (the rest were merged): \(keys).\n"
        }
        return out
    }

    /// `sync status --json`: `{"set_up": false}` when sync is not set up.
    package static func json(_ status: SyncStatus?) -> JSON {
        guard let status else { return .object([("set_up", .bool(false))]) }
        let instant = { (date: Date?) -> JSON in date.map { .string(Timestamp.utc($0)) } ?? .null }
        let pending = status.pending
        return .object([
            ("set_up", .bool(true)), ("calendar", .string(status.calendar)), ("url", .string(status.url)),
            ("last_sync", instant(status.syncedAt)), ("last_error", status.lastError.map { .string($0) } ?? .null),
            ("last_error_at", instant(status.lastErrorAt)),
            ("pending", .object([("changed", .int(pending.changed)), ("new", .int(pending.added)), ("removed", .int(pending.removed))])),
            ("conflicts", .array(status.conflicts.map { c in
                .object([("item", .string(c.label)), ("field", .string(c.conflict.field)), ("local", .string(c.conflict.local)),
                         ("remote", .string(c.conflict.remote)), ("kept", .string(c.conflict.chosen == .local ? "local" : "remote")),
                         ("at", .string(Timestamp.utc(c.at)))])
            })),
            ("skipped_settings", .array(status.skipped.map { .object([("key", .string($0.key)), ("reason", .string($0.reason))]) })),
        ])
    }

    /// The items changed on both machines, then those a sync did not apply (each reason once):
    /// a refusal is no edit made on two machines.
    private static func conflictLines(_ conflicts: [SyncStatus.Conflict], calendar: LocalCalendar, when: (Date) -> String) -> DisplayText {
        let refused = conflicts.filter(\.notApplied)
        let both = conflicts.filter { !$0.notApplied }
        var out: DisplayText = ""
        if both.isEmpty {
            out += "No conflicts in the last 30 days.\n"
        } else {
            out += "Changed on both machines (last 30 days; the later edit was kept):\n"
            for c in both { out += "  \(SyncConflictText.line((c.label, c.conflict), calendar: calendar)) · \(when(c.at))\n" }
        }
        if !refused.isEmpty {
            out += "Not applied here (last 30 days):\n"
            for c in refused { out += "  \(SyncConflictText.line((c.label, c.conflict), calendar: calendar)) · \(when(c.at))\n" }
        }
        return out
    }
}
