import FocusCore
import Foundation
import Synchronization
import Testing

/// Answers with a canned response (or error) and records the requests it got.
private final class FakeHTTPClient: HTTPClient {
    let answer: Result<HTTPResponse, FocusError>
    let requests = Mutex<[HTTPRequest]>([])
    init(_ answer: Result<HTTPResponse, FocusError>) { self.answer = answer }
    func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        requests.withLock { $0.append(request) }
        return try answer.get()
    }
    func transfers() -> any HTTPTransfers { SerialTransfers(send: send, pause: { _ in }) }
}

private let ics = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8)
private let kept = FeedState(etag: "\"v1\"", lastModified: "Mon, 23 Nov 2026 08:00:00 GMT")

private func refusal(_ client: FakeHTTPClient) -> FocusError? {
    do {
        _ = try CalendarFeed.fetch("https://h/x", state: kept, conditional: true, label: "c", client: client)
        return nil
    } catch {
        return error
    }
}

@Suite("Calendar feed decisions")
struct CalendarFeedDecisionTests {
    @Test("webcal is read as https; plain http only to this machine unless --insecure; no other scheme, no credentials")
    func addresses() throws {
        #expect(try CalendarFeed.address("webcal://p01.example.com/abc/basic.ics", insecure: false) == "https://p01.example.com/abc/basic.ics")
        #expect(try CalendarFeed.address("HTTPS://example.com", insecure: false) == "https://example.com/")
        #expect(try CalendarFeed.address("http://localhost:8080/x.ics#frag", insecure: false) == "http://localhost:8080/x.ics")
        #expect(try CalendarFeed.address("http://[::1]:80/x", insecure: false) == "http://[::1]:80/x")
        #expect(try CalendarFeed.address("https://xn--exmple-cua.com:8443/ab?c=é", insecure: false) == "https://xn--exmple-cua.com:8443/ab?c=é")
        #expect(try CalendarFeed.address("http://example.com/x", insecure: true) == "http://example.com/x")
        for bad in ["http://example.com/x", "ftp://example.com/x", "file:///etc/passwd", "https://u:p@example.com/x",
                    "https:///x", "example.com/x.ics", "https://exa mple.com/x", "", "https://exämple.com/x", "https://[zz/x",
                    "https://h:99999/x", "https://h:abc/x", "https://h:/x", "https://\(String(repeating: "a", count: 300)).com/x"] {
            #expect(throws: FocusError.self, "\(bad)") { try CalendarFeed.address(bad, insecure: false) }
        }
    }

    @Test("a refresh sends the kept validators; --accept-empty and a first fetch do not")
    func conditionalHeaders() throws {
        let client = FakeHTTPClient(.success(HTTPResponse(status: 304)))
        #expect(try CalendarFeed.fetch("https://h/x", state: kept, conditional: true, label: "c", client: client) == .unchanged)
        let sent = try #require(client.requests.withLock { $0.first })
        #expect(sent.header("if-none-match") == "\"v1\"")
        #expect(sent.header("If-Modified-Since") == "Mon, 23 Nov 2026 08:00:00 GMT")
        #expect(sent.connectTimeoutSeconds == 10 && sent.totalTimeoutSeconds == 60 && sent.maximumBytes == 32 << 20 && sent.maximumRedirects == 5)
        let plain = CalendarFeed.request(url: "https://h/x", state: kept, conditional: false)
        #expect(plain.header("If-None-Match") == nil && plain.header("If-Modified-Since") == nil)
        // A 304 to a request that was not conditional is not taken as "unchanged".
        let unasked = FakeHTTPClient(.success(HTTPResponse(status: 304)))
        #expect(throws: FocusError.self) { try CalendarFeed.fetch("https://h/x", state: FeedState(), conditional: true, label: "c", client: unasked) }
    }

    @Test("a body comes back with its validators")
    func body() throws {
        let client = FakeHTTPClient(.success(HTTPResponse(status: 200, headers: ["ETag": "\"v2\"", "Last-Modified": "Tue"], body: ics)))
        #expect(try CalendarFeed.fetch("https://h/x", state: kept, conditional: true, label: "c", client: client)
                == .body(ics, etag: "\"v2\"", lastModified: "Tue"))
    }

    @Test("statuses other than 2xx and 304 are 69; a web page is 65; network failures pass through")
    func refusals() {
        for status in [500, 502, 503, 401, 403, 404, 410, 418, 301] {
            let error = refusal(FakeHTTPClient(.success(HTTPResponse(status: status, body: ics))))
            #expect(error?.exitCode == 69, "\(status)")
        }
        for page in [HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: ics),
                     HTTPResponse(status: 200, body: Data("\u{FEFF}\n  <!DOCTYPE html><html>".utf8))] {
            let error = refusal(FakeHTTPClient(.success(page)))
            #expect(error?.exitCode == 65)
            #expect(error?.description.contains("web page") == true)
        }
        let down = FakeHTTPClient(.failure(.unavailable("could not connect")))
        #expect(throws: FocusError.unavailable("could not connect")) {
            try CalendarFeed.fetch("https://h/x", state: kept, conditional: true, label: "c", client: down)
        }
    }

    @Test("an empty feed replacing one with events is kept aside unless accepted")
    func emptyRule() {
        #expect(CalendarFeed.keepsAside(newEvents: 0, keptEvents: 12, acceptEmpty: false))
        #expect(!CalendarFeed.keepsAside(newEvents: 0, keptEvents: 12, acceptEmpty: true))
        #expect(!CalendarFeed.keepsAside(newEvents: 0, keptEvents: 0, acceptEmpty: false))
        #expect(!CalendarFeed.keepsAside(newEvents: 3, keptEvents: 12, acceptEmpty: false))
    }

    @Test("a failure keeps its exit code, names the calendar and the copy kept, and never shows the secret path")
    func failureLine() {
        let e = CalendarFeed.failure(.unavailable("https://h/… failed (HTTP 500)."), name: "Work", label: "calendar 'Work'", keptSince: "2026-11-23 08:00")
        #expect(e.exitCode == 69)
        #expect(e.description == "calendar 'Work' was not refreshed: https://h/… failed (HTTP 500). The copy fetched 2026-11-23 08:00 is kept and used.")
        let parse = CalendarFeed.failure(.badInput(file: "x", line: 3, reason: "bad line"), name: "Work", label: "calendar 'Work'", keptSince: "then")
        #expect(parse.exitCode == 65)
        #expect(parse.description == "calendar 'Work':3: bad line. The copy fetched then is kept and used.")
        #expect(CalendarFeed.shownAddress("https://calendar.google.com/calendar/ical/me%40gmail.com/private-abc123/basic.ics") == "https://calendar.google.com/…")
        #expect(FeedState.decode("not json") == FeedState())
        let state = FeedState(etag: "\"e\"", fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), caFile: "/ca.pem")
        #expect(FeedState.decode(state.encoded) == state)
    }
}
