import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Testing

/// The client under test, over libcurl, on a loopback server.
private let client = CalDAVHTTPClient(http: CurlHTTPClient(environment: ["FOCUS_HTTP_TIMEOUT_MS": "10000"]))

private func endpoint(_ server: RadicaleServer, url: String? = nil, password: String? = nil) -> CalDAVEndpoint {
    CalDAVEndpoint(url: url ?? server.rootURL, user: server.user, password: password ?? server.password)
}

private func text(_ resource: RemoteResource?) -> String {
    String(decoding: resource?.data ?? Data(), as: UTF8.self)
}

private let week = (from: Date(timeIntervalSince1970: 1_795_392_000), to: Date(timeIntervalSince1970: 1_795_996_800))  // 2026-11-23 … 11-30

@Suite("CalDAV against Radicale", .serialized, .enabled(if: RadicaleServer.available, Comment(rawValue: RadicaleServer.missing)))
struct CalDAVRadicaleTests {
    @Test("Discovery finds the principal and home from the root and from /.well-known/caldav")
    func discovery() throws {
        let server = try RadicaleServer()
        let fromRoot = try client.discover(endpoint(server))
        #expect(fromRoot.principalURL == server.homeURL)
        #expect(fromRoot.homeURLs == [server.homeURL])
        let fromWellKnown = try client.discover(endpoint(server, url: server.rootURL + ".well-known/caldav"))
        #expect(fromWellKnown.principalURL == server.homeURL)
        #expect(fromWellKnown.homeURLs == [server.homeURL])
    }

    @Test("Calendars lists the calendar collections with their components, ctag, token and sync support")
    func calendars() throws {
        let server = try RadicaleServer()
        try server.makeCalendar("work", displayName: "Work")
        try server.makeCalendar("todo", displayName: "Chores", components: ["VTODO"])
        let account = try client.discover(endpoint(server))
        let found = try client.calendars(account, endpoint(server)).sorted { $0.url < $1.url }
        #expect(found.map(\.url) == [server.url("todo/"), server.url("work/")])
        #expect(found.map(\.displayName) == ["Chores", "Work"])
        #expect(found.map(\.components) == [["VTODO"], ["VEVENT"]])
        #expect(found.map(\.holdsEvents) == [false, true])
        #expect(found.allSatisfy { $0.supportsSync && $0.syncToken != nil && $0.ctag != nil })
        let work = try client.calendar(at: server.url("work/"), endpoint(server))
        #expect(work.displayName == "Work")
        #expect(work.syncToken == found[1].syncToken)
    }

    @Test("An event put, changed and deleted shows in events and in changes with each new token")
    func eventLifeCycle() throws {
        let server = try RadicaleServer()
        let ep = endpoint(server)
        try server.makeCalendar("work")
        let calendar = server.url("work/")
        let first = try client.changes(in: calendar, since: nil, ep)
        #expect(first.complete && first.changed.isEmpty && first.token != nil)

        let url = server.url("work/standup.ics")
        let written = try client.put(url, ics: Data(RadicaleServer.event(uid: "standup", summary: "Standup").utf8), ifMatch: nil, ep)
        guard case let .written(etag) = written else { Issue.record("\(written)"); return }
        let events = try client.events(in: calendar, from: week.from, to: week.to, ep)
        #expect(events.map(\.url) == [url])
        #expect(events.first?.etag == etag)
        #expect(text(events.first).contains("SUMMARY:Standup"))
        #expect(try client.events(in: calendar, from: week.to, to: week.to.addingTimeInterval(86400), ep).isEmpty)

        let second = try client.changes(in: calendar, since: first.token, ep)
        #expect(!second.complete)
        #expect(second.changed.map(\.url) == [url])
        #expect(second.removed.isEmpty)
        #expect(second.token != first.token)

        // Counted at the HTTP port: one REPORT, no multiget.
        let counted = ScriptedHTTPClient { request throws(FocusError) in try CurlHTTPClient(environment: [:]).send(request) }
        let unchanged = try CalDAVHTTPClient(http: counted).changes(in: calendar, since: second.token, ep)
        #expect(unchanged.changed.isEmpty && unchanged.removed.isEmpty && !unchanged.complete)
        #expect(unchanged.token == second.token)
        #expect(counted.requests.map(\.method) == ["REPORT"])

        try server.put("work/standup.ics", ics: RadicaleServer.event(uid: "standup", summary: "Standup (moved)"))
        let third = try client.changes(in: calendar, since: second.token, ep)
        #expect(third.changed.count == 1)
        #expect(text(third.changed.first).contains("Standup (moved)"))

        #expect(try client.put(url, ics: Data(RadicaleServer.event(uid: "standup", summary: "Stale").utf8), ifMatch: etag, ep) == .changedOnServer)
        #expect(try client.put(url, ics: Data(RadicaleServer.event(uid: "standup", summary: "Again").utf8), ifMatch: nil, ep) == .changedOnServer)
        #expect(try client.delete(url, ifMatch: etag, ep) == .changedOnServer)

        try server.delete("work/standup.ics")
        let fourth = try client.changes(in: calendar, since: third.token, ep)
        #expect(fourth.removed == [url])
        #expect(fourth.changed.isEmpty)
        #expect(try client.delete(url, ifMatch: nil, ep) == .missing)
    }

