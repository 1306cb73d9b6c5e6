import FocusCLI
import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// What focus does with the calendars of a connected account as they change after `connect`,
/// and with DAViCal's ways (README, "A CalDAV account"): an in-memory CalDAV server
/// (`FakeCalDAVServer`, its DAViCal modes) behind the commands.
private let endpoint = CalDAVEndpoint(url: "https://dav.example.org/")

private func event(_ uid: String, _ summary: String, _ start: String, _ end: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261120T090000Z",
     "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
}

/// A server with `Work` (a stand-up on Monday 23 November) and a world connected to nothing yet.
private func account() throws -> (FakeCalDAVServer, TestWorld) {
    let server = FakeCalDAVServer()
    _ = try server.makeCalendar(server.home + "work/", displayName: "Work", endpoint)
    server.store(server.home + "work/standup.ics", event("standup@example.org", "Stand-up", "20261123T090000Z", "20261123T100000Z"))
    let world = try TestWorld(now: "2026-11-22T09:00:00Z")
    world.caldav = server
    return (server, world)
}

/// The summaries busy on Monday 23 November.
private func busy(_ world: TestWorld) async -> [String] {
    let out = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json").out
    let list = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
    return list.compactMap { $0["summary"] as? String }.sorted()
}

/// A train ride on Monday in a calendar `Travel` made in the account after `connect`.
private func addTravel(_ server: FakeCalDAVServer) throws {
    _ = try server.makeCalendar(server.home + "travel/", displayName: "Travel", endpoint)
    server.store(server.home + "travel/train.ics", event("train@example.org", "Train", "20261123T120000Z", "20261123T140000Z"))
}

@Suite struct CalDAVServersTests {
    @Test func aRefreshReadsACalendarMadeInTheAccountAfterConnectAndDropsOneDeletedThere() async throws {
        let (server, world) = try account()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Stand-up"])

        try addTravel(server)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.code == 0, "\(refresh.err)")
        #expect(refresh.out.contains("Account at https://dav.example.org/: calendar Travel added."), "\(refresh.out)")
        #expect(await busy(world) == ["Stand-up", "Train"])
        #expect(await world.output("calendar", "list").out.contains(": added Travel."))

        server.deleteCalendar(server.home + "work/")
        let again = await world.output("calendar", "refresh")
        #expect(again.code == 0, "\(again.err)")
        #expect(again.out.contains("calendar Work removed"), "\(again.out)")
        #expect(await busy(world) == ["Train"])
        let list = await world.output("calendar", "list").out
        #expect(list.contains(": removed Work.") && !list.contains("added Travel"), "\(list)")

