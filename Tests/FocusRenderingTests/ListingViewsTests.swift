import FocusCore
import FocusRendering
import FocusText
import Foundation
import Testing

/// Views that commands used to compose inline, pinned from values: `config list`, the account
/// lines under `calendar list`, `task list` with nothing to list.
@Suite struct ListingViewsTests {
    private let utc = LocalCalendar(zone: .utc)
    // Mon 7 Dec 2026 12:00 UTC.
    private let now = Date(timeIntervalSince1970: 1_796_644_800)

    @Test func configListHasItsSettingsAnEmptyLineAndTheFile() {
        let settings = [(key: "work", value: "25m", help: "Length of a focus session."),
                        (key: "working_hours", value: "09:00-17:00", help: "When blocks may be planned.")]
        #expect(ConfigRenderer.listing(settings, file: "/home/me/.config/focus/config.toml").string == """
            work           25m          Length of a focus session.
            working_hours  09:00-17:00  When blocks may be planned.

            File: /home/me/.config/focus/config.toml

            """)
    }

    @Test func calendarListSaysWhatEachAccountsLastRefreshChanged() {
        let accounts: [(address: String, changes: [String], at: Date?)] = [
            ("https://dav.example.org/alice/", ["+ Travel", "+ Gym", "- Old"], now.addingTimeInterval(-3_600)),
            ("https://quiet.example.org/", [], now),
            ("https://other.example.org/", ["- Work"], nil),
        ]
        #expect(CalendarRenderer.accountChanges(accounts, calendar: utc, now: now).string == """
            Account at https://dav.example.org/…, refreshed Mon 7 Dec 11:00: added Travel, Gym; removed Old.
            Account at https://other.example.org/: removed Work.

            """)
    }

    @Test func anEmptyTaskListSaysWhyAndHowToAddOne() {
        #expect(TaskRenderer.emptyList(all: false, filtered: true).string == "No open tasks match.\n")
        #expect(TaskRenderer.emptyList(all: true, filtered: true).string == "No tasks match.\n")
        #expect(TaskRenderer.emptyList(all: false, filtered: false).string
            == "No open tasks.\nAdd one with `focus task add \"Thesis/Chapter 2\" --estimate 6h --due 2026-11-27`.\n")
        #expect(TaskRenderer.emptyList(all: true, filtered: false).string.hasPrefix("No tasks yet.\n"))
    }

    @Test func listsAsJSONAreArraysOfTheirElements() {
        #expect(SessionRenderer.json(list: []).rendered() == "[]")
        #expect(AgendaRenderer.busyJSON(list: []).rendered() == "[]")
    }

    @Test func theAgendaPageHasTheStaleNotesFirstThenTheDaysAnEmptyLineApart() {
        let monday = AgendaDay(day: LocalDate(year: 2026, month: 12, day: 7), events: [], blocks: [], sessions: [], freeSeconds: 0, hours: nil, due: [])
        var tuesday = monday
        tuesday.day = LocalDate(year: 2026, month: 12, day: 8)
        let page = AgendaRenderer.text([monday, tuesday], staleNotes: ["calendar 'Fair' was last refreshed 3 days ago"], overdue: [], atRisk: [],
                                       now: now, calendar: utc).string
        let days = [monday, tuesday].map { AgendaRenderer.text($0, now: now, calendar: utc).string }
        #expect(page == "Note: calendar 'Fair' was last refreshed 3 days ago.\n" + days[0] + "\n" + days[1])
        #expect(AgendaRenderer.text([], staleNotes: [], overdue: [], atRisk: [], now: now, calendar: utc).string.isEmpty)
    }
}
