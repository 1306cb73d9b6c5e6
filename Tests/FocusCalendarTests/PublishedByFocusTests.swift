import FocusCalendar
import Foundation
import Testing

/// Events focus published itself (planned blocks, worked sessions) read back from a calendar
/// are never busy time (README: Calendars).
@Suite struct PublishedByFocusTests {
    static let people = [
        "2026-11-24T09:00:00Z–2026-11-24T10:00:00Z Dentist",
        "2026-11-24T11:30:00Z–2026-11-24T12:00:00Z Lunch",
        "2026-11-24T16:00:00Z–2026-11-24T17:00:00Z Session review",
        "2026-11-24T17:00:00Z–2026-11-24T17:30:00Z Retro",
    ]

    @Test func markedOrFocusUIDEventsAreNeverBusyTimeAndOthersAre() throws {
        let doc = try fixture("published-by-focus")
        #expect(spans(busy(doc, "2026-11-20", "2026-12-01")) == Self.people)
        // Read in full they are there, marked; the broken one is dropped without a warning.
        #expect(doc.events.filter(\.publishedByFocus).map(\.uid) == [
            "3f1c9a@caldav.example.com", "9d2e77@caldav.example.com",
            "session-thesis-chapter-2-20261124T130000Z@focus", "FOCUS-BLOCK-thesis-chapter-2-20261124T140000Z@Focus",
        ])
        #expect(doc.warnings.isEmpty)
    }

    @Test func aBusyTimeReadLeavesThemOutAndCountsThemNowhere() throws {
        let doc = try ICSReader.parse(data: fixtureData("published-by-focus"), detail: .busyTime)
        #expect(doc.events.map(\.summary) == ["Dentist", "Session review", "Retro", "Lunch"])
        #expect(doc.warnings.isEmpty)
        #expect(spans(busy(doc, "2026-11-20", "2026-12-01")) == Self.people)
        // Nor does a busy-time read keep what busy time does not need.
        #expect(doc.events.allSatisfy { $0.description == nil && $0.location == nil })
    }

    @Test(arguments: [
        ("session-thesis-chapter-2-20261124T130000Z@focus", true), ("focus-block-x@FOCUS", true), ("Session-1@Focus", true),
        ("session-1@focus.example.com", false), ("retro@focus", false), ("block-1@focus", false), ("focus-block-1", false),
        // A planned block, as `calendar export` and `calendar publish` name it.
        ("12-20261125-1@focus", true), ("12-20261125-1@FOCUS", true), ("12-2026112-1@focus", false), ("12-20261125@focus", false),
        ("a-20261125-1@focus", false), ("12--1@focus", false),
    ])
    func focusUIDs(uid: String, published: Bool) {
        #expect(ICSEvent.isFocusUID(uid) == published)
    }

    @Test func strictReadsSkipThemToo() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:a@example.com
            DTSTART:20261124T090000Z
            DTEND:20261124T100000Z
            SUMMARY:Meeting
            END:VEVENT
            BEGIN:VEVENT
            UID:b@example.com
            X-FOCUS-BLOCK:1
            DTSTART:20261124T100000Z
            DTEND:20261124T110000Z
            SUMMARY:Block
            END:VEVENT
            """), strict: true, detail: .busyTime)
        #expect(doc.events.map(\.summary) == ["Meeting"])
    }
}
