import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// scripts/servers/feed-server.py on a free loopback port, serving `feed.ics` from its own directory in
/// the mode written to `mode`, and logging every request it answered.
final class FeedServer: @unchecked Sendable {
    let dir: URL
    private var pid: pid_t = 0
    let port: Int
    let scheme: String

    init(tls: (cert: String, key: String)? = nil) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestRepository.root.appendingPathComponent("data/sample-calendar.ics"),
                                         to: dir.appendingPathComponent("feed.ics"))
        var args = ["/usr/bin/env", "python3", TestRepository.script("servers/feed-server.py"), dir.path]
        if let tls { args += ["--cert", tls.cert, "--key", tls.key] }
        pid = try TestProcess.start(args, output: nil)
        scheme = tls == nil ? "http" : "https"
        guard let port = TestProcess.awaitFile(dir.appendingPathComponent("port").path, writtenBy: pid, within: 20, { Int($0) }) else {
            TestProcess.stop(pid)
            throw CocoaError(.fileReadNoSuchFile)
        }
        self.port = port
    }

    func url(host: String = "127.0.0.1") -> String { "\(scheme)://\(host):\(port)/feed.ics" }

    func set(mode: String) throws { try Data(mode.utf8).write(to: dir.appendingPathComponent("mode")) }

    func setFeed(_ text: String) throws { try Data(text.utf8).write(to: dir.appendingPathComponent("feed.ics")) }

    var feed: String { (try? String(contentsOf: dir.appendingPathComponent("feed.ics"), encoding: .utf8)) ?? "" }

    /// The statuses answered, in order.
    var answers: [String] {
        let log = (try? String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { String($0.split(separator: " ")[1]) }
    }

    func stop() {
        TestProcess.stop(pid)
        pid = 0
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }
}

/// The loopback server is not a proxy's business.
private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "3000"]

private func calendars(_ sandbox: Sandbox) async throws -> [[String: Any]] {
    let r = try await sandbox.run(["calendar", "list", "--json"], env: direct)
    return try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] ?? []
}

/// One more event, on a weekday of the sample week.
private let extraEvent = """
    BEGIN:VEVENT
    UID:extra@focus.test
    DTSTAMP:20261101T000000Z
    DTSTART:20261125T150000Z
    DTEND:20261125T160000Z
    SUMMARY:Extra seminar
    END:VEVENT
    END:VCALENDAR
    """.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"

