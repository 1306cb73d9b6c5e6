import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusText
import Testing

/// What `calendar subscribe`, `connect`, `refresh`, `sync` and the daemon say about the live
/// calendars they fetched, from the values the services report (no database, no network).
@Suite struct CalendarFetchRendererTests {
    private let from = LocalDate(year: 2026, month: 11, day: 7)
    private let to = LocalDate(year: 2027, month: 3, day: 7)

    @Test func aStoredCopySaysItsEventsBusyTimesAndDays() {
        let subscribed = StoredCalendarCopy(verb: .subscribed, name: "Work", replacedSameName: true, events: 1, occurrences: 12, from: from, to: to)
        #expect(CalendarFetchRenderer.line(.stored(subscribed)).string
            == "Subscribed to calendar Work (it replaces the calendar of that name): 1 event, 12 busy times stored from 2026-11-07 to 2027-03-07.")
        let refreshed = StoredCalendarCopy(verb: .refreshed, name: "Work", replacedSameName: true, events: 2, occurrences: 1, from: from, to: to)
        #expect(CalendarFetchRenderer.line(.stored(refreshed)).string
            == "Refreshed calendar Work: 2 events, 1 busy time stored from 2026-11-07 to 2027-03-07.", "only subscribing replaces")
        let first = StoredCalendarCopy(verb: .stored, name: "Home\u{1B}[31m", events: 0, occurrences: 0, from: from, to: to)
        #expect(CalendarFetchRenderer.line(.stored(first)).string
            == "Stored calendar Home\u{FFFD}[31m: 0 events, 0 busy times stored from 2026-11-07 to 2027-03-07.")
    }

    @Test func resultsAreLinesAndWarningsAreNotes() {
        let unchanged = CalendarFetchReport.unchanged(name: "Work", events: 1)
        #expect(CalendarFetchRenderer.line(unchanged).string == "Calendar Work is unchanged (1 event).")
        #expect(!unchanged.isWarning)
        let account = CalendarFetchReport.accountChanged(address: "https://dav.example.org/", added: ["Travel"], removed: ["Work", "Old"])
        #expect(CalendarFetchRenderer.line(account).string
            == "Account at https://dav.example.org/: calendar Travel added, calendar Work removed, calendar Old removed.")
        let kept = CalendarFetchReport.keptAside(name: "Work", keptEvents: 3)
        #expect(kept.isWarning)
        #expect(CalendarFetchRenderer.line(kept).string
            == "warning: calendar 'Work' came back with no events while the copy kept has 3; the copy is kept and used. "
            + "If the calendar really is empty now, run `focus calendar refresh 'Work' --accept-empty`.")
        #expect(CalendarFetchRenderer.line(.accountNotListed(address: "https://dav.example.org/", reason: "the server refused the login.")).string
            == "warning: the calendars of the account at https://dav.example.org/ were not listed: the server refused the login.")
        #expect(CalendarFetchRenderer.line(.notRead(name: "Travel", reason: "timed out.")).string
            == "warning: calendar 'Travel' could not be read: timed out.")
        #expect(CalendarFetchRenderer.line(.notFetchedYet(name: "Fair", reason: "timed out.")).string
            == "warning: calendar Fair is not fetched yet: timed out.")
        #expect(CalendarFetchRenderer.line(.readerWarning("work.ics:12: an event without DTSTART was skipped")).string
            == "work.ics:12: an event without DTSTART was skipped")
    }

    @Test func sayingAReportPutsResultsOnStandardOutputAndWarningsOnStandardError() {
        let console = RecordingConsole()
        CalendarFetchRenderer.say(.unchanged(name: "Work", events: 2), on: console)
        CalendarFetchRenderer.say(.notRead(name: "Travel", reason: "timed out."), on: console)
        #expect(console.stdout == "Calendar Work is unchanged (2 events).\n")
        #expect(console.stderr == "focus: warning: calendar 'Travel' could not be read: timed out.\n")
    }

    @Test func aMadeCalendarNamesItsAccount() {
        #expect(CalendarFetchRenderer.made(calendar: "Focus blocks", accountAddress: "https://dav.example.org/").string
            == "Made calendar Focus blocks in the account at https://dav.example.org/.")
    }

    @Test func connectingListsEveryCalendarOfTheAccountAndWhetherItIsBusyTime() {
        let home = "https://dav.example.org/alice/"
        let work = RemoteCalendar(url: home + "work/", displayName: "Work", components: ["VEVENT"])
        let tasks = RemoteCalendar(url: home + "tasks/", displayName: "Tasks", components: ["VTODO"])
        let sync = RemoteCalendar(url: home + "focus/", displayName: "focus", components: ["VEVENT", "VTODO"])
        let other = RemoteCalendar(url: home + "history/", displayName: "History", components: ["VEVENT", "VTODO"])
        let travel = RemoteCalendar(url: home + "travel/", displayName: "Travel", components: ["VEVENT"])
        let text = CalendarFetchRenderer.connected(address: home, user: "alice", calendars: [work, tasks, sync, other, travel], chosen: [work],
                                                   histories: [other.url], syncURL: sync.url)
        #expect(text.string == """
            Connected to https://dav.example.org/… as alice: 5 calendars.
              ✓ Work     busy time
              · Tasks    vtodo only
              · focus    focus sync
              · History  focus history of another machine (`focus sync setup` to join it)
              · Travel   not used

            """)
        #expect(CalendarFetchRenderer.connected(address: "https://dav.example.org/", user: nil, calendars: [work], chosen: [work], histories: [], syncURL: nil).string
            == "Connected to https://dav.example.org/: 1 calendar.\n  ✓ Work  busy time\n")
        #expect(CalendarFetchRenderer.noLongerBusy("Old").string == "Calendar Old no longer counts as busy time (removed).")
    }
}
