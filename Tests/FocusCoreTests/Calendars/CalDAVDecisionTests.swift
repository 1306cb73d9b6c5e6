import FocusCore
import Foundation
import Testing

@Suite struct CalDAVDecisionTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func want(_ uid: String, _ fingerprint: String, kind: PublishedEvent.Kind = .block, endIn seconds: Double = 3600) -> WantedEvent {
        WantedEvent(uid: uid, kind: kind, fingerprint: fingerprint, end: now.addingTimeInterval(seconds), index: 0)
    }

    func published(_ uid: String, _ fingerprint: String, kind: PublishedEvent.Kind = .block, endIn seconds: Double = 3600) -> PublishedEvent {
        PublishedEvent(uid: uid, kind: kind, url: "https://h/cal/\(uid).ics", etag: "\"e-\(uid)\"", fingerprint: fingerprint, end: now.addingTimeInterval(seconds))
    }

    @Test func aNewBlockIsCreatedAMovedOneUpdatedAndAnUnchangedOneLeftAlone() {
        let actions = Publication.actions(
            wanted: [want("a", "1"), want("b", "2-moved"), want("c", "3")],
            published: [published("b", "2"), published("c", "3")], now: now)
        #expect(actions == [.create(want("a", "1")), .update(want("b", "2-moved"), published("b", "2"))])
    }

    @Test func aBlockThatWentIsDeletedButOneThatHasEndedStaysAsTheRecordOfTheDay() {
        let actions = Publication.actions(
            wanted: [], published: [published("gone", "1"), published("past", "2", endIn: -60), published("now", "3", endIn: 0)], now: now)
        #expect(actions == [.delete(published("gone", "1"))])
    }

    @Test func aSessionNoLongerInTheHistoryIsDeletedEvenWhenItHasEnded() {
        let old = published("session-1-0-20261101T090000Z@focus", "x", kind: .session, endIn: -86_400)
        #expect(Publication.actions(wanted: [], published: [old], now: now) == [.delete(old)])
    }

    @Test func publishingTheSamePlanTwiceWritesNothing() {
        let wanted = [want("a", "1"), want("b", "2")]
        #expect(Publication.actions(wanted: wanted, published: [published("a", "1"), published("b", "2")], now: now).isEmpty)
    }

    @Test func theFingerprintIgnoresTheTimestampOfTheWrite() {
        let a = "BEGIN:VEVENT\r\nUID:x\r\nDTSTAMP:20261124T100000Z\r\nSUMMARY:A\r\nEND:VEVENT\r\n"
        let b = "BEGIN:VEVENT\r\nUID:x\r\nDTSTAMP:20261125T110000Z\r\nSUMMARY:A\r\nEND:VEVENT\r\n"
        let c = "BEGIN:VEVENT\r\nUID:x\r\nDTSTAMP:20261125T110000Z\r\nSUMMARY:B\r\nEND:VEVENT\r\n"
        #expect(Publication.fingerprint(a) == Publication.fingerprint(b))
        #expect(Publication.fingerprint(a) != Publication.fingerprint(c))
    }

    @Test(arguments: [
        ("12-20261125-1@focus", "https://h/c/12-20261125-1_focus.ics"),
        ("a b/../c", "https://h/c/a_b_.._c.ics"),
        ("ünï", "https://h/c/_n_.ics"),
    ])
    func resourceNamesAreSafePathSegments(uid: String, url: String) {
        #expect(Publication.resourceURL(calendar: "https://h/c/", uid: uid) == url)
        #expect(Publication.resourceURL(calendar: "https://h/c", uid: uid) == url)
    }

    let calendars = [
        RemoteCalendar(url: "https://h/dav/alice/work/", displayName: "Work", components: ["VEVENT"]),
        RemoteCalendar(url: "https://h/dav/alice/tasks/", displayName: "Tasks", components: ["VTODO"]),
        RemoteCalendar(url: "https://h/dav/alice/home%20life/", displayName: "", components: []),
    ]

    @Test func withoutNamesEveryCalendarThatHoldsEventsCountsAsBusy() throws {
        #expect(try CalDAVChoice.busyCalendars(calendars, named: []).map(\.url) == ["https://h/dav/alice/work/", "https://h/dav/alice/home%20life/"])
    }

    @Test func namesMatchTheDisplayNameOrTheLastPathSegmentCaseInsensitivelyAndOnce() throws {
        #expect(try CalDAVChoice.busyCalendars(calendars, named: ["work", "WORK", "home life"]).map(\.url)
            == ["https://h/dav/alice/work/", "https://h/dav/alice/home%20life/"])
    }

    @Test func anUnknownNameIsRefusedWithTheNamesThereAre() {
        #expect(throws: FocusError.usage("the account has no calendar named 'Play'; it has 'Work', 'Tasks', ''.")) {
            try CalDAVChoice.busyCalendars(calendars, named: ["Play"])
        }
    }

    @Test func aCalendarOfToDosCannotBeBusyTime() {
        #expect(throws: FocusError.self) { try CalDAVChoice.busyCalendars(calendars, named: ["Tasks"]) }
    }

    @Test(arguments: [
        ("Focus plan", "https://h/home/focus-plan/"),
        ("Ünïcode ☃", "https://h/home/n-code/"),
        ("☃", "https://h/home/focus/"),
    ])
    func aNewCalendarGetsASafePath(name: String, url: String) {
        #expect(CalDAVChoice.newCalendarURL(home: "https://h/home/", name: name) == url)
    }

    @Test(arguments: [
        ("pass show caldav/fastmail", ["pass", "show", "caldav/fastmail"]),
        ("  secret-tool lookup  service 'my caldav' ", ["secret-tool", "lookup", "service", "my caldav"]),
        (#"printf "%s\n" "a \"b\" \$c""#, ["printf", #"%s\n"#, #"a "b" $c"#]),
        (#"echo a\ b ''"#, ["echo", "a b", ""]),
        ("echo $HOME; rm -rf x | y", ["echo", "$HOME;", "rm", "-rf", "x", "|", "y"]),
    ])
    func passwordCommandsSplitIntoWordsAsAShellWouldWithoutExpandingAnything(text: String, words: [String]) throws {
        #expect(try CommandLineWords.split(text) == words)
    }

    @Test(arguments: ["", "   ", "pass 'show", #"pass "show"#, "pass \\"])
    func anEmptyOrUnclosedCommandIsRefused(text: String) {
        #expect(throws: FocusError.self) { try CommandLineWords.split(text) }
    }
}

@Suite struct CalendarStalenessTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aCopyFetchedWithinTwiceTheRefreshIntervalIsFresh() {
        let state = FeedState(fetchedAt: now.addingTimeInterval(-29 * 60))
        #expect(CalendarStaleness.note(name: "Work", state: state, importedAt: now, refreshSeconds: 900, now: now) == nil)
    }

    @Test func anOlderCopySaysHowOldAndHowToFetchIt() {
        let state = FeedState(fetchedAt: now.addingTimeInterval(-3 * 3600))
        #expect(CalendarStaleness.note(name: "Work", state: state, importedAt: now, refreshSeconds: 900, now: now)
            == "calendar 'Work' was last refreshed 3 h ago (`focus calendar refresh` fetches it now)")
        #expect(CalendarStaleness.note(name: "Work", state: state, importedAt: now, refreshSeconds: nil, now: now) == nil,
                "with refreshing off, a day is the limit")
    }

    @Test func aFailedLastRefreshIsSaidWhateverTheAge() {
        var state = FeedState(fetchedAt: now.addingTimeInterval(-60))
        state.lastError = "server down"
        state.lastErrorAt = now
        #expect(CalendarStaleness.note(name: "Work", state: state, importedAt: now, refreshSeconds: 900, now: now)
            == "calendar 'Work' was last refreshed 1 min ago; its last refresh failed: server down")
    }

    /// The agenda printed "Note: …; its last refresh failed: … kept and used.." — the failure's
    /// own full stop and the note's.
    @Test func aFailureThatEndsItsSentenceLeavesTheFullStopToTheNote() {
        var state = FeedState(fetchedAt: now.addingTimeInterval(-60))
        state.lastError = "calendar 'Work' was not refreshed: could not connect. The copy fetched 09:00 is kept and used."
        state.lastErrorAt = now
        let note = CalendarStaleness.note(name: "Work", state: state, importedAt: now, refreshSeconds: 900, now: now)
        #expect(note?.hasSuffix("The copy fetched 09:00 is kept and used") == true, "\(note ?? "nil")")
    }
}

/// A user name in a CalDAV address stands for --user; a password there is refused.
@Suite struct CalDAVAddressCredentialsTests {
    @Test func aUserNameInTheAddressIsTakenOutAndAPasswordRefused() throws {
        #expect(try CalendarFeed.credentials("https://me%40example.org@cloud.example.org/remote.php/dav")
            == ("https://cloud.example.org/remote.php/dav", "me@example.org"))
        #expect(try CalendarFeed.credentials("https://cloud.example.org/dav") == ("https://cloud.example.org/dav", nil))
        #expect(try CalendarFeed.credentials("https://cloud.example.org/a@b") == ("https://cloud.example.org/a@b", nil), "an @ in the path is no user")
        do {
            _ = try CalendarFeed.credentials("https://me:hunter2@cloud.example.org/dav")
            Issue.record("a password in the address was accepted")
        } catch {
            #expect(error.description.contains("without a password") && !error.description.contains("hunter2"), "\(error.description)")
        }
    }
}
