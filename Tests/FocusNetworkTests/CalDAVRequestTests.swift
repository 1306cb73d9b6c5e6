import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Testing

private let calendar = "https://dav.example/alice/work/"
private let login = CalDAVEndpoint(url: "https://dav.example/", user: "alice", password: "s3cret")

private func multistatus(_ inner: String, token: String? = nil) -> HTTPResponse {
    let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\(inner)\(token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "")</d:multistatus>
        """
    return HTTPResponse(status: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8))
}

private func member(_ name: String, etag: String = "\"1\"", data: String? = nil) -> String {
    let calendarData = data.map { "<c:calendar-data>\($0)</c:calendar-data>" } ?? ""
    return "<d:response><d:href>/alice/work/\(name)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag>\(calendarData)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
}

private func removed(_ name: String) -> String {
    "<d:response><d:href>/alice/work/\(name)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
}

private func body(_ request: HTTPRequest) -> String { String(decoding: request.body ?? Data(), as: UTF8.self) }

/// The hrefs a calendar-multiget asked for, as `name.ics` names.
private func asked(_ request: HTTPRequest) -> [String] {
    body(request).components(separatedBy: "<d:href>").dropFirst().map { String($0.prefix { $0 != "<" }.split(separator: "/").last ?? "") }
}

/// Answers a multiget with data for every href asked.
private func multigetAnswer(_ request: HTTPRequest) -> HTTPResponse {
    multistatus(asked(request).map { member($0, data: "BEGIN:VCALENDAR&#13;&#10;UID:\($0)&#13;&#10;END:VCALENDAR") }.joined())
}

private func thrown(_ body: () throws(FocusError) -> Void) -> FocusError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

@Suite("CalDAV requests")
struct CalDAVRequestTests {
    @Test("An unchanged collection with a valid token costs exactly one request")
    func unchangedSync() throws {
        let http = ScriptedHTTPClient { _ in multistatus("", token: "t2") }
        let changes = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "t1", login)
        #expect(changes == RemoteChanges(complete: false, changed: [], removed: [], token: "t2"))
        #expect(http.requests.count == 1)
        let request = try #require(http.requests.first)
        #expect(request.method == "REPORT")
        #expect(request.header("Depth") == "0")
        #expect(body(request).contains("<d:sync-token>t1</d:sync-token>"))
        #expect(body(request).contains("<d:sync-level>1</d:sync-level>"))
        #expect(request.user == "alice" && request.password == "s3cret")
        #expect(request.url == calendar)
        #expect(!request.url.contains("s3cret"))
    }

    @Test("The login goes with the request as Basic; a 401 asking for Digest is answered once with it")
    func digestAfterChallenge() throws {
        let http = ScriptedHTTPClient { request in
            request.digest ? multistatus("", token: "t2")
                : HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Digest realm="dav", nonce="abc", qop="auth""#])
        }
        _ = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "t1", login)
        #expect(http.requests.map(\.digest) == [false, true])
        let basicOnly = ScriptedHTTPClient { _ in HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Basic realm="dav""#]) }
        #expect(thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: basicOnly).changes(in: calendar, since: "t1", login) } != nil)
        #expect(basicOnly.requests.count == 1, "a refused Basic login is not sent again")
    }

    @Test("Changed members are fetched by multiget in batches; removed ones are listed")
    func multigetBatches() throws {
        let names = (0..<250).map { "e\($0).ics" }
        let http = ScriptedHTTPClient { request in
            body(request).contains("sync-collection")
                ? multistatus(names.map { member($0) }.joined() + removed("gone.ics"), token: "t2")
                : multigetAnswer(request)
        }
        let changes = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "t1", login)
        #expect(changes.changed.count == 250)
        #expect(changes.removed == ["https://dav.example/alice/work/gone.ics"])
        #expect(changes.token == "t2")
        #expect(!changes.complete)
        let multigets = http.requests.dropFirst()
        #expect(multigets.map { asked($0).count } == [100, 100, 50])
        #expect(multigets.allSatisfy { $0.method == "REPORT" && $0.header("Depth") == "1" && body($0).contains("calendar-multiget") })
        #expect(Set(multigets.flatMap(asked)) == Set(names))
        #expect(changes.changed.first?.url == "https://dav.example/alice/work/e0.ics")
        #expect(changes.changed.first?.data == Data("BEGIN:VCALENDAR\r\nUID:e0.ics\r\nEND:VCALENDAR".utf8))
    }

    @Test("A whole-collection write goes to the collection with If-Match; a server that refuses such writes answers nil", arguments: [
        (201, "written"), (204, "written"), (412, "changed"), (405, "nil"), (403, "nil"), (409, "nil"), (415, "nil"), (500, "nil"), (501, "nil"),
    ])
    func collectionWrite(status: Int, expected: String) throws {
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: status, headers: [:], body: Data()) }
        let result = try CalDAVHTTPClient(http: http).replaceCollection("https://dav.example/alice/work", ics: Data("BEGIN:VCALENDAR".utf8), ifMatch: "\"c1\"", login)
        let said: String
        switch result {
        case .written?: said = "written"
        case .changedOnServer?: said = "changed"
        case .missing?: said = "missing"
        case nil: said = "nil"
        }
        #expect(said == expected)
        let request = try #require(http.requests.first)
        #expect(request.method == "PUT" && request.url == "https://dav.example/alice/work/" && request.header("If-Match") == "\"c1\"")
    }

    @Test("A listing names the collection's entity tag and token apart from its members")
    func listing() throws {
        let http = ScriptedHTTPClient { _ in
            multistatus("<d:response><d:href>/alice/work/</d:href><d:propstat><d:prop><d:getetag>\"c9\"</d:getetag><d:sync-token>t9</d:sync-token>"
                + "<d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                + member("a.ics", etag: "\"1\"") + member("b.ics", etag: "\"2\""))
        }
        let listing = try CalDAVHTTPClient(http: http).members(of: calendar, login)
        #expect(listing.etag == "\"c9\"" && listing.token == "t9")
        #expect(listing.members == [RemoteResource(url: calendar + "a.ics", etag: "\"1\""), RemoteResource(url: calendar + "b.ics", etag: "\"2\"")])
        #expect(http.requests.first?.header("Depth") == "1")
    }

    @Test("Two spellings of one address in two answers are one member (RFC 3986 normal form)")
    func hrefsCompareInNormalForm() throws {
        let http = ScriptedHTTPClient { request in
            body(request).contains("sync-collection")
                ? multistatus(member("caf%c3%a9%7e.ics") + member("HAS SPACE.ics") + removed("old%3apart.ics"), token: "t2")
                : multistatus(member("caf%C3%A9~.ics", data: "BEGIN:VCALENDAR&#13;&#10;UID:a&#13;&#10;END:VCALENDAR")
                    + member("HAS%20SPACE.ics", data: "BEGIN:VCALENDAR&#13;&#10;UID:b&#13;&#10;END:VCALENDAR"))
        }
        let changes = try CalDAVHTTPClient(http: http).changes(in: "HTTPS://DAV.example/alice/work/", since: "t1", login)
        #expect(changes.changed.map(\.url).sorted() == ["https://dav.example/alice/work/HAS%20SPACE.ics", "https://dav.example/alice/work/caf%C3%A9~.ics"])
        #expect(changes.changed.allSatisfy { $0.data?.isEmpty == false })
        #expect(changes.removed == ["https://dav.example/alice/work/old%3Apart.ics"], "a reserved character stays encoded (an encoded slash is refused: OriginRuleTests)")
        #expect(CalDAVAddress.normalized("https://me@DAV.Example:8443/a%7Eb/%41?x=%2f") == "https://me@dav.example:8443/a~b/A?x=%2F")
    }

    @Test("A refused token starts over without one, and the answer is the whole collection", arguments: [403, 409, 400])
    func refusedToken(status: Int) throws {
        let http = ScriptedHTTPClient { request in
            let text = body(request)
            if text.contains("<d:sync-token>old</d:sync-token>") {
                return HTTPResponse(status: status, body: Data("<d:error xmlns:d=\"DAV:\"><d:valid-sync-token/></d:error>".utf8))
            }
            return text.contains("sync-collection") ? multistatus(member("a.ics"), token: "fresh") : multigetAnswer(request)
        }
        let changes = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "old", login)
        #expect(changes.complete)
        #expect(changes.token == "fresh")
        #expect(changes.changed.map(\.url) == ["https://dav.example/alice/work/a.ics"])
        #expect(http.requests.count == 3)
        #expect(body(http.requests[1]).contains("<d:sync-token/>"))
    }

    @Test("A server without sync-collection is read whole: PROPFIND of the members, then multiget", arguments: [501, 403, 405])
    func noSyncCollection(status: Int) throws {
        let http = ScriptedHTTPClient { request in
            if request.method == "PROPFIND" {
                return multistatus("<d:response><d:href>/alice/work/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop></d:propstat></d:response>"
                    + member("a.ics") + member("b.ics"))
            }
            return body(request).contains("sync-collection") ? HTTPResponse(status: status) : multigetAnswer(request)
        }
        let changes = try CalDAVHTTPClient(http: http).changes(in: calendar, since: nil, login)
        #expect(changes.complete)
        #expect(changes.token == nil)
        #expect(changes.changed.map(\.url).sorted() == ["https://dav.example/alice/work/a.ics", "https://dav.example/alice/work/b.ics"])
        #expect(http.requests.map(\.method) == ["REPORT", "PROPFIND", "REPORT"])
        #expect(http.requests[1].header("Depth") == "1")
    }

    @Test("Answers that are not a multistatus are bad input; a failing server is unavailable", arguments: [
        (HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)), "web page (HTML)"),
        (HTTPResponse(status: 207, body: Data("<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a".utf8)), "not well-formed XML"),
        (HTTPResponse(status: 207, body: Data([0xFF, 0x00, 0x13, 0x37])), "not well-formed XML"),
        (HTTPResponse(status: 207, body: Data("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>".utf8)), "where a WebDAV multistatus was expected"),
        (HTTPResponse(status: 200, body: Data("ok".utf8)), "HTTP 200 where a WebDAV multistatus (207) was expected"),
    ])
    func notMultistatus(response: HTTPResponse, reason: String) {
        let http = ScriptedHTTPClient { _ in response }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: http).events(in: calendar, from: Date(), to: Date(), login) }
        guard case let .badInput(file, _, said) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(file == "https://dav.example/…")
        #expect(said.contains(reason), "\(said)")
    }

    @Test("5xx is unavailable and names the host, not the path")
    func serverError() {
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 503, body: Data("Service Unavailable".utf8)) }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "t", login) }
        #expect(error == .unavailable("https://dav.example/… failed (HTTP 503) answering REPORT: Service Unavailable: try again later."))
    }

    @Test("events asks a calendar-query of VEVENTs in the UTC range")
    func calendarQuery() throws {
        let http = ScriptedHTTPClient { _ in multistatus(member("a.ics", data: "<![CDATA[BEGIN:VCALENDAR\r\nEND:VCALENDAR]]>")) }
        let events = try CalDAVHTTPClient(http: http).events(in: calendar, from: Date(timeIntervalSince1970: 1_795_392_000),
                                                           to: Date(timeIntervalSince1970: 1_795_996_800), login)
        #expect(events == [RemoteResource(url: "https://dav.example/alice/work/a.ics", etag: "\"1\"", data: Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR".utf8))])
        let request = try #require(http.requests.first)
        #expect(request.method == "REPORT" && request.header("Depth") == "1")
        #expect(body(request).contains("<c:time-range start=\"20261123T000000Z\" end=\"20261130T000000Z\"/>"))
        #expect(body(request).contains("<c:comp-filter name=\"VEVENT\">"))
    }

    @Test("Writes are conditional and their statuses mean written, changed or missing")
    func writes() throws {
        let statuses = [201, 412, 404, 204]
        let next = ScriptedHTTPClient { request in
            let status = statuses[min(3, ["PUT": 0, "DELETE": 3][request.method].map { $0 } ?? 0)]
            return HTTPResponse(status: status, headers: status == 201 ? ["ETag": "\"v2\""] : [:])
        }
        let client = CalDAVHTTPClient(http: next)
        let ics = Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try client.put(calendar + "a.ics", ics: ics, ifMatch: nil, login) == .written(etag: "\"v2\""))
        #expect(try client.delete(calendar + "a.ics", ifMatch: "\"v2\"", login) == .written(etag: nil))
        let put = next.requests[0]
        #expect(put.header("If-None-Match") == "*" && put.header("If-Match") == nil)
        #expect(put.header("Content-Type") == "text/calendar; charset=utf-8")
        #expect(put.body == ics)
        #expect(next.requests[1].header("If-Match") == "\"v2\"")

        for (status, expected) in [(412, RemoteWrite.changedOnServer), (404, .missing), (410, .missing), (204, .written(etag: nil))] {
            let http = ScriptedHTTPClient { _ in HTTPResponse(status: status) }
            #expect(try CalDAVHTTPClient(http: http).put(calendar + "a.ics", ics: ics, ifMatch: "\"v1\"", login) == expected)
            #expect(http.requests.first?.header("If-Match") == "\"v1\"")
        }
    }

    @Test("Discovery falls back to /.well-known/caldav, follows its redirect with the PROPFIND, and resolves relative hrefs")
    func discovery() throws {
        let http = ScriptedHTTPClient { request in
            switch request.url {
            case "https://dav.example/": return HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8))
            case "https://dav.example/.well-known/caldav": return HTTPResponse(status: 301, headers: ["Location": "/dav/"])
            case "https://dav.example/dav/":
                return multistatus("<d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>principals/alice/</d:href></d:current-user-principal></d:prop></d:propstat></d:response>")
            case "https://dav.example/dav/principals/alice/":
                return multistatus("<d:response><d:href>/dav/principals/alice/</d:href><d:propstat><d:prop><c:calendar-home-set><d:href>https://dav.example/dav/calendars/alice</d:href></c:calendar-home-set></d:prop></d:propstat></d:response>")
            default: return HTTPResponse(status: 404)
            }
        }
        let account = try CalDAVHTTPClient(http: http).discover(login)
        #expect(account == CalDAVAccount(contextURL: "https://dav.example/dav/", principalURL: "https://dav.example/dav/principals/alice/",
                                         homeURLs: ["https://dav.example/dav/calendars/alice/"]))
        #expect(http.requests.allSatisfy { $0.method == "PROPFIND" && $0.header("Depth") == "0" && $0.body != nil && !$0.followRedirects })
    }

    @Test("A redirect to another host gets no login; one down to http is refused")
    func redirects() throws {
        let other = ScriptedHTTPClient { request in
            request.url.hasPrefix("https://dav.example/")
                ? HTTPResponse(status: 302, headers: ["Location": "https://elsewhere.example/dav/"])
                : multistatus(member("a.ics", data: "x"))
        }
        _ = try CalDAVHTTPClient(http: other).events(in: calendar, from: Date(), to: Date(), login)
        #expect(other.requests.map(\.user) == ["alice", nil])
        #expect(other.requests.map(\.password) == ["s3cret", nil])

        let down = ScriptedHTTPClient { _ in HTTPResponse(status: 301, headers: ["Location": "http://dav.example/x/"]) }
        let error = thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: down).events(in: calendar, from: Date(), to: Date(), login) }
        #expect(error == .unavailable("https://dav.example/… redirected to an address focus does not follow (never from https down to http)."))
        #expect(down.requests.count == 1)
    }

    @Test("A refused login and an address that is not CalDAV are sentences")
    func discoveryFailures() {
        let refused = ScriptedHTTPClient { _ in HTTPResponse(status: 401) }
        #expect(thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: refused).discover(login) }
            == .unavailable("dav.example refused the login for user alice (HTTP 401): check the user name and the password (an app password for an account with two-step sign-in, as iCloud, Google and Fastmail ask)."))
        let web = ScriptedHTTPClient { _ in HTTPResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html/>".utf8)) }
        #expect(thrown { () throws(FocusError) in _ = try CalDAVHTTPClient(http: web).discover(login) }
            == .unavailable("https://dav.example/ is not a CalDAV server: neither that address nor /.well-known/caldav on its host names a current-user-principal (RFC 5397). Give the CalDAV address your calendar provider documents."))
        // Then a GET of the address: an iCalendar feed there is named as one (a web page is not).
        #expect(web.requests.map { "\($0.method) \($0.url)" } == ["PROPFIND https://dav.example/", "PROPFIND https://dav.example/.well-known/caldav", "GET https://dav.example/"])
    }

    @Test("Plain http goes to loopback only, unless insecure")
    func plainHTTP() throws {
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 204) }
        let client = CalDAVHTTPClient(http: http)
        let far = CalDAVEndpoint(url: "http://dav.example/", user: "alice", password: "x")
        guard case .usage = thrown({ () throws(FocusError) in _ = try client.delete("http://dav.example/a.ics", ifMatch: nil, far) }) else {
            Issue.record("plain http to another host was sent")
            return
        }
        #expect(http.requests.isEmpty)
        var insecure = far
        insecure.insecure = true
        #expect(try client.delete("http://dav.example/a.ics", ifMatch: nil, insecure) == .written(etag: nil))
        let loopback = CalDAVEndpoint(url: "http://127.0.0.1:5232/", user: "alice", password: "x")
        #expect(try client.delete("http://127.0.0.1:5232/a.ics", ifMatch: nil, loopback) == .written(etag: nil))
    }

    @Test("Two thousand events read through changes")
    func thousands() throws {
        let event = String(repeating: "DESCRIPTION:a long line of text &amp; more &#13;&#10;", count: 8)
        let names = (0..<2000).map { "event-\($0).ics" }
        let members = names.map { member($0, data: event) }.joined()
        let http = ScriptedHTTPClient { request in
            body(request).contains("sync-collection") ? multistatus(names.map { member($0) }.joined(), token: "t")
                : multistatus(asked(request).isEmpty ? members : asked(request).map { member($0, data: event) }.joined())
        }
        let changes = try CalDAVHTTPClient(http: http, multigetBatch: 2000).changes(in: calendar, since: nil, login)
        #expect(changes.changed.count == 2000)
        #expect(changes.changed.last?.url == "https://dav.example/alice/work/event-1999.ics")
    }
}

@Suite("HTTP request lines")
struct HTTPRequestLineTests {
    @Test("A line break inside a header value cannot start another header")
    func headerInjection() {
        #expect(CurlHTTPClient.oneLine("If-Match: \"1\"\r\nX-Evil: yes") == "If-Match: \"1\"  X-Evil: yes")
    }
}

@Suite("CalDAV sync in parts")
struct CalDAVTruncatedSyncTests {
    @Test("A sync answer cut short (507 on the collection) is continued with its token until complete")
    func truncated() throws {
        let http = ScriptedHTTPClient { request in
            let text = body(request)
            guard text.contains("sync-collection") else { return multigetAnswer(request) }
            if text.contains("<d:sync-token>t1</d:sync-token>") {
                return multistatus(member("a.ics") + member("b.ics")
                    + "<d:response><d:href>/alice/work/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>", token: "t1b")
            }
            return multistatus(member("c.ics") + removed("b.ics"), token: "t2")
        }
        let changes = try CalDAVHTTPClient(http: http).changes(in: calendar, since: "t1", login)
        #expect(changes.changed.map(\.url) == ["https://dav.example/alice/work/a.ics", "https://dav.example/alice/work/c.ics"])
        #expect(changes.removed == ["https://dav.example/alice/work/b.ics"])
        #expect(changes.token == "t2")
        #expect(http.requests.count == 3)
        #expect(body(http.requests[1]).contains("<d:sync-token>t1b</d:sync-token>"))
    }
}