@Suite("Calendar feeds over HTTP", .serialized)
struct CalendarFeedTests {
    @Test("subscribe stores the feed; an unchanged refresh is one 304; a changed feed is stored again")
    func conditionalRefresh() async throws {
        let server = try FeedServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let due = ISO8601DateFormatter().string(from: Date().addingTimeInterval(7 * 86_400))
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "2h", "--due", due], env: direct).code == 0)
        let sub = try await sandbox.run(["calendar", "subscribe", server.url()], env: direct)
        #expect(sub.code == 0, "\(sub.err)")
        #expect(sub.out.contains("Subscribed to calendar Classes: 7 events"))
        let unchanged = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(unchanged.code == 0)
        #expect(unchanged.out.contains("unchanged"))
        #expect(server.answers == ["200", "304"])

        var feed = server.feed
        feed.removeSubrange(try #require(feed.range(of: "END:VCALENDAR", options: .backwards)).lowerBound...)
        try server.setFeed(feed + extraEvent)
        let changed = try await sandbox.run(["calendar", "refresh", "classes"], env: direct)
        #expect(changed.code == 0, "\(changed.err)")
        #expect(changed.out.contains("Refreshed calendar Classes: 8 events"))
        #expect(changed.out.contains("Plan: "), "the plan follows the changed busy time: \(changed.out)")
        #expect(server.answers == ["200", "304", "200"])
        let busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-25", "--to", "2026-11-25"], env: direct)
        #expect(busy.out.contains("Extra seminar"))
        let list = try await calendars(sandbox)
        #expect(list.first?["kind"] as? String == "feed")
        #expect(list.first?["events"] as? Int == 8)
    }

    @Test("a server that is down, fails, sends a login page or an empty calendar never loses the copy")
    func failuresKeepTheCopy() async throws {
        let server = try FeedServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        _ = try await sandbox.run(["calendar", "subscribe", server.url(), "--name", "Uni"], env: direct)

        for (mode, code, words) in [("500", Int32(69), "HTTP 500"), ("html", 65, "web page (HTML)"), ("garbage", 65, "not an iCalendar"),
                                    ("hang", 69, "did not answer in time"), ("loop", 69, "redirected more than 5 times")] {
            try server.set(mode: mode)
            let r = try await sandbox.run(["calendar", "refresh", "Uni"], env: direct)
            #expect(r.code == code, "\(mode): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: ") && r.err.split(separator: "\n").count == 1, "\(mode): \(r.err)")
            #expect(r.err.contains(words) && r.err.contains("is kept and used"), "\(mode): \(r.err)")
            let list = try await calendars(sandbox)
            #expect(list.first?["events"] as? Int == 7, "\(mode)")
            #expect((list.first?["last_error"] as? String)?.contains(words) == true, "\(mode)")
        }

        try server.set(mode: "empty")
        let empty = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(empty.code == 0)
        #expect(empty.err.contains("came back with no events") && empty.err.contains("--accept-empty"))
        #expect(try await calendars(sandbox).first?["events"] as? Int == 7)
        let human = try await sandbox.run(["calendar", "list"], env: direct)
        #expect(human.out.contains("came back empty"))
        let busy = try await sandbox.run(["calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-27"], env: direct)
        #expect(busy.out.contains("Algorithms lecture"))
        let accepted = try await sandbox.run(["calendar", "refresh", "Uni", "--accept-empty"], env: direct)
        #expect(accepted.code == 0)
        #expect(try await calendars(sandbox).first?["events"] as? Int == 0)

        try server.set(mode: "ok")
        #expect(try await sandbox.run(["calendar", "refresh"], env: direct).code == 0)
        server.stop()
        let down = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(down.code == 69)
        #expect(down.err.hasPrefix("focus: error: calendar 'Uni' was not refreshed: could not connect"))
        #expect(down.err.split(separator: "\n").count == 1)
        let list = try await calendars(sandbox)
        #expect(list.first?["events"] as? Int == 7)
        #expect(list.first?["fetched_at"] is String)
        let shown = try await sandbox.run(["calendar", "list"], env: direct)
        #expect(shown.out.contains("last refresh failed"))
        let doctor = try await sandbox.run(["doctor"], env: direct)
        #expect(doctor.code == 1)
        #expect(doctor.out.contains("✗ calendar 'Uni' was last refreshed") && doctor.out.contains("could not connect"), "\(doctor.out)")
    }

    @Test("a feed over TLS from a private CA: refused without --ca-file, fetched with it; https never redirects down to http")
    func tls() async throws {
        let certs = FileManager.default.temporaryDirectory.appendingPathComponent("focus-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: certs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: certs) }
        let script = """
            set -e
            cd "\(certs.path)"
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > ext
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=focus-test-ca
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout srv.key -out srv.csr -subj /CN=localhost
            openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem -days 2 -extfile ext
            """
        let made = try TestProcess.run("/bin/sh", ["-c", script], environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        try #require(made.status == 0, "openssl: \(made.err)")
        let server = try FeedServer(tls: (certs.appendingPathComponent("srv.pem").path, certs.appendingPathComponent("srv.key").path))
        let sandbox = try Sandbox()
        defer { sandbox.remove() }

        let refused = try await sandbox.run(["calendar", "subscribe", server.url()], env: direct)
        #expect(refused.code == 69)
        #expect(refused.err.hasPrefix("focus: error: the TLS connection to") && refused.err.contains("--ca-file"))
        #expect(try await calendars(sandbox).isEmpty)

        let webcal = server.url(host: "localhost").replacingOccurrences(of: "https://", with: "webcal://")
        let ok = try await sandbox.run(["calendar", "subscribe", webcal, "--ca-file", certs.appendingPathComponent("ca.pem").path], env: direct)
        #expect(ok.code == 0, "\(ok.err)")
        #expect(try await calendars(sandbox).first?["source"] as? String == server.url(host: "localhost"))
        let again = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(again.code == 0, "\(again.err)")
        #expect(server.answers == ["200", "304"])

        try server.set(mode: "redirect-http")
        let down = try await sandbox.run(["calendar", "refresh"], env: direct)
        #expect(down.code == 69)
        #expect(down.err.contains("never from https down to http"))
        #expect(try await calendars(sandbox).first?["events"] as? Int == 7)
    }

    @Test("plain http to another machine is refused unless --insecure; other schemes and credentials are refused")
    func refusedAddresses() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        for (url, code) in [("http://example.com/a.ics", Int32(64)), ("ftp://example.com/a.ics", 64),
                            ("https://user:secret@example.com/a.ics", 64), ("calendar.ics", 64)] {
            let r = try await sandbox.run(["calendar", "subscribe", url], env: direct)
            #expect(r.code == code, "\(url): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: ") && r.err.split(separator: "\n").count == 1)
        }
        let file = try await sandbox.run(["calendar", "refresh", "nothing"], env: direct)
        #expect(file.code == 64)
    }

    @Test("without libcurl, subscribe and refresh fail in one line (69) naming the package, and the copy stays")
    func missingLibcurl() async throws {
        let server = try FeedServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        #expect(try await sandbox.run(["calendar", "subscribe", server.url()], env: direct).code == 0)
        let gone = direct.merging(["FOCUS_LIBCURL": "libcurl-not-here.so.4"]) { $1 }
        for args in [["calendar", "subscribe", server.url(), "--name", "Other"], ["calendar", "refresh"]] {
            let r = try await sandbox.run(args, env: gone)
            #expect(r.code == 69, "\(args): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: ") && r.err.contains("apt-get install libcurl4") && r.err.split(separator: "\n").count == 1)
        }
        #expect(try await calendars(sandbox).map { $0["events"] as? Int } == [7])
        #expect(try await sandbox.run(["status"], env: gone).code == 0)
    }
}
