import FoundationEssentials

/// What `focus sync status` shows (README, "Two machines"): the calendar synced through, the
/// last sync and the last failure, what waits to be sent, the conflicts of the last 30 days and
/// the settings skipped. Read by storage; FocusRendering's `SyncStatusRenderer` shows it.
package struct SyncStatus: Sendable, Equatable {
    /// A field changed on both machines, or an item a sync did not apply (`field` "not applied").
    package struct Conflict: Sendable, Equatable {
        package var label: String
        package var conflict: SyncConflict
        package var at: Date

        package init(label: String, conflict: SyncConflict, at: Date) {
            self.label = label
            self.conflict = conflict
            self.at = at
        }

        /// A sync refused it here: no edit made on two machines.
        package var notApplied: Bool { conflict.field == "not applied" }
    }

    /// The changes made here since the last sync.
    package struct Pending: Sendable, Equatable {
        package var changed: Int
        package var added: Int
        package var removed: Int

        package init(changed: Int, added: Int, removed: Int) {
            self.changed = changed
            self.added = added
            self.removed = removed
        }

        package var total: Int { changed + added + removed }
    }

    /// The sync calendar's name and address.
    package var calendar: String
    package var url: String
    package var syncedAt: Date?
    package var lastError: String?
    package var lastErrorAt: Date?
    package var pending: Pending
    package var conflicts: [Conflict]
    package var skipped: [SyncSettings.Skipped]

    package init(calendar: String, url: String, syncedAt: Date?, lastError: String?, lastErrorAt: Date?, pending: Pending,
                 conflicts: [Conflict], skipped: [SyncSettings.Skipped]) {
        self.calendar = calendar
        self.url = url
        self.syncedAt = syncedAt
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.pending = pending
        self.conflicts = conflicts
        self.skipped = skipped
    }

    /// The last attempt failed after the last sync that worked.
    package var failedSinceLastSync: Bool {
        guard lastError != nil, let at = lastErrorAt else { return false }
        return at >= (syncedAt ?? .distantPast)
    }
}
