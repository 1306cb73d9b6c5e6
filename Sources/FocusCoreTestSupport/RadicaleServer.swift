import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real CalDAV server for tests: Radicale, started by `scripts/servers/caldav-server.py` on a free
/// loopback port with its own temporary storage, one login (htpasswd, plain password) and
/// owner-only rights. Killed and its folder removed when the value goes away (or on `stop()`).
///
/// Raw requests (to set up or inspect the server behind the code under test) go through the
/// `curl` command-line tool, never through focus's own HTTP client.
///
///     let server = try RadicaleServer()
///     try server.makeCalendar("work", name: "Work")
///     try server.put("work/standup.ics", ics: text)
///     let endpoint = CalDAVEndpoint(url: server.rootURL, user: server.user, password: server.password)
package final class RadicaleServer: @unchecked Sendable {
    /// Which server: Radicale (a login, calendars at `/USER/NAME/`) or Xandikos (git-backed, no
    /// login of its own over plain HTTP, calendars at `/USER/calendars/NAME/`, no PUT of a whole
    /// collection).
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        package var description: String { rawValue }
    }
    package let kind: Kind
    package let user: String
    package let password: String
    package let port: Int
    /// The server's folder: `collections/` (Radicale's storage), `users`, `log`.
    package let directory: URL
    private var pid: pid_t = 0

    /// The Python that runs the servers: `$FOCUS_TEST_PYTHON` (`make test` sets it to
    /// `make -s print-TEST_PYTHON`), else the virtual environment `make deps-test` makes under
    /// `.build/test-python` (so a plain `swift test` after it finds the servers too), else the
    /// `python3` on the PATH.
    package static let python: String = {
        if let set = ProcessInfo.processInfo.environment["FOCUS_TEST_PYTHON"], !set.isEmpty { return set }
        let venv = TestRepository.root.appendingPathComponent(".build/test-python/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }()

    /// Whether `kind` can be imported by `python` (`make deps-test` installs both servers).
    package static func installed(_ kind: Kind) -> Bool {
        (try? TestProcess.run("/usr/bin/env", [python, "-c", "import \(kind)"], environment: ProcessInfo.processInfo.environment,
                              stdin: nil, capture: false))?.status == 0
    }

    /// Whether Radicale can run here. Suites that need it are enabled only then, so that a
    /// machine without it lists them as skipped with `missing` as the reason (README, "Try it on a fresh Debian machine").
    package static let available: Bool = installed(.radicale)

    /// Whether both servers can run here.
    package static let bothAvailable: Bool = available && installed(.xandikos)

    /// The reason a suite that needs the servers was skipped.
    package static let missing = "Radicale or Xandikos is not installed for \(python): run `make deps-test` (it makes .build/test-python)"

    package init(_ kind: Kind = .radicale, user: String = "alice", password: String = "correct horse battery") throws {
        self.kind = kind
        self.user = user
        self.password = password
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("focus-caldav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = TestRepository.script("servers/caldav-server.py")
        do {
            pid = try TestProcess.start(["/usr/bin/env", Self.python, script, directory.path, user, password] + (kind == .xandikos ? ["--xandikos"] : []),
                                        output: directory.appendingPathComponent("log").path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // Nil when it ended first (Radicale missing or the script failed: its log says why).
        let found = TestProcess.awaitFile(directory.appendingPathComponent("port").path, writtenBy: pid, within: 30) { Int($0) }
        guard let found else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            TestProcess.stop(pid)
            pid = 0
            try? FileManager.default.removeItem(at: directory)
            throw RadicaleFailure(message: !Self.installed(kind) ? "\(kind) is not installed for \(Self.python): run `make deps-test`"
                                                   : "\(kind) did not start: \(log.suffix(2000))")
        }
        port = found
    }

    /// `http://127.0.0.1:PORT/`, the server's root (discovery starts here).
    package var rootURL: String { "http://127.0.0.1:\(port)/" }

    /// The user's calendar home: `http://127.0.0.1:PORT/USER/` (Radicale's principal too),
    /// `http://127.0.0.1:PORT/USER/calendars/` (Xandikos).
    package var homeURL: String { rootURL + user + (kind == .xandikos ? "/calendars/" : "/") }

    /// An absolute URL for a path relative to the user's home (`work/` → its collection), or
    /// for an absolute path (`/alice/work/`).
    package func url(_ path: String) -> String {
        path.hasPrefix("/") ? rootURL + path.dropFirst() : homeURL + path
    }

    /// One request with the server's login (or `user`/`password` given), answered by curl(1):
    /// the status, the response headers (names lowercased) and the body.
    @discardableResult
    package func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:],
                         user: String? = nil, password: String? = nil) throws -> RadicaleResponse {
        let scratch = directory.appendingPathComponent("request-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var args = ["/usr/bin/env", "curl", "--silent", "--noproxy", "*", "--max-time", "30", "--request", method,
                    "--user", "\(user ?? self.user):\(password ?? self.password)",
                    "--output", scratch.appendingPathComponent("body").path,
                    "--dump-header", scratch.appendingPathComponent("headers").path,
                    "--write-out", "%{http_code}"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { args += ["--header", "\(name): \(value)"] }
        if let body {
            let file = scratch.appendingPathComponent("request")
            try Data(body.utf8).write(to: file)
            args += ["--data-binary", "@" + file.path]
        }
        args.append(url(path))
        let curl = try TestProcess.run(args[0], Array(args.dropFirst()), environment: ProcessInfo.processInfo.environment, stdin: nil, capture: true)
        guard curl.status == 0 else { throw RadicaleFailure(message: "curl \(method) \(path) failed with exit status \(curl.status)") }
        let status = Int(curl.out) ?? 0
        let headerText = (try? String(contentsOf: scratch.appendingPathComponent("headers"), encoding: .utf8)) ?? ""
        var responseHeaders: [String: String] = [:]
        for line in headerText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            responseHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let responseBody = (try? String(contentsOf: scratch.appendingPathComponent("body"), encoding: .utf8)) ?? ""
        return RadicaleResponse(status: status, headers: responseHeaders, body: responseBody)
    }

    /// PUT an iCalendar object (unconditionally); the response's ETag, if any.
    @discardableResult
    package func put(_ path: String, ics: String) throws -> String? {
        let response = try request("PUT", path, body: ics, headers: ["Content-Type": "text/calendar; charset=utf-8"])
        guard (200..<300).contains(response.status) else { throw RadicaleFailure(message: "PUT \(path): HTTP \(response.status) \(response.body)") }
        return response.headers["etag"]
    }

    package func delete(_ path: String) throws {
        let response = try request("DELETE", path)
        guard (200..<300).contains(response.status) else { throw RadicaleFailure(message: "DELETE \(path): HTTP \(response.status) \(response.body)") }
    }

    /// MKCALENDAR under the user's home (`work` → `/alice/work/`) holding `components`.
    package func makeCalendar(_ name: String, displayName: String? = nil, components: [String] = ["VEVENT"]) throws {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:set><D:prop>
                \(displayName.map { "<D:displayname>\($0)</D:displayname>" } ?? "")
                <C:supported-calendar-component-set>\(components.map { "<C:comp name=\"\($0)\"/>" }.joined())</C:supported-calendar-component-set>
              </D:prop></D:set>
            </C:mkcalendar>
            """
        let path = name.hasSuffix("/") ? name : name + "/"
        let response = try request("MKCALENDAR", path, body: body, headers: ["Content-Type": "application/xml; charset=utf-8"])
        guard response.status == 201 else { throw RadicaleFailure(message: "MKCALENDAR \(path): HTTP \(response.status) \(response.body)") }
    }

    /// A minimal VEVENT in a VCALENDAR, CRLF line ends (RFC 5545 section 3.1).
    package static func event(uid: String, summary: String, start: String = "20261125T150000Z", end: String = "20261125T160000Z") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
            "DTSTAMP:20261101T000000Z", "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
    }

    /// Kills the server (SIGKILL) and waits for it; its folder stays until deinit.
    package func stop() {
        TestProcess.stop(pid)
        pid = 0
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

package struct RadicaleResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: String
}

package struct RadicaleFailure: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
