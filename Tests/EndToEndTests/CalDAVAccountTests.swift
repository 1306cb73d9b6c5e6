import FocusCoreTestSupport
import Foundation
import Testing

/// `calendar connect`, `refresh` and `publish` against a real CalDAV server (Radicale, started
/// per test on a free loopback port). Tuesday 24 November 2026, 23:00 in Berlin: working hours
/// (08:00–22:00) are over, so the plan's first free time is Wednesday 08:00.
private let now = "2026-11-24T23:00:00+01:00"
private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": now]

/// Wednesday's stand-up, 08:00–10:00 in Berlin: the day's work starts after it.
private func standup(start: String = "20261125T070000Z", end: String = "20261125T090000Z") -> String {
    RadicaleServer.event(uid: "standup@example.org", summary: "Stand-up", start: start, end: end)
}

private func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

private func planStarts(_ sandbox: Sandbox) async throws -> [String] {
    let r = try await sandbox.run(["plan", "--json"], env: direct)
    let blocks = (json(r.out) as? [String: Any])?["blocks"] as? [[String: Any]] ?? []
    return blocks.compactMap { $0["start"] as? String }
}

/// The calendar objects in a collection, as a raw REPORT (not focus's client) returns them.
/// Twelve subtasks due Friday (twelve blocks to publish), and the server's account connected
/// through `url` (a proxy in front of it).
private func twelveBlocks(_ sandbox: Sandbox, connectedTo server: RadicaleServer, through url: String) async throws {
    for n in 1...12 {
        #expect(try await sandbox.run(["task", "add", "Thesis/Part \(n)", "--estimate", "25m", "--due", "2026-11-27"], env: direct).code == 0)
    }
    let command = "printf '%s\\n' '\(server.password)'"
    #expect(try await sandbox.run(["calendar", "connect", url, "--user", server.user, "--password-command", command], env: direct).code == 0)
}

