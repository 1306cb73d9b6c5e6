import FocusCore
import FocusRendering
import FocusText
import Foundation
import Testing

/// `focus doctor`'s report from values: the table, the count of problems, and the words of the
/// findings about the database's contents (no database, no server).
@Suite struct DoctorRendererTests {
    private let utc = LocalCalendar(zone: .utc)
    // Mon 7 Dec 2026 12:00 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_644_800)

    private func feed(_ name: String, _ state: FeedState, connected: Bool = false, events: Int = 3) -> CalendarSummary {
        CalendarSummary(id: 1, name: name, source: connected ? "https://dav.example.org/alice/\(name)/" : "https://example.org/\(name).ics",
                        timeZone: "UTC", eventCount: events, occurrenceCount: events, horizon: DateInterval(start: now, duration: 0),
                        importedAt: now.addingTimeInterval(-86_400), feedState: state.encoded, connected: connected)
    }

    @Test func labelsArePaddedAndProblemsCountedAfterAnEmptyLine() {
        let fine = [DoctorFinding(label: "version", value: "focus 1.0"), .warning("notifications", "no notification server")]
        #expect(DoctorRenderer.text(fine).string == "version        focus 1.0\nnotifications  ! no notification server\n", "a warning is no problem")
        let two = fine + [.problem("time zone", "TZ=Mars/Base could not be read"), .problem("values", "1 stored value is out of range")]
        #expect(DoctorRenderer.text(two).string == """
            version        focus 1.0
            notifications  ! no notification server
            time zone      ✗ TZ=Mars/Base could not be read
            values         ✗ 1 stored value is out of range

            2 problems found.

            """)
        #expect(DoctorRenderer.text([.problem("sync", "failed")]).string.hasSuffix("\n1 problem found.\n"))
    }

    @Test func outOfRangeValuesAreOneProblemWithTheValuesListed() {
        #expect(DoctorRenderer.values(total: 0, listed: []) == [DoctorFinding(label: "values", value: "every stored number is within its range")])
        let found = DoctorRenderer.values(total: 3, listed: ["timeLog 4 focusedSeconds = -5"])
        #expect(found.map(\.value) == [
            "✗ 3 stored values are out of range (focus reads them clamped; fix with sqlite3 or `focus restore` a backup):",
            "✗ timeLog 4 focusedSeconds = -5", "✗ ... and 2 more",
        ])
        #expect(found.filter(\.problem).count == 1)
    }

    @Test func aLiveCalendarIsFreshOldOrFailed() {
        let fresh = feed("Work", FeedState(fetchedAt: now.addingTimeInterval(-600)), connected: true)
        var failedState = FeedState(fetchedAt: now.addingTimeInterval(-3 * 86_400))
        failedState.lastError = "the server answered 500."
        failedState.lastErrorAt = now.addingTimeInterval(-60)
        let old = feed("Fair", FeedState(fetchedAt: now.addingTimeInterval(-3 * 86_400)))
        let file = CalendarSummary(id: 2, name: "File", source: "/home/me/file.ics", timeZone: "UTC", eventCount: 1, occurrenceCount: 1,
                                   horizon: DateInterval(start: now, duration: 0), importedAt: now)
        let lines = DoctorRenderer.calendars([fresh, old, feed("Holidays", failedState), file], refreshSeconds: nil, calendar: utc, now: now)
        #expect(lines == [
            DoctorFinding(label: "caldav", value: "'Work' fetched Mon 7 Dec 11:50 (10 min ago)"),
            DoctorFinding(label: "feed", value: "calendar 'Fair' was last refreshed 3 days ago (`focus calendar refresh` fetches it now)"),
            .problem("feed", "calendar 'Holidays' was last refreshed 3 days ago; its last refresh failed: the server answered 500"),
        ])
    }

    @Test func anEmptyAnswerKeptAsideAndAFailedPublicationWait() {
        var state = FeedState(fetchedAt: now.addingTimeInterval(-7_200))
        state.emptyKeptAsideAt = now.addingTimeInterval(-3_600)
        #expect(DoctorRenderer.keptAside([feed("Work", state, connected: true, events: 1), feed("Fair", FeedState(fetchedAt: now))], calendar: utc, now: now) == [
            .problem("caldav", "'Work' came back with no events Mon 7 Dec 11:00; the copy of 1 event is kept and used "
                     + "(`focus calendar refresh 'Work' --accept-empty` takes the empty one)"),
        ])
        #expect(DoctorRenderer.publishWaiting(calendar: "Plan", lastError: "timed out.")
            == .problem("publish", "the plan waits to be published to 'Plan': the last try failed: timed out. "
                        + "(the next command that changes the plan, or `focus daemon`, tries again)"))
    }

    @Test func storedSettingsAndSync() {
        #expect(DoctorRenderer.storedSetting("account https://dav.example.org/ (alice)", trusted: true)
            == DoctorFinding(label: "stored", value: "account https://dav.example.org/ (alice) (set up on this machine)"))
        #expect(DoctorRenderer.storedSetting("feed https://example.org/", trusted: false).problem)
        #expect(DoctorRenderer.sync(calendar: "focus", syncedAt: nil, lastError: nil, lastErrorAt: nil, zone: utc, now: now)
            == DoctorFinding(label: "sync", value: "'focus' not synced yet (`focus sync`)"))
        #expect(DoctorRenderer.sync(calendar: "focus", syncedAt: now.addingTimeInterval(-120), lastError: nil, lastErrorAt: nil, zone: utc, now: now)
            == DoctorFinding(label: "sync", value: "'focus' synced Mon 7 Dec 11:58 (2 min ago)"))
        #expect(DoctorRenderer.sync(calendar: "focus", syncedAt: now.addingTimeInterval(-120), lastError: "refused.", lastErrorAt: now.addingTimeInterval(-60),
                                    zone: utc, now: now)
            == .problem("sync", "the last sync with 'focus' failed 1 min ago: refused."))
    }
}