    @Test("Members read again by address: those there with their data, those gone named")
    func resourcesByAddress() throws {
        let server = try RadicaleServer()
        let ep = endpoint(server)
        try server.makeCalendar("work")
        try server.put("work/standup.ics", ics: RadicaleServer.event(uid: "standup", summary: "Standup"))
        let read = try client.resources(at: [server.url("work/standup.ics"), server.url("work/gone.ics")], in: server.url("work/"), ep)
        #expect(read.found.map(\.url) == [server.url("work/standup.ics")])
        #expect(text(read.found.first).contains("SUMMARY:Standup"))
        #expect(read.found.first?.etag != nil)
        #expect(read.gone == [server.url("work/gone.ics")])
    }

    @Test("A refused token starts over with the whole collection")
    func refusedToken() throws {
        let server = try RadicaleServer()
        let ep = endpoint(server)
        try server.makeCalendar("work")
        try server.put("work/a.ics", ics: RadicaleServer.event(uid: "a", summary: "A"))
        let changes = try client.changes(in: server.url("work/"), since: "http://radicale.org/ns/sync/not-a-token", ep)
        #expect(changes.complete)
        #expect(changes.changed.map(\.url) == [server.url("work/a.ics")])
        #expect(changes.token != nil)
    }

    @Test("A whole collection is written in one PUT guarded by its entity tag; members are named after their UIDs")
    func collectionWrite() throws {
        let server = try RadicaleServer()
        let ep = endpoint(server)
        try server.makeCalendar("sync", displayName: "Focus", components: ["VEVENT", "VTODO"])
        let calendar = server.url("sync/")
        let empty = try client.members(of: calendar, ep)
        #expect(empty.members.isEmpty && empty.etag != nil && empty.token != nil)
        let events = ["a@focus", "b@focus"].map { uid in
            RadicaleServer.event(uid: uid, summary: uid).components(separatedBy: "\r\n").drop { $0 != "BEGIN:VEVENT" }
                .prefix { $0 != "END:VCALENDAR" }.map { $0 + "\r\n" }.joined()
        }
        let body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//focus//test//EN\r\nX-WR-CALNAME:Focus\r\n" + events.joined() + "END:VCALENDAR\r\n"
        // An outdated entity tag replaces nothing.
        #expect(try client.replaceCollection(calendar, ics: Data(body.utf8), ifMatch: "\"stale\"", ep) == .changedOnServer)
        #expect(try client.members(of: calendar, ep).members.isEmpty)
        let written = try client.replaceCollection(calendar, ics: Data(body.utf8), ifMatch: try #require(empty.etag), ep)
        guard case .written = written else { Issue.record("\(String(describing: written))"); return }
        let after = try client.members(of: calendar, ep)
        #expect(after.members.map(\.url).sorted() == [server.url("sync/a%40focus.ics"), server.url("sync/b%40focus.ics")])
        #expect(after.members.allSatisfy { $0.etag != nil })
        #expect(after.etag != empty.etag)
        // The calendar keeps its name, and reads as before.
        #expect(try client.calendar(at: calendar, ep).displayName == "Focus")
        #expect(try client.changes(in: calendar, since: nil, ep).changed.count == 2)
    }

    @Test("MKCALENDAR creates a VEVENT calendar, and says so when one is already there")
    func makeCalendar() throws {
        let server = try RadicaleServer()
        let ep = endpoint(server)
        guard case .written = try client.makeCalendar(server.url("focus/"), displayName: "Focus & co", ep) else {
            Issue.record("not created")
            return
        }
        let made = try client.calendar(at: server.url("focus"), ep)
        #expect(made.displayName == "Focus & co")
        #expect(made.components == ["VEVENT"])
        #expect(made.writable != false)
        #expect(try client.makeCalendar(server.url("focus/"), displayName: "Again", ep) == .changedOnServer)
    }

    @Test("A wrong password is a sentence about the login; a stopped server is unavailable")
    func failures() throws {
        let server = try RadicaleServer()
        do {
            _ = try client.discover(endpoint(server, password: "wrong"))
            Issue.record("accepted a wrong password")
        } catch {
            #expect(error == .unavailable("127.0.0.1 refused the login for user alice (HTTP 401): check the user name and the password (an app password for an account with two-step sign-in, as iCloud, Google and Fastmail ask)."))
        }
        let root = server.rootURL
        server.stop()
        do {
            _ = try client.discover(CalDAVEndpoint(url: root, user: "alice", password: "x"))
            Issue.record("reached a stopped server")
        } catch {
            guard case let .unavailable(message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("could not connect to http://127.0.0.1:"))
        }
    }
}
