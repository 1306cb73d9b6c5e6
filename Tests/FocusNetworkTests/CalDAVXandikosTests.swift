import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Testing

/// The client against Xandikos, where it differs from Radicale (README, "A CalDAV account"):
/// no whole-collection PUT (Radicale takes one), and no login of its own over plain HTTP.
private let client = CalDAVHTTPClient(http: CurlHTTPClient(environment: ["FOCUS_HTTP_TIMEOUT_MS": "10000"]))

@Suite("CalDAV against Xandikos", .serialized, .enabled(if: RadicaleServer.bothAvailable, Comment(rawValue: RadicaleServer.missing)))
struct CalDAVXandikosTests {
    @Test("Discovery finds the principal and its calendar home; MKCALENDAR makes a calendar and refuses a second at the same place")
    func discoveryAndMakeCalendar() throws {
        let server = try RadicaleServer(.xandikos)
        let ep = CalDAVEndpoint(url: server.rootURL)
        let account = try client.discover(ep)
        #expect(account.homeURLs == [server.homeURL])
        guard case .written = try client.makeCalendar(server.url("focus/"), displayName: "Focus & co", ep) else {
            Issue.record("not created")
            return
        }
        #expect(try client.calendars(account, ep).map(\.displayName) == ["Focus & co"])
        #expect(try client.makeCalendar(server.url("focus/"), displayName: "Again", ep) == .changedOnServer)
    }

    @Test("A PUT of a whole collection is refused (Xandikos; Radicale takes it): the items then go one by one")
    func noCollectionWrite() throws {
        let server = try RadicaleServer(.xandikos)
        let ep = CalDAVEndpoint(url: server.rootURL)
        try server.makeCalendar("sync", displayName: "Focus", components: ["VEVENT", "VTODO"])
        let calendar = server.url("sync/")
        let empty = try client.members(of: calendar, ep)
        #expect(empty.members.isEmpty)
        let body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//focus//test//EN\r\n"
            + "BEGIN:VEVENT\r\nUID:a@focus\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261125T150000Z\r\nSUMMARY:a\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(try client.replaceCollection(calendar, ics: Data(body.utf8), ifMatch: empty.etag ?? "*", ep) == nil)
        #expect(try client.members(of: calendar, ep).members.isEmpty, "nothing written")
        guard case .written = try client.put(calendar + "a.ics", ics: Data(body.utf8), ifMatch: nil, ep) else {
            Issue.record("one item not written")
            return
        }
        #expect(try client.changes(in: calendar, since: nil, ep).changed.count == 1)
    }

    @Test("Members read again by address: those there with their data, those gone named")
    func resourcesByAddress() throws {
        let server = try RadicaleServer(.xandikos)
        let ep = CalDAVEndpoint(url: server.rootURL)
        try server.makeCalendar("work")
        try server.put("work/standup.ics", ics: RadicaleServer.event(uid: "standup", summary: "Standup"))
        let read = try client.resources(at: [server.url("work/standup.ics"), server.url("work/gone.ics")], in: server.url("work/"), ep)
        #expect(read.found.map(\.url) == [server.url("work/standup.ics")])
        let body = read.found.first?.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(body.contains("SUMMARY:Standup"))
        #expect(read.found.first?.etag != nil)
        #expect(read.gone == [server.url("work/gone.ics")])
    }
}
