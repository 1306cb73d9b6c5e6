import FocusCore
import FocusRendering
import FocusText
import Foundation
import Testing

/// `focus sync status` and its `--json`, from a value (no database, no server).
@Suite struct SyncStatusRendererTests {
    private let utc = LocalCalendar(zone: .utc)
    // Mon 7 Dec 2026 12:00 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_644_800)

    private func status(syncedAt: Date?, lastErrorAt: Date?, pending: SyncStatus.Pending = .init(changed: 0, added: 0, removed: 0),
                        conflicts: [SyncStatus.Conflict] = [], skipped: [SyncSettings.Skipped] = []) -> SyncStatus {
        SyncStatus(calendar: "focus", url: "https://dav.example.org/alice/focus/", syncedAt: syncedAt, lastError: lastErrorAt.map { _ in "the server timed out." },
                   lastErrorAt: lastErrorAt, pending: pending, conflicts: conflicts, skipped: skipped)
    }

    @Test func notSetUpSaysHowToSetItUp() {
        #expect(SyncStatusRenderer.text(nil, calendar: utc, now: now).string
            == "Sync is not set up. Run `focus sync setup CALENDAR` with a calendar of a connected CalDAV account.\n")
        #expect(SyncStatusRenderer.json(nil).rendered() == #"{"set_up": false}"#)
    }

    @Test func aQuietSyncSaysWhenAndThatNothingWaits() {
        let text = SyncStatusRenderer.text(status(syncedAt: now.addingTimeInterval(-300), lastErrorAt: nil), calendar: utc, now: now).string
        #expect(text == """
            Syncing through focus (https://dav.example.org/…).
            Last sync: Mon 7 Dec 11:55 (5 min ago)
            Nothing waits to be sent.
            No conflicts in the last 30 days.

            """)
    }

    @Test func aFailureSinceTheLastSyncWaitingChangesConflictsAndSkippedSettingsAreListed() {
        let edited = SyncStatus.Conflict(label: "Thesis", conflict: SyncConflict(uid: "t1", field: "title", local: "Thesis", remote: "Thesis draft", chosen: .remote),
                                         at: now.addingTimeInterval(-3_600))
        let refused = SyncStatus.Conflict(label: "a session of an unknown task", conflict: SyncConflict(uid: "s1", field: "not applied", local: "", remote: "", chosen: .local),
                                          at: now.addingTimeInterval(-7_200))
        let value = status(syncedAt: nil, lastErrorAt: now.addingTimeInterval(-60), pending: .init(changed: 2, added: 1, removed: 0),
                           conflicts: [edited, refused], skipped: [SyncSettings.Skipped(key: "off.today", reason: "not a day: YYYY-MM-DD")])
        let lines = SyncStatusRenderer.text(value, calendar: utc, now: now).string.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "Syncing through focus (https://dav.example.org/…).")
        #expect(lines[1] == "Last sync: never")
        #expect(lines[2] == "Last attempt failed Mon 7 Dec 11:59 (1 min ago): the server timed out.")
        #expect(lines[3] == "Waiting to be sent: 2 changed, 1 new, 0 removed.")
        #expect(lines[4] == "Changed on both machines (last 30 days; the later edit was kept):")
        #expect(lines[5].hasPrefix("  Thesis") && lines[5].hasSuffix(" · Mon 7 Dec 11:00 (1 h ago)"), "\(lines[5])")
        #expect(lines[6] == "Not applied here (last 30 days):")
        #expect(lines[7].hasPrefix("  ") && lines[7].hasSuffix(" · Mon 7 Dec 10:00 (2 h ago)"), "\(lines[7])")
        #expect(lines[8] == "Settings from the other machines skipped at the last sync (the rest were merged): off.today (not a day: YYYY-MM-DD).")
        #expect(lines[9] == "" && lines.count == 10)
    }

    @Test func aFailureBeforeTheLastSyncIsNotSaid() {
        let text = SyncStatusRenderer.text(status(syncedAt: now.addingTimeInterval(-60), lastErrorAt: now.addingTimeInterval(-120)), calendar: utc, now: now).string
        #expect(!text.contains("Last attempt failed"))
    }

    @Test func theJSONHasEveryFieldInItsOrder() {
        let conflict = SyncStatus.Conflict(label: "Thesis", conflict: SyncConflict(uid: "t1", field: "title", local: "Thesis", remote: "Thesis draft", chosen: .remote),
                                           at: now.addingTimeInterval(-3_600))
        let value = status(syncedAt: now.addingTimeInterval(-300), lastErrorAt: nil, pending: .init(changed: 2, added: 1, removed: 3),
                           conflicts: [conflict], skipped: [SyncSettings.Skipped(key: "off.today", reason: "not a day")])
        #expect(SyncStatusRenderer.json(value).rendered() == #"{"set_up": true, "calendar": "focus", "url": "https://dav.example.org/alice/focus/", "#
            + #""last_sync": "2026-12-07T11:55:00Z", "last_error": null, "last_error_at": null, "pending": {"changed": 2, "new": 1, "removed": 3}, "#
            + #""conflicts": [{"item": "Thesis", "field": "title", "local": "Thesis", "remote": "Thesis draft", "kept": "remote", "at": "2026-12-07T11:00:00Z"}], "#
            + #""skipped_settings": [{"key": "off.today", "reason": "not a day"}]}"#)
    }
}