        // A refresh that changes nothing in the account says nothing of it, and the list forgets.
        let quiet = await world.output("calendar", "refresh")
        #expect(!quiet.out.contains("Account at"))
        #expect(!(await world.output("calendar", "list").out.contains("removed Work")))
    }

    @Test func calendarsNamedAtConnectStayTheChoiceAtRefresh() async throws {
        let (server, world) = try account()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/", "--calendar", "Work") == 0)
        try addTravel(server)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.code == 0)
        #expect(!refresh.out.contains("Account at"))
        #expect(await busy(world) == ["Stand-up"])
    }

    @Test func aCalendarThePersonRemovedStaysRemovedWhenTheAccountIsRefreshed() async throws {
        let (server, world) = try account()
        _ = try server.makeCalendar(server.home + "gym/", displayName: "Gym", endpoint)
        server.store(server.home + "gym/yoga.ics", event("yoga@example.org", "Yoga", "20261123T070000Z", "20261123T080000Z"))
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Stand-up", "Yoga"])
        #expect(await world.run("calendar", "rm", "Gym") == 0)
        try addTravel(server)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.out.contains("calendar Travel added"))
        #expect(!refresh.out.contains("Gym"))
        #expect(await busy(world) == ["Stand-up", "Train"])
        // Connecting again is a new choice: Gym counts again.
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Stand-up", "Train", "Yoga"])
    }

    /// A proxy or a server under maintenance answering an empty listing does not empty the
    /// week: the copy kept stays, one warning, `calendar list` and `doctor` name it; once the
    /// server answers again the calendar is read as before; `--accept-empty` takes a calendar
    /// that really is empty.
    @Test func aConnectedCalendarThatListsNothingKeepsItsCopyAside() async throws {
        let (server, world) = try account()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Stand-up"])

        server.answerEmptyListings(true)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.code == 0, "\(refresh.err)")
        let warnings = refresh.err.split(separator: "\n").filter { $0.contains("came back with no events") }
        #expect(warnings.count == 1, "\(refresh.err)")
        #expect(refresh.err.contains("the copy kept has 1; the copy is kept and used"), "\(refresh.err)")
        #expect(await busy(world) == ["Stand-up"], "the week keeps its busy time")
        #expect(await world.output("calendar", "list").out.contains("came back empty"))
        let doctor = await world.output("doctor").out
        #expect(doctor.contains("✗ 'Work' came back with no events"), "\(doctor)")

        server.answerEmptyListings(false)
        server.store(server.home + "work/review.ics", event("review@example.org", "Review", "20261123T150000Z", "20261123T160000Z"))
        #expect(await world.run("calendar", "refresh") == 0)
        #expect(await busy(world) == ["Review", "Stand-up"])
        #expect(!(await world.output("doctor").out.contains("came back with no events")))

        server.remakeCalendar(server.home + "work/")
        #expect(await world.run("calendar", "refresh") == 0)
        #expect(await busy(world) == ["Review", "Stand-up"])
        let accepted = await world.output("calendar", "refresh", "Work", "--accept-empty")
        #expect(accepted.code == 0, "\(accepted.err)")
        #expect(await busy(world) == [], "the person said the calendar really is empty")
    }

    @Test func davicalsSchedulingInboxAndOutboxAreNeverBusyTime() async throws {
        let (server, world) = try account()
        server.behaveAsDAViCal(.schedulingCollections)
        let connect = await world.output("calendar", "connect", "https://dav.example.org/")
        #expect(connect.code == 0)
        #expect(connect.out.contains("1 calendar."), "\(connect.out)")
        #expect(!connect.out.contains(".in"))
        #expect(await busy(world) == ["Stand-up"], "the invitation in the inbox is not busy time")
        #expect(!(await world.output("calendar", "refresh").out.contains("added")))
        #expect(await busy(world) == ["Stand-up"])
    }

    /// Issue #40: after `publish`, the next refresh listed `Focus plan` as a busy calendar with
    /// 0 events. The calendar focus publishes into is never one of the busy calendars.
    @Test func theCalendarFocusPublishesIntoIsNeverABusyCalendar() async throws {
        let (_, world) = try account()
        try world.trustStoredSettings()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await world.run("task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await world.output("calendar", "publish", "Focus plan").code == 0)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.code == 0 && !refresh.out.contains("Focus plan added"), "\(refresh.out)")
        #expect(!(await world.output("calendar", "list").out.contains("Focus plan")))
        let again = await world.output("calendar", "connect", "https://dav.example.org/")
        #expect(again.code == 0)
        #expect(!(await world.output("calendar", "list").out.contains("Focus plan")), "nor after connecting again")
    }

    /// Issue #40: DAViCal lists its inbox and outbox as calendars and names them only as the
    /// principal's `schedule-inbox-URL` and `schedule-outbox-URL` (RFC 6638): they were stored
    /// and listed as busy calendars after `connect`. Left out at connect and at every refresh.
    @Test func aSchedulingInboxNamedOnlyByThePrincipalIsNeverABusyCalendar() async throws {
        let (server, world) = try account()
        server.behaveAsDAViCal(.schedulingNamedByPrincipal)
        let connect = await world.output("calendar", "connect", "https://dav.example.org/")
        #expect(connect.code == 0 && connect.out.contains("1 calendar."), "\(connect.out)")
        #expect(await busy(world) == ["Stand-up"], "the invitation in the inbox is not busy time")
        let refresh = await world.output("calendar", "refresh")
        #expect(!refresh.out.contains("added"), "\(refresh.out)")
        let list = await world.output("calendar", "list").out
        #expect(!list.contains(".in") && !list.contains(".out"), "\(list)")
        #expect(await busy(world) == ["Stand-up"])
    }

    /// Issue #40: DAViCal prunes sync tokens after 7 days and answers an old one with every
    /// member as `200 OK`. A meeting deleted while the laptop was away a week stayed busy for
    /// good; the refresh checks such an answer against a listing, as sync does.
    @Test func aMeetingDeletedWhileAwayAWeekGoesDespiteAPrunedToken() async throws {
        let (server, world) = try account()
        server.store(server.home + "work/review.ics", event("review@example.org", "Review", "20261123T130000Z", "20261123T140000Z"))
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Review", "Stand-up"])
        server.remove(server.home + "work/review.ics")
        server.pruneSyncTokens()
        world.now = world.now.addingTimeInterval(8 * 86_400)
        let refresh = await world.output("calendar", "refresh")
        #expect(refresh.code == 0, "\(refresh.err)")
        #expect(await busy(world) == ["Stand-up"], "the deleted meeting is no longer busy")
    }

    @Test func aNameDAViCalStoredEscapedMatchesTheNameAsTyped() async throws {
        let (server, world) = try account()
        server.behaveAsDAViCal(.escapedNames)
        _ = try server.makeCalendar(server.home + "work-life/", displayName: "Work & Life", components: ["VEVENT", "VTODO"], endpoint)
        let connect = await world.output("calendar", "connect", "https://dav.example.org/", "--calendar", "Work", "--calendar", "Work & Life")
        #expect(connect.code == 0, "\(connect.err)")
        #expect(connect.out.contains("Work & Life") && !connect.out.contains("&amp;"), "\(connect.out)")
        #expect(await world.run("calendar", "rm", "Work & Life") == 0)
        #expect(await world.run("task", "add", "Thesis") == 0)
        let setup = await world.output("sync", "setup", "Work & Life")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(!setup.out.contains("Made calendar"))
        #expect(setup.out.contains("Syncing through Work & Life"), "\(setup.out)")
        #expect(server.contents(server.home + "work-life/").isEmpty == false, "the history went into the calendar that was there")
    }

    @Test func aRefusedMakeCalendarNamesWhatIsThere() async throws {
        let (server, world) = try account()
        _ = try server.makeCalendar(server.home + "focus-plan/", displayName: "Old plans", endpoint)
        #expect(await world.run("calendar", "connect", "https://dav.example.org/", "--calendar", "Work") == 0)
        let publish = await world.output("calendar", "publish", "Focus plan")
        #expect(publish.code == 69)
        #expect(publish.err.contains("a calendar named 'Old plans' is at https://dav.example.org/calendars/alice/focus-plan/"), "\(publish.err)")
    }

    /// DAViCal gives no ETag for a collection: a long first sync cannot be the one guarded
    /// write, and every item goes one by one, none lost.
    @Test func aLongFirstSyncWithoutACollectionETagWritesEachItem() async throws {
        let (server, world) = try account()
        server.takeCollectionPuts(true)
        server.behaveAsDAViCal(.noCollectionETag)
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await world.run("task", "add", "Thesis/Chapter 2") == 0)
        for i in 0..<55 {
            let start = "2026-11-\(i % 20 < 9 ? "0" : "")\(i % 20 + 1) \(8 + i / 20):00"
            #expect(await world.run("log", "add", "Thesis/Chapter 2", "--start", start, "--duration", "25m") == 0)
        }
        let before = server.requests
        let setup = await world.output("sync", "setup", "Focus")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(server.contents(server.home + "focus/").count == 57, "a task, a subtask, 55 sessions")
        #expect(server.requests - before >= 57, "one request per item")
    }

    /// Two machines setting up sync at the same moment: the calendar the other one made between
    /// this one's listing and its MKCALENDAR is used, not refused.
    @Test func aSyncCalendarMadeMeanwhileByAnotherMachineIsUsed() async throws {
        let (server, world) = try account()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        server.makeUnlistedCalendar(server.home + "focus/", displayName: "Focus", components: ["VEVENT", "VTODO"])
        let setup = await world.output("sync", "setup", "Focus")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(setup.out.contains("Syncing through Focus"), "\(setup.out)")
    }

    /// A meeting with the person as an attendee: `partstat` nil leaves the parameter out.
    private func meeting(_ uid: String, _ summary: String, _ start: String, _ end: String, attendee: String, partstat: String?) -> String {
        let line = "ATTENDEE;CN=\"Smith, Alice\"\(partstat.map { ";PARTSTAT=\($0)" } ?? ""):mailto:\(attendee)"
        return event(uid, summary, start, end).replacingOccurrences(of: "SUMMARY:", with: "ORGANIZER:mailto:bob@example.org\r\n\(line)\r\nSUMMARY:")
    }

    @Test func aMeetingThePersonDeclinedIsFreeTimeByTheAccountsOwnAddress() async throws {
        let (server, world) = try account()
        server.store(server.home + "work/review.ics", meeting("review@example.org", "Review", "20261123T130000Z", "20261123T140000Z",
                                                              attendee: "Alice@Example.org", partstat: "DECLINED"))
        server.store(server.home + "work/planning.ics", meeting("planning@example.org", "Planning", "20261123T150000Z", "20261123T160000Z",
                                                                attendee: "alice@example.org", partstat: "TENTATIVE"))
        server.store(server.home + "work/other.ics", meeting("other@example.org", "Bob's", "20261123T170000Z", "20261123T180000Z",
                                                             attendee: "carol@example.org", partstat: "DECLINED"))
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Bob's", "Planning", "Stand-up"], "declined by the principal's own address; someone else's decline is theirs")
        let agenda = await world.output("agenda", "2026-11-23")
        #expect(agenda.out.contains("14:00–15:00  Review · Work  (declined: free)"), "\(agenda.out)")
        let json = await world.output("agenda", "2026-11-23", "--json").out
        #expect(json.contains("\"declined_events\"") && json.contains("Review"), "\(json)")

        // Not answered or tentative: busy unless tentative_busy = false.
        world.config.tentativeBusy = false
        #expect(await world.run("calendar", "refresh") == 0)
        server.store(server.home + "work/touch.ics", event("touch@example.org", "Touch", "20261124T090000Z", "20261124T100000Z"))
        #expect(await world.run("calendar", "refresh") == 0)
        #expect(await busy(world) == ["Bob's", "Stand-up"])
    }

    /// Issue #40: `config set email` (or `tentative_busy`) after connecting left the declined
    /// meetings busy until the server's calendar changed (a refresh answered "unchanged"). The
    /// stored events are read again under the new rule at once.
    @Test func aChangeOfEmailOrTentativeBusyAppliesAtOnceWithoutTheServerChanging() async throws {
        let (server, world) = try account()
        server.store(server.home + "work/review.ics", meeting("review@example.org", "Review", "20261123T130000Z", "20261123T140000Z",
                                                              attendee: "me@home.example", partstat: "DECLINED"))
        server.store(server.home + "work/planning.ics", meeting("planning@example.org", "Planning", "20261123T150000Z", "20261123T160000Z",
                                                                attendee: "me@home.example", partstat: "TENTATIVE"))
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        #expect(await busy(world) == ["Planning", "Review", "Stand-up"])
        #expect(await world.run("config", "set", "email", "me@home.example") == 0)
        world.config.emails = ["me@home.example"]
        #expect(await busy(world) == ["Planning", "Stand-up"], "declined: free at once")
        #expect(await world.output("agenda", "2026-11-23").out.contains("Review · Work  (declined: free)"))
        #expect(await world.run("config", "set", "tentative_busy", "false") == 0)
        world.config.tentativeBusy = false
        #expect(await busy(world) == ["Stand-up"], "tentative: free at once")
    }

    @Test func aFileMeetingDeclinedByAnAddressOfConfigEmailIsFreeTime() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let text = meeting("sync@example.org", "Sync", "20261123T130000Z", "20261123T140000Z", attendee: "me@work.example", partstat: "DECLINED")
            + meeting("open@example.org", "Open", "20261123T150000Z", "20261123T160000Z", attendee: "me@work.example", partstat: nil)
        let file = try temporaryFile("meetings.ics", text.replacingOccurrences(of: "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//focus tests//EN\r\n", with: ""))
        #expect(await world.run("calendar", "import", file) == 0)
        #expect(await busy(world) == ["Open", "Sync"], "no address of the person's known: every meeting is busy")
        #expect(await world.run("config", "set", "email", "me@home.example, ME@work.example") == 0)
        world.config.emails = ["me@home.example", "me@work.example"]
        #expect(await world.run("calendar", "import", file) == 0)
        #expect(await busy(world) == ["Open"], "NEEDS-ACTION (no PARTSTAT) stays busy")
        #expect(await world.output("agenda", "2026-11-23").out.contains("Sync · meetings  (declined: free)"))
        #expect(await world.run("config", "set", "email", "not an address") == 64)
    }

    /// Busy time past the stored window (180 days of an import) is expanded from the stored file
    /// by the same rule: a daily meeting the person declined leaves its hour free there too.
    @Test func aDeclinedRecurringMeetingIsFreePastTheStoredWindow() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config.emails = ["me@work.example"]
        world.config.dayStart = TimeOfDay(hour: 9, minute: 0)
        world.config.dayEnd = TimeOfDay(hour: 10, minute: 0)
        let daily = { (text: String) in text.replacingOccurrences(of: "DTEND:", with: "RRULE:FREQ=DAILY\r\nDTEND:") }
        let text = daily(meeting("sync@example.org", "Sync", "20261123T090000", "20261123T100000", attendee: "me@work.example", partstat: "DECLINED"))
            + daily(meeting("open@example.org", "Open", "20261123T120000", "20261123T130000", attendee: "me@work.example", partstat: "ACCEPTED"))
        let file = try temporaryFile("daily.ics", text.replacingOccurrences(of: "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//focus tests//EN\r\n", with: ""))
        #expect(await world.run("calendar", "import", file) == 0)
        let out = await world.output("calendar", "busy", "--from", "2027-06-01", "--to", "2027-06-01", "--json").out
        let list = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
        #expect(list.compactMap { $0["summary"] as? String } == ["Open"], "\(out)")
        // The only working hour of 1 June 2027 is the declined meeting's: the work fits there.
        let add = await world.output("task", "add", "Thesis/Draft", "--estimate", "25m", "--start", "2027-06-01", "--due", "2027-06-01")
        #expect(add.code == 0, "\(add.err)")
        let plan = await world.output("plan", "--json").out
        #expect(plan.contains("\"start\": \"2027-06-01T07:00:00Z\""), "\(plan)")
    }

    /// `calendar import` knows the person by every address they have: config `email` and the
    /// connected accounts' own (the principal's calendar-user-address-set).
    @Test func anImportedMeetingDeclinedByTheAccountsOwnAddressIsFreeTime() async throws {
        let (_, world) = try account()
        #expect(await world.run("calendar", "connect", "https://dav.example.org/") == 0)
        let text = meeting("sync@example.org", "Sync", "20261123T130000Z", "20261123T140000Z", attendee: "ALICE@example.org", partstat: "DECLINED")
        let file = try temporaryFile("declined.ics", text)
        let imported = await world.output("calendar", "import", file)
        #expect(imported.code == 0, "\(imported.err)")
        #expect(await busy(world) == ["Stand-up"], "declined by the account's own address: free")
        #expect(await world.output("agenda", "2026-11-23").out.contains("Sync · declined  (declined: free)"))
    }
}

