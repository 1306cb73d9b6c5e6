import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Synchronization
import Testing

// Hostile servers against the origin rule (README, "What focus promises"): the login and every
// write go only to the origin (scheme, host, port) the account was connected at.

private let account = CalDAVEndpoint(url: "http://127.0.0.1:6001/", user: "alice", password: "s3cret")
private let calendarURL = "http://127.0.0.1:6001/u/cal/"

private func multistatus(_ inner: String, token: String? = nil) -> HTTPResponse {
    let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\(inner)\(token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "")</d:multistatus>
        """
    return HTTPResponse(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8))
}

private func member(_ href: String, data: String? = nil) -> String {
    let calendarData = data.map { "<c:calendar-data>\($0)</c:calendar-data>" } ?? ""
    return "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\"1\"</d:getetag>\(calendarData)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
}

private func thrown(_ body: () throws(FocusError) -> Void) -> FocusError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Warnings a client said.
private final class Warnings: Sendable {
    let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func client(_ http: any HTTPClient) -> CalDAVHTTPClient {
        CalDAVHTTPClient(http: http, warn: { line in self.lines.withLock { $0.append(line) } })
    }
}

/// Every request that carried the login went to the account's origin.
private func loginStayedHome(_ http: ScriptedHTTPClient) -> Bool {
    http.requests.allSatisfy { $0.user == nil && $0.password == nil || $0.url.hasPrefix("http://127.0.0.1:6001/") }
}

@Suite("The origin rule against hostile servers")
struct OriginRuleTests {
    @Test("A 307 to another port of the same host gets no login, and the account is not settled there")
    func redirectToAnotherPort() {
        let http = ScriptedHTTPClient { request in
            if request.url.hasPrefix("http://127.0.0.1:6001/") { return HTTPResponse(status: 307, headers: ["Location": "http://127.0.0.1:6002/dav/"]) }
            return multistatus("<d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/dav/principals/alice/</d:href></d:current-user-principal></d:prop></d:propstat></d:response>")
        }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: http).discover(account) }
        #expect(error?.exitCode == 69)
        #expect(error?.description.contains("redirected to an address focus does not follow") == true, "plain http to another port is another server")
        #expect(loginStayedHome(http))
        #expect(!http.requests.contains { $0.url.hasPrefix("http://127.0.0.1:6002/") && $0.password != nil })
    }

    @Test("An https redirect to another port is followed without the login; the principal named there is not taken")
    func httpsRedirectToAnotherPort() {
        let home = CalDAVEndpoint(url: "https://dav.example/", user: "alice", password: "s3cret")
        let http = ScriptedHTTPClient { request in
            if request.url.hasPrefix("https://dav.example/") { return HTTPResponse(status: 307, headers: ["Location": "https://dav.example:8443/dav/"]) }
            return multistatus("<d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/dav/principals/alice/</d:href></d:current-user-principal></d:prop></d:propstat></d:response>")
        }
        let warnings = Warnings()
        let error = thrown { () throws(FocusError) in _ = try warnings.client(http).discover(home) }
        #expect(error?.exitCode == 69)
        #expect(error?.description.contains("https://dav.example:8443/") == true, "the message names the other server")
        #expect(http.requests.filter { $0.url.hasPrefix("https://dav.example:8443/") }.allSatisfy { $0.user == nil && $0.password == nil })
        #expect(http.requests.contains { $0.url.hasPrefix("https://dav.example:8443/") }, "the read itself was followed")
    }

    @Test("A home listing naming a calendar on another host is ignored with a warning, and nothing is sent there")
    func foreignCalendarInHome() throws {
        let http = ScriptedHTTPClient { _ in
            multistatus("""
                <d:response><d:href>http://127.0.0.2:6003/u/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Trap</d:displayname></d:prop></d:propstat></d:response>
                <d:response><d:href>/u/work/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Work</d:displayname></d:prop></d:propstat></d:response>
                """)
        }
        let warnings = Warnings()
        let calendars = try warnings.client(http).calendars(CalDAVAccount(contextURL: account.url, principalURL: "http://127.0.0.1:6001/p/", homeURLs: ["http://127.0.0.1:6001/u/"]), account)
        #expect(calendars.map(\.displayName) == ["Work"])
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("http://127.0.0.2:6003/") == true)
        #expect(http.requests.allSatisfy { $0.url.hasPrefix("http://127.0.0.1:6001/") })
    }

    @Test("Hrefs outside the collection, by host, port or `..`, are never fetched, listed or written", arguments: [
        "http://localhost:6101/u/cal/evil.ics", "http://127.0.0.1:6009/u/cal/evil.ics", "/u/cal/../other/evil.ics",
        "/u/cal/%2e%2e/other/evil.ics", "https://127.0.0.1:6001/u/cal/evil.ics", "/u/calendar-next-door/evil.ics",
        // Issue #39: an encoded slash or a backslash, which a server may read as a separator.
        "/u/cal/..%2F..%2Fother%2Fevil.ics", "/u/cal/..%2f..%2fother%2fevil.ics", "/u/cal/..%5C..%5Cother%5Cevil.ics", "/u/cal/..\\..\\other\\evil.ics",
    ])
    func hrefsOutsideTheCollection(href: String) throws {
        let http = ScriptedHTTPClient { request in
            if request.body.map({ String(decoding: $0, as: UTF8.self).contains("sync-collection") }) == true {
                return multistatus(member(href) + member("/u/cal/good.ics"), token: "t2")
            }
            return multistatus(member(href, data: "BEGIN:VCALENDAR") + member("/u/cal/good.ics", data: "BEGIN:VCALENDAR"))
        }
        let warnings = Warnings()
        let client = warnings.client(http)
        let changes = try client.changes(in: calendarURL, since: nil, account)
        #expect(changes.changed.map(\.url) == ["http://127.0.0.1:6001/u/cal/good.ics"])
        let listing = try client.members(of: calendarURL, account)
        #expect(listing.members.map(\.url) == ["http://127.0.0.1:6001/u/cal/good.ics"])
        let events = try client.events(in: calendarURL, from: Date(), to: Date(), account)
        #expect(events.map(\.url) == ["http://127.0.0.1:6001/u/cal/good.ics"])
        #expect(!warnings.all.isEmpty)
        #expect(http.requests.allSatisfy { $0.url == calendarURL })
        let multiget = http.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }.filter { $0.contains("calendar-multiget") }
        #expect(multiget.allSatisfy { !$0.contains("evil") }, "a foreign href is never asked for")
    }

    @Test("A write goes only to the account's origin: a PUT or DELETE elsewhere is refused unsent", arguments: [
        "http://localhost:6101/u/cal/x.ics", "http://127.0.0.1:6002/u/cal/x.ics", "https://127.0.0.1:6001/u/cal/x.ics",
    ])
    func writesElsewhere(url: String) {
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 201) }
        let client = CalDAVHTTPClient(http: http)
        let put = thrown { () throws(FocusError) in _ = try client.put(url, ics: Data("BEGIN:VCALENDAR".utf8), ifMatch: nil, account) }
        let delete = thrown { () throws(FocusError) in _ = try client.delete(url, ifMatch: "\"1\"", account) }
        #expect(put?.exitCode == 69 && delete?.exitCode == 69)
        #expect(put?.description.contains("nothing was written") == true)
        #expect(http.requests.isEmpty)
    }

    @Test("A write redirected to another origin is refused, and the login never goes there")
    func writeRedirected() {
        let http = ScriptedHTTPClient { request in
            request.url.hasPrefix("http://127.0.0.1:6001/") ? HTTPResponse(status: 307, headers: ["Location": "http://localhost:6001/u/cal/x.ics"]) : HTTPResponse(status: 201)
        }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: http).put(calendarURL + "x.ics", ics: Data("x".utf8), ifMatch: nil, account) }
        #expect(error?.exitCode == 69)
        #expect(http.requests.count == 1)
    }

    @Test("A redirect to file://, gopher://, or plain http elsewhere: 69, not an address the person typed", arguments: [
        ("https://dav.example/", "file:///etc/passwd"), ("https://dav.example/", "gopher://dav.example/1"),
        ("https://dav.example/", "http://dav.example/cal/"), ("http://127.0.0.1:6001/", "http://192.0.2.1/cal/"),
        ("https://dav.example/", "data:text/calendar,BEGIN"),
    ])
    func redirectsNotFollowed(from: String, location: String) {
        let endpoint = CalDAVEndpoint(url: from, user: "alice", password: "s3cret")
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 302, headers: ["Location": location]) }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: http).events(in: from + "cal/", from: Date(), to: Date(), endpoint) }
        #expect(error?.exitCode == 69)
        #expect(error?.description.contains("redirected to an address focus does not follow") == true)
        #expect(error?.description.contains("--insecure") == false)
        #expect(http.requests.count == 1)
    }

    @Test("Origins compare scheme, host and port, with default ports and case", arguments: [
        ("https://Dav.Example/x", "https://dav.example:443/y", true), ("http://127.0.0.1:6001/", "http://127.0.0.1:6002/", false),
        ("http://h/", "https://h/", false), ("https://alice@h/", "https://h/", true), ("http://[::1]:80/", "http://[::1]/", true),
        ("https://h.:443/", "https://h/", true),
    ])
    func origins(a: String, b: String, same: Bool) {
        #expect((CalDAVHTTPClient.originKey(a) == CalDAVHTTPClient.originKey(b)) == same)
    }

    @Test("A password in an address is masked wherever it is shown")
    func maskedPasswords() {
        let address = "https://alice:S3cretPW@example.org/cal.ics"
        let error = thrown { () throws(FocusError) in _ = try CalendarFeed.address(address, insecure: false) }
        #expect(error != nil)
        #expect(error?.description.contains("S3cretPW") == false)
        #expect(error?.description.contains("alice:…@example.org") == true)
        #expect(!CalendarFeed.shownAddress(address).contains("S3cretPW"))
        #expect(CalendarFeed.masked("https://h.example/a:b@c") == "https://h.example/a:b@c", "an @ in the path is not a user part")
    }
}

@Suite("Feed redirects")
struct FeedRedirectTests {
    @Test("A feed is redirected only to https, or to plain http on its own origin; elsewhere is 69", arguments: [
        ("http://127.0.0.1:6001/f.ics", "http://127.0.0.1:6001/g.ics", true), ("http://127.0.0.1:6001/f.ics", "http://192.0.2.1/g.ics", false),
        ("https://h.example/f.ics", "file:///etc/passwd", false), ("https://h.example/f.ics", "gopher://h.example/", false),
        ("https://h.example/f.ics", "https://other.example/g.ics", true), ("https://h.example/f.ics", "http://h.example/g.ics", false),
    ])
    func feedRedirects(from: String, to: String, followed: Bool) {
        let http = ScriptedHTTPClient { request in
            request.url == from ? HTTPResponse(status: 302, headers: ["Location": to]) : HTTPResponse(status: 200, body: Data("BEGIN:VCALENDAR".utf8))
        }
        let error = thrown { () throws(FocusError) in _ = try FeedHTTPClient(http: http).get(HTTPRequest(url: from)) }
        #expect((error == nil) == followed)
        if !followed {
            #expect(error?.exitCode == 69 && error?.description.contains("redirected to an address focus does not follow") == true)
            #expect(http.requests.count == 1)
        }
        #expect(http.requests.allSatisfy { !$0.followRedirects })
    }
}
