import FocusCore
import FocusCoreTestSupport
import FocusNetwork
import Foundation
import Testing

/// Writes sent together (`CalDAVClient.writes`): over libcurl's multi interface against a
/// loopback server that holds each PUT (scripts/servers/slow-put-server.py), and on recorded answers.
private func event(_ n: Int) -> Data {
    Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\(n)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
}

private func collect(_ writes: any RemoteWrites) -> [RemoteWriteCompletion] {
    var done: [RemoteWriteCompletion] = []
    while writes.inFlight > 0, let completion = writes.next(waitingAtMost: nil) { done.append(completion) }
    return done
}

@Suite(.serialized) struct CalDAVWritesTests {
    @Test func libcurlSendsEightPUTsAtOnceAndEachArrivesOnce() throws {
        let server = try SlowPutServer(hold: 0.5)
        let client = CalDAVHTTPClient(http: CurlHTTPClient(environment: [:]))
        let writes = client.writes(CalDAVEndpoint(url: server.rootURL))
        for n in 0..<8 { writes.start(.put(url: server.rootURL + "cal/\(n).ics", ics: event(n), ifMatch: nil), tag: n) }
        let done = collect(writes)
        #expect(Set(done.map(\.tag)) == Set(0..<8))
        for completion in done {
            guard case let .success(.written(etag)) = completion.result else {
                Issue.record("write \(completion.tag): \(completion.result)")
                continue
            }
            #expect(etag != nil)
        }
        let stats = try server.stats()
        #expect(stats.mostInFlight == 8)
        #expect(stats.written.count == 8 && stats.written.values.allSatisfy { $0 == 1 })

        // The connections are kept: a second round is answered as the first, and a create of
        // something there already is refused (If-None-Match: *).
        for n in 0..<8 { writes.start(.put(url: server.rootURL + "cal/\(n < 4 ? n : n + 8).ics", ics: event(n), ifMatch: nil), tag: n) }
        let again = collect(writes)
        #expect(again.filter { if case .success(.changedOnServer) = $0.result { true } else { false } }.count == 4)
        #expect(again.filter { if case .success(.written) = $0.result { true } else { false } }.count == 4)
    }

    @Test func aPushBackComesWithItsStatusAndRetryAfter() throws {
        let http = ScriptedHTTPClient { request in
            request.url.hasSuffix("busy.ics") ? HTTPResponse(status: 503, headers: ["Retry-After": "7"])
                : request.url.hasSuffix("many.ics") ? HTTPResponse(status: 429) : HTTPResponse(status: 201, headers: ["ETag": "\"1\""])
        }
        let writes = CalDAVHTTPClient(http: http).writes(CalDAVEndpoint(url: "https://dav.example/", user: "alice", password: "s3cret"))
        writes.start(.put(url: "https://dav.example/cal/busy.ics", ics: event(1), ifMatch: nil), tag: 1)
        writes.start(.put(url: "https://dav.example/cal/many.ics", ics: event(2), ifMatch: "\"3\""), tag: 2)
        writes.start(.delete(url: "https://dav.example/cal/ok.ics", ifMatch: "\"1\""), tag: 3)
        let done = Dictionary(uniqueKeysWithValues: collect(writes).map { ($0.tag, $0) })
        #expect(done[1]?.pushBack == 503 && done[1]?.retryAfter == "7")
        #expect(done[2]?.pushBack == 429 && done[2]?.retryAfter == nil)
        #expect(done[3]?.pushBack == nil)
        if case .success(.written) = done[3]?.result {} else { Issue.record("the DELETE: \(String(describing: done[3]?.result))") }
        #expect(http.requests.map { $0.header("If-None-Match") ?? $0.header("If-Match") ?? "" } == ["*", "\"3\"", "\"1\""])
    }

    @Test func aWriteToAnotherServerIsRefusedWithoutARequest() {
        let http = ScriptedHTTPClient { _ in HTTPResponse(status: 201) }
        let writes = CalDAVHTTPClient(http: http).writes(CalDAVEndpoint(url: "https://dav.example/", user: "alice", password: "s3cret"))
        writes.start(.put(url: "https://elsewhere.example/cal/a.ics", ics: event(1), ifMatch: nil), tag: 1)
        let done = collect(writes)
        guard case .failure = done.first?.result else {
            Issue.record("written elsewhere")
            return
        }
        #expect(http.requests.isEmpty)
    }
}