private func objects(_ server: RadicaleServer, _ path: String) throws -> [String] {
    let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <D:prop><C:calendar-data/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT"/></C:comp-filter></C:filter>
        </C:calendar-query>
        """
    let response = try server.request("REPORT", path, body: body, headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"])
    // Each object's data, unescaped enough to read its lines.
    return response.body.components(separatedBy: "BEGIN:VEVENT").dropFirst().map {
        $0.replacingOccurrences(of: "&#13;", with: "").replacingOccurrences(of: "\r", with: "")
    }
}

/// Each runs against Radicale and Xandikos (`RadicaleServer.Kind`); where they differ, the test says whose way is whose.
@Suite("CalDAV accounts against Radicale and Xandikos", .serialized,
       .enabled(if: RadicaleServer.bothAvailable, Comment(rawValue: RadicaleServer.missing)))
struct CalDAVAccountTests {
    @Test("connect finds the account, lists its calendars and reads busy time; refresh follows the server and the plan moves",
          arguments: RadicaleServer.Kind.allCases)
    func connectAndRefresh(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.makeCalendar("chores", displayName: "Chores", components: ["VTODO"])
        try server.put("work/standup.ics", ics: standup())
        // Working hours from 08:00, as the times below were written for (the default is 09:00).
        #expect(try await sandbox.run(["config", "set", "day_start", "08:00"], env: direct).code == 0)
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27"], env: direct).code == 0)

        let connect = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-stdin"],
                                            env: direct, stdin: server.password + "\n")
        #expect(connect.code == 0, "\(connect.err)")
        #expect(connect.out.contains("Connected to http://127.0.0.1:\(server.port)/ as alice: 2 calendars."), "\(connect.out)")
        #expect(connect.out.contains("✓ Work") && connect.out.contains("· Chores"), "\(connect.out)")
        #expect(connect.out.contains("Stored calendar Work: 1 event"), "\(connect.out)")
        #expect(try await planStarts(sandbox) == ["2026-11-25T09:00:00Z"], "the block follows the stand-up")

        // The stand-up grows on the server: refresh sees it and the block moves.
        try server.put("work/standup.ics", ics: standup(start: "20261125T070000Z", end: "20261125T100000Z"))
        let refresh = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: server.password + "\n")
        #expect(refresh.code == 0, "\(refresh.err)")
        #expect(refresh.out.contains("Refreshed calendar Work: 1 event"), "\(refresh.out)")
        #expect(try await planStarts(sandbox) == ["2026-11-25T10:00:00Z"])

        let unchanged = try await sandbox.run(["calendar", "refresh", "work", "--password-stdin"], env: direct, stdin: server.password + "\n")
        #expect(unchanged.code == 0, "\(unchanged.err)")
        #expect(unchanged.out.contains("Calendar Work is unchanged (1 event)."), "\(unchanged.out)")

        // Removed on the server: gone here too.
        try server.delete("work/standup.ics")
        _ = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: server.password + "\n")
        #expect(try await planStarts(sandbox) == ["2026-11-25T07:00:00Z"])
        let list = json(try await sandbox.run(["calendar", "list", "--json"], env: direct).out) as? [[String: Any]] ?? []
        #expect(list.map { $0["name"] as? String } == ["Work"])
        #expect(list.first?["events"] as? Int == 0)

        // Removing the account's last calendar leaves no login behind: publishing asks for a
        // connection again instead of using an account nothing shows any more.
        #expect(try await sandbox.run(["calendar", "rm", "Work"], env: direct).code == 0)
        let publish = try await sandbox.run(["calendar", "publish", "Work", "--password-stdin"], env: direct, stdin: server.password + "\n")
        #expect(publish.code == 64 && publish.err.contains("no CalDAV account is connected"), "\(publish.err)")
    }

    @Test("publish writes the plan, a re-plan moves it, a finished task's blocks go, a hand-made event is untouched and never busy twice",
          arguments: RadicaleServer.Kind.allCases)
    func publishThePlan(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.put("work/standup.ics", ics: standup())
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27", "--notes", "Outline first"], env: direct).code == 0)
        let command = "printf '%s\\n' '\(server.password)'"
        let connect = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct)
        #expect(connect.code == 0, "\(connect.err)")

        let publish = try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(publish.code == 0, "\(publish.err)")
        #expect(publish.out.contains("Made calendar Focus plan"), "\(publish.out)")
        #expect(publish.out.contains("Published 1 planned block to Focus plan (1 new)."), "\(publish.out)")
        var events = try objects(server, "focus-plan/")
        #expect(events.count == 1)
        #expect(events.first?.contains("SUMMARY:Thesis/Draft") == true && events.first?.contains("CATEGORIES:focus") == true)
        #expect(events.first?.contains("DTSTART:20261125T090000Z") == true && events.first?.contains("Outline first") == true, "\(events)")

        // A person's own event in the same calendar.
        try server.put("focus-plan/lunch.ics", ics: RadicaleServer.event(uid: "lunch@example.org", summary: "Lunch",
                                                                        start: "20261125T110000Z", end: "20261125T120000Z"))
        // The stand-up grows on the server: the refresh re-plans and moves the published block.
        try server.put("work/standup.ics", ics: standup(start: "20261125T070000Z", end: "20261125T100000Z"))
        let refresh = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(refresh.code == 0, "\(refresh.err)")
        #expect(refresh.out.contains("Published 1 planned block to Focus plan (1 updated)."), "\(refresh.out)")
        events = try objects(server, "focus-plan/")
        #expect(events.filter { $0.contains("DTSTART:20261125T100000Z") && $0.contains("CATEGORIES:focus") }.count == 1, "\(events)")

        // Twice the work: the next plan writes a second block and leaves the first as it was.
        // The command that changed the plan published it before it ended.
        let edit = try await sandbox.run(["task", "edit", "Thesis/Draft", "--estimate", "50m"], env: direct)
        #expect(edit.code == 0 && edit.err.contains("Published 2 planned blocks to Focus plan (1 new)."), "\(edit.err)")
        let plan = try await sandbox.run(["plan"], env: direct)
        #expect(plan.code == 0, "\(plan.err)")
        #expect(!plan.out.contains("Published"), "already published: \(plan.out)")
        events = try objects(server, "focus-plan/")
        #expect(events.filter { $0.contains("CATEGORIES:focus") }.count == 2)
        #expect(events.filter { $0.contains("SUMMARY:Lunch") }.count == 1)

        // Every calendar of the account counts, but not the one focus publishes into (issue #40).
        let again = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user], env: direct)
        #expect(again.code == 0, "\(again.err)")
        let all = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25", "--json"], env: direct)
        #expect((json(all.out) as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String } == ["Stand-up"], "\(all.out)")
        // The published calendar named to count as busy too: focus's own blocks are not busy time.
        let named = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--calendar", "Work", "--calendar", "Focus plan"],
                                          env: direct)
        #expect(named.code == 0, "\(named.err)")
        let busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25", "--json"], env: direct)
        let summaries = (json(busy.out) as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }.sorted()
        #expect(summaries == ["Lunch", "Stand-up"], "\(busy.out)")

        // Done: its blocks leave the calendar; the lunch stays.
        let done = try await sandbox.run(["task", "done", "Thesis/Draft"], env: direct)
        #expect(done.code == 0 && done.err.contains("Published 0 planned blocks to Focus plan (2 removed)."), "\(done.err)")
        events = try objects(server, "focus-plan/")
        #expect(events.count == 1 && events.first?.contains("SUMMARY:Lunch") == true, "\(events)")

        // Worked sessions too, with --sessions: as `export --format ics` writes them, never busy.
        #expect(try await sandbox.run(["log", "add", "Thesis/Draft", "--start", "2026-11-24 20:00", "--duration", "25m"], env: direct).code == 0)
        let sessions = try await sandbox.run(["calendar", "publish", "Focus plan", "--sessions"], env: direct)
        #expect(sessions.code == 0, "\(sessions.err)")
        #expect(sessions.out.contains("and 1 session"), "\(sessions.out)")
        events = try objects(server, "focus-plan/")
        #expect(events.filter { $0.contains("X-FOCUS-SESSION:completed") && $0.contains("SUMMARY:✓ Thesis/Draft") }.count == 1, "\(events)")

        // Work again, then stop publishing: the blocks ahead leave the calendar, nothing else.
        // 25 of its 50 minutes are worked: one block left to plan.
        #expect(try await sandbox.run(["task", "done", "Thesis/Draft", "--undo"], env: direct).err.contains("(1 new)"))
        let stop = try await sandbox.run(["calendar", "publish", "focus plan", "--stop"], env: direct)
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("Stopped publishing to Focus plan: 1 block still ahead deleted there."), "\(stop.out)")
        events = try objects(server, "focus-plan/")
        #expect(events.filter { $0.contains("X-FOCUS-BLOCK") }.isEmpty && events.contains { $0.contains("SUMMARY:Lunch") }, "\(events)")
        #expect(!(try await sandbox.run(["plan"], env: direct).out.contains("Published")))
    }

    @Test("a calendar made in the account after connect is read at the next refresh and one deleted there stops counting",
          arguments: RadicaleServer.Kind.allCases)
    func calendarsAddedAndRemoved(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.put("work/standup.ics", ics: standup())
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        try server.makeCalendar("travel", displayName: "Travel")
        try server.put("travel/train.ics", ics: RadicaleServer.event(uid: "train@example.org", summary: "Train", start: "20261125T110000Z", end: "20261125T130000Z"))
        let refresh = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(refresh.code == 0, "\(refresh.err)")
        #expect(refresh.out.contains("Account at http://127.0.0.1:\(server.port)/: calendar Travel added."), "\(refresh.out)")
        #expect(refresh.out.contains("Stored calendar Travel: 1 event"), "\(refresh.out)")
        var busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25", "--json"], env: direct)
        #expect((json(busy.out) as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }.sorted() == ["Stand-up", "Train"], "\(busy.out)")
        #expect(try await sandbox.run(["calendar", "list"], env: direct).out.contains(": added Travel."))

        try server.delete("work/")
        let again = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(again.code == 0, "\(again.err)")
        #expect(again.out.contains("calendar Work removed"), "\(again.out)")
        busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25", "--json"], env: direct)
        #expect((json(busy.out) as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String } == ["Train"], "\(busy.out)")
    }

    @Test("two machines, one calendar: one plan; a block deleted there is planned elsewhere; a dragged block is pinned")
    func twoPublishersAndOtherApps() async throws {
        let server = try RadicaleServer()
        let laptop = try Sandbox(), desktop = try Sandbox()
        defer { laptop.remove(); desktop.remove() }
        try server.makeCalendar("work", displayName: "Work")
        let command = "printf '%s\\n' '\(server.password)'"
        for sandbox in [laptop, desktop] {
            // Working hours from 08:00, as the times below were written for (the default is 09:00).
            #expect(try await sandbox.run(["config", "set", "day_start", "08:00"], env: direct).code == 0)
            #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27"], env: direct).code == 0)
            let connect = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct)
            #expect(connect.code == 0, "\(connect.err)")
        }
        #expect(try await laptop.run(["calendar", "publish", "Focus plan"], env: direct).out.contains("(2 new)"))
        let before = try objects(server, "focus-plan/")
        #expect(before.count == 2)

        let second = try await desktop.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(second.code == 69 && second.err.contains("one calendar holds one plan"), "\(second.err)")
        #expect(try objects(server, "focus-plan/") == before, "the desktop wrote nothing")
        #expect(try await desktop.run(["calendar", "publish", "Focus plan", "--stop"], env: direct).code == 64)
        #expect(try objects(server, "focus-plan/") == before, "nor deleted anything")

        func uid(_ text: String) -> String {
            text.split(separator: "\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? ""
        }
        // Deleted in another app: "not in this slot" (issue #40): planned elsewhere, said once.
        let first = before.first { $0.contains("DTSTART:20261125T070000Z") } ?? ""
        try server.delete("focus-plan/" + uid(first).replacingOccurrences(of: "@", with: "_") + ".ics")
        let again = try await laptop.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(again.err.contains("Thesis/Draft: not at Wed 25 Nov 08:00 (deleted in the calendar); planned"), "\(again.out) \(again.err)")
        let replanned = try objects(server, "focus-plan/")
        #expect(replanned.count == 2 && !replanned.contains { $0.contains("DTSTART:20261125T070000Z") }, "\(replanned)")

        // Dragged to 14:00 in a calendar app.
        let dragged = replanned.min { ($0.components(separatedBy: "DTSTART").last ?? "") < ($1.components(separatedBy: "DTSTART").last ?? "") } ?? ""
        let name = "focus-plan/" + uid(dragged).replacingOccurrences(of: "@", with: "_") + ".ics"
        let lines = dragged.split(separator: "\n").prefix { $0 != "END:VEVENT" }.filter { !$0.isEmpty }.map { line -> String in
            if line.hasPrefix("DTSTART") { return "DTSTART:20261125T130000Z" }
            if line.hasPrefix("DTEND") { return "DTEND:20261125T132500Z" }
            return String(line)
        }
        let moved = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//app//EN", "BEGIN:VEVENT"] + lines + ["SEQUENCE:1", "END:VEVENT", "END:VCALENDAR", ""])
            .joined(separator: "\r\n")
        _ = try server.put(name, ics: moved)
        let plan = try await laptop.run(["plan"], env: direct)
        #expect(plan.err.contains("Thesis/Draft is pinned at"), "\(plan.err)")
        let starts = try await planStarts(laptop)
        #expect(starts.count == 2 && starts.contains("2026-11-25T13:00:00Z") && !starts.contains("2026-11-25T07:00:00Z"),
                "the rest placed again, the pinned block kept: \(starts)")
        #expect(try objects(server, "focus-plan/").filter { $0.contains("DTSTART:20261125T130000Z") }.count == 1)

        // The whole calendar deleted in another app: made again at the next change, no warnings.
        #expect(try server.request("DELETE", "focus-plan/").status < 300)
        let edit = try await laptop.run(["task", "edit", "Thesis/Draft", "--notes", "Outline"], env: direct)
        #expect(edit.code == 0 && !edit.err.contains("warning"), "\(edit.err)")
        #expect(edit.err.contains("was deleted there: made it again"), "\(edit.err)")
        #expect(try objects(server, "focus-plan/").count == 2)
    }

    @Test("publish sends its writes several at once through a server that takes them together, each once; stop deletes them together")
    func publishSendsSeveralAtOnce() async throws {
        let server = try RadicaleServer()
        // Each PUT and DELETE held 50 ms, several at once, before Radicale has it.
        let slow = try SlowPutServer(hold: 0.05, upstream: server.rootURL, holdDeletes: true)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try await twelveBlocks(sandbox, connectedTo: server, through: slow.rootURL)

        let publish = try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(publish.out.contains("Published 12 planned blocks to Focus plan (12 new)."), "\(publish.out)\(publish.err)")
        let stats = try slow.stats()
        #expect(stats.mostInFlight > 1, "one PUT at a time")
        #expect(stats.written.count == 12 && stats.written.values.allSatisfy { $0 == 1 }, "\(stats.written)")
        #expect(try objects(server, "focus-plan/").filter { $0.contains("X-FOCUS-BLOCK") }.count == 12)
        #expect(!(try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct).out.contains("new")), "nothing to write again")

        let stop = try await sandbox.run(["calendar", "publish", "Focus plan", "--stop"], env: direct)
        #expect(stop.out.contains("Stopped publishing to Focus plan: 12 blocks still ahead deleted there."), "\(stop.out)\(stop.err)")
        let deletes = try slow.deleteStats()
        #expect(deletes.mostInFlight > 1, "one DELETE at a time")
        #expect(deletes.deleted.count == 12 && deletes.deleted.values.allSatisfy { $0 == 1 }, "\(deletes.deleted)")
        #expect(try objects(server, "focus-plan/").isEmpty)
    }

    @Test("a new event the server stored but whose answer was lost is sent again, found to be this focus's own and followed: no warning, one copy, a re-plan deletes it",
          arguments: RadicaleServer.Kind.allCases)
    func createAnswerLost(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        // Each PUT held 200 ms, several at once; one that arrives while another is held reaches
        // the server at once, and its connection is then cut without an answer.
        let slow = try SlowPutServer(hold: 0.2, upstream: server.rootURL, loseAnswers: 1)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try await twelveBlocks(sandbox, connectedTo: server, through: slow.rootURL)

        let publish = try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(publish.code == 0, "\(publish.err)")
        #expect(!publish.out.contains("warning") && !publish.err.contains("warning"), "\(publish.out)\(publish.err)")
        #expect(publish.out.contains("Published 12 planned blocks to Focus plan (12 new)."), "\(publish.out)\(publish.err)")
        let lost = try slow.lost()
        #expect(lost.count == 1, "an answer was lost: \(lost)")
        let events = try objects(server, "focus-plan/").filter { $0.contains("X-FOCUS-BLOCK") }
        let uids = events.compactMap { $0.split(separator: "\n").first { $0.hasPrefix("UID:") } }
        #expect(events.count == 12 && Set(uids).count == 12, "each block once: \(uids)")
        let path = try #require(lost.keys.first)
        #expect(try slow.stats().written[path] == 1, "found as focus wrote it: followed, not written again")

        // Its task done: the re-plan deletes its block there, as any other block it wrote.
        let copy = try server.request("GET", path)
        let title = try #require(copy.body.split(whereSeparator: \.isNewline).first { $0.hasPrefix("SUMMARY:") })
            .dropFirst("SUMMARY:".count).trimmingCharacters(in: .whitespacesAndNewlines)
        let done = try await sandbox.run(["task", "done", title], env: direct)
        #expect(done.code == 0 && !done.err.contains("warning"), "\(done.err)")
        #expect(done.err.contains("1 removed"), "\(done.err)")
        #expect(try server.request("GET", path).status == 404, "the block of a task done is left in the calendar")
        #expect(try objects(server, "focus-plan/").filter { $0.contains("X-FOCUS-BLOCK") }.count == 11)
        let again = try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct)
        #expect(!again.out.contains("warning") && !again.err.contains("warning") && !again.out.contains("new"), "\(again.out)\(again.err)")
    }

    @Test("a wrong password, a failing password command and a server that is down: one line, exit 69, the copy kept")
    func failures() async throws {
        let server = try RadicaleServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.put("work/standup.ics", ics: standup())

        let wrong = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-stdin"], env: direct, stdin: "nope\n")
        #expect(wrong.code == 69, "\(wrong.err)")
        #expect(wrong.err.hasPrefix("focus: error: ") && wrong.err.split(separator: "\n").count == 1, "\(wrong.err)")
        #expect(!wrong.err.contains("nope"), "the password is never shown")

        let failing = try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", "false"], env: direct)
        #expect(failing.code == 69)
        #expect(failing.err.contains("the password command 'false' failed"), "\(failing.err)")

        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-stdin"],
                                      env: direct, stdin: server.password + "\n").code == 0)
        server.stop()
        // A minute later (every process starts at FOCUS_NOW: the failure must come after the fetch).
        var direct = direct
        direct["FOCUS_NOW"] = "2026-11-24T23:01:00+01:00"
        let down = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: server.password + "\n")
        #expect(down.code == 69, "\(down.err)")
        #expect(down.err.contains("calendar 'Work' was not refreshed") && down.err.contains("is kept and used"), "\(down.err)")
        let busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25", "--json"], env: direct)
        #expect(busy.out.contains("Stand-up"))
        let agenda = try await sandbox.run(["agenda", "2026-11-25"], env: direct)
        #expect(agenda.out.hasPrefix("Note: calendar 'Work' was last refreshed"), "\(agenda.out)")
        #expect(agenda.out.contains("its last refresh failed"), "\(agenda.out)")
        let list = try await sandbox.run(["calendar", "list"], env: direct)
        #expect(list.out.contains("last refresh failed") && list.out.contains("(CalDAV)"), "\(list.out)")
        let doctor = try await sandbox.run(["doctor"], env: direct)
        #expect(doctor.code == 1 && doctor.out.contains("✗ calendar 'Work' was last refreshed"), "\(doctor.out)")
    }

    @Test("two refreshes at once store each event once")
    func concurrentRefreshes() async throws {
        let server = try RadicaleServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.put("work/standup.ics", ics: standup())
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        for i in 0..<5 {
            try server.put("work/extra-\(i).ics", ics: RadicaleServer.event(uid: "extra-\(i)@example.org", summary: "Extra \(i)",
                                                                           start: "20261126T1\(i)0000Z", end: "20261126T1\(i)3000Z"))
        }
        async let a = sandbox.run(["calendar", "refresh"], env: direct)
        async let b = sandbox.run(["calendar", "refresh"], env: direct)
        let (ra, rb) = try await (a, b)
        #expect(ra.code == 0 && rb.code == 0, "\(ra.err) \(rb.err)")
        let busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-26", "--json"], env: direct)
        let summaries = (json(busy.out) as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }
        #expect(summaries.count == 6 && Set(summaries).count == 6, "\(summaries)")
    }
}

/// `focus daemon` refreshes the connected calendar at start-up (then every `calendar_refresh`),
/// re-plans, and says what moved in a desktop notification, recorded on a private bus.
@Suite("The daemon keeps CalDAV calendars current", .serialized,
       .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"),
       .enabled(if: RadicaleServer.available, Comment(rawValue: RadicaleServer.missing)))
struct CalDAVDaemonTests {
    @Test("a changed event on the server moves the block, and a notification says so")
    func movedNotice() async throws {
        let server = try RadicaleServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.makeCalendar("work", displayName: "Work")
        try server.put("work/standup.ics", ics: standup())
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27"], env: direct).code == 0)
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        #expect(try await planStarts(sandbox) == ["2026-11-25T09:00:00Z"])
        try server.put("work/standup.ics", ics: standup(start: "20261125T070000Z", end: "20261125T100000Z"))

        let record = sandbox.dir.appendingPathComponent("notices.jsonl").path
        let script = TestRepository.script("servers/with-notify-bus")
        // 20 minutes later: the copy is older than calendar_refresh (15m), so the daemon fetches it at once.
        var environment = sandbox.environment.merging(direct) { $1 }
        environment["FOCUS_NOW"] = "2026-11-24T23:20:00+01:00"
        let daemonEnvironment = environment
        let shell = "\"$0\" daemon & p=$!; i=0; while [ $i -lt 100 ] && ! grep -q moved \"$1\" 2>/dev/null; do sleep 0.1; i=$((i+1)); done; kill -TERM $p; wait $p"
        let daemon = try await offPool {
            try TestProcess.run(script, [record, "--", "/bin/sh", "-c", shell, Sandbox.binary, record], environment: daemonEnvironment, stdin: nil, capture: true)
        }
        #expect(daemon.status == 0, "\(daemon.err)")
        let summaries = try DaemonTests.summaries(record)
        #expect(summaries == ["Thesis/Draft moved 10:00 → 11:00: changed event 'Stand-up'"], "\(summaries) \(daemon.err)")
        #expect(daemon.err.contains("Refreshed calendar Work: 1 event"), "\(daemon.err)")
        #expect(try await planStarts(sandbox) == ["2026-11-25T10:00:00Z"])
    }
}
