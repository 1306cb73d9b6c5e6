import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Testing

/// What other servers than Radicale answer, as focus reads it (README, "A CalDAV account").
@Suite("CalDAV server quirks")
struct CalDAVServerQuirksTests {
    @Test("An iCalendar address given to connect is named a feed, with the subscribe line to use")
    func feedGivenToConnect() {
        let http = ScriptedHTTPClient { request in
            if request.method == "GET" {
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8))
            }
            return HTTPResponse(status: 501, body: Data("Not Implemented".utf8))
        }
        do {
            _ = try CalDAVHTTPClient(http: http).discover(CalDAVEndpoint(url: "http://127.0.0.1:8080/team.ics"))
            Issue.record("discovery of a feed succeeded")
        } catch {
            #expect(error.exitCode == 64)
            #expect(error.description.contains("is an iCalendar feed"), "\(error.description)")
            #expect(error.description.contains("`focus calendar subscribe 'http://127.0.0.1:8080/team.ics'`"), "\(error.description)")
        }
        // A server that is down and serves no calendar either keeps its own sentence.
        let down = ScriptedHTTPClient { _ in HTTPResponse(status: 503, body: Data("Service Unavailable".utf8)) }
        do {
            _ = try CalDAVHTTPClient(http: down).discover(CalDAVEndpoint(url: "http://127.0.0.1:8080/dav/"))
        } catch {
            #expect(error.description.contains("HTTP 503"), "\(error.description)")
        }
    }

    @Test("A collection whose resource type is a scheduling inbox or outbox (RFC 6638) is marked, and never counts as busy time")
    func schedulingCollections() throws {
        func collection(_ path: String, _ type: String, _ name: String) -> String {
            "<d:response><d:href>\(path)</d:href><d:propstat><d:prop><d:resourcetype><d:collection/>\(type)</d:resourcetype><d:displayname>\(name)</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        }
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
            \(collection("/caldav.php/alice/", "<d:principal/>", "Alice"))\
            \(collection("/caldav.php/alice/calendar/", "<c:calendar/>", "Work &amp;amp; Life"))\
            \(collection("/caldav.php/alice/.in/", "<c:calendar/><c:schedule-inbox/>", "alice inbox"))\
            \(collection("/caldav.php/alice/.out/", "<c:calendar/><c:schedule-outbox/>", "alice outbox"))\
            </d:multistatus>
            """
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 207, headers: ["Content-Type": "application/xml"], body: Data(body.utf8)) }
        let account = CalDAVAccount(contextURL: "https://dav.example/", principalURL: "https://dav.example/caldav.php/alice/",
                                    homeURLs: ["https://dav.example/caldav.php/alice/"])
        let found = try CalDAVHTTPClient(http: http).calendars(account, CalDAVEndpoint(url: "https://dav.example/"))
        #expect(found.map(\.scheduling) == [false, true, true])
        let busy = try CalDAVChoice.busyCalendars(found, named: [])
        #expect(busy.map(\.displayName) == ["Work & Life"], "DAViCal's escaped name decoded once more; no inbox, no outbox")
        #expect(CalDAVChoice.calendar(named: "Work & Life", in: found)?.url == "https://dav.example/caldav.php/alice/calendar/")
    }

    @Test("An inbox and outbox listed as plain calendars are marked when the principal names them (RFC 6638 schedule-inbox-URL)")
    func schedulingCollectionsNamedByThePrincipal() throws {
        func collection(_ path: String, _ type: String, _ name: String) -> String {
            "<d:response><d:href>\(path)</d:href><d:propstat><d:prop><d:resourcetype><d:collection/>\(type)</d:resourcetype><d:displayname>\(name)</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        }
        let principal = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/caldav.php/alice/</d:href>\
            <d:propstat><d:prop><d:current-user-principal><d:href>/caldav.php/alice/</d:href></d:current-user-principal>\
            <c:calendar-home-set><d:href>/caldav.php/alice/</d:href></c:calendar-home-set>\
            <c:schedule-inbox-URL><d:href>/caldav.php/alice/.in/</d:href></c:schedule-inbox-URL>\
            <c:schedule-outbox-URL><d:href>/caldav.php/alice/.out/</d:href></c:schedule-outbox-URL>\
            </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """
        let listing = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
            \(collection("/caldav.php/alice/", "<d:principal/>", "Alice"))\
            \(collection("/caldav.php/alice/calendar/", "<c:calendar/>", "Work"))\
            \(collection("/caldav.php/alice/.in/", "<c:calendar/>", "alice inbox"))\
            \(collection("/caldav.php/alice/.out/", "<c:calendar/>", "alice outbox"))\
            </d:multistatus>
            """
        let http = ScriptedHTTPClient { request in
            let body = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let text = body.contains("calendar-home-set") || body.contains("current-user-principal") ? principal : listing
            return HTTPResponse(status: 207, headers: ["Content-Type": "application/xml"], body: Data(text.utf8))
        }
        let client = CalDAVHTTPClient(http: http)
        let account = try client.discover(CalDAVEndpoint(url: "https://dav.example/caldav.php/"))
        #expect(account.schedulingURLs == ["https://dav.example/caldav.php/alice/.in/", "https://dav.example/caldav.php/alice/.out/"], "\(account)")
        let found = try client.calendars(account, CalDAVEndpoint(url: "https://dav.example/caldav.php/"))
        #expect(found.map(\.scheduling) == [false, true, true], "\(found)")
        #expect(try CalDAVChoice.busyCalendars(found, named: []).map(\.displayName) == ["Work"])
    }
}
