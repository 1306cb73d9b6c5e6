import FocusCoreTestSupport
import Foundation
import Testing

// Issue 28 against the built binary and scripts/servers/hostile-caldav-server.py (Python's standard
// library only): stored commands from a foreign database, the origin rule, redirects focus does
// not follow, passwords in addresses, a remembered CA file that became a FIFO.

private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": "2026-11-24T19:00:00Z"]

/// The hostile server on two loopback ports: the account's (`home`) and another (`other`).
private final class HostileServer {
    let dir: URL
    var pid: pid_t = 0
    let home: Int
    let other: Int

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // posix_spawn, as every process of these tests (Foundation's Process would reap the
        // harness's children).
        pid = try TestProcess.start(["/usr/bin/env", "python3", TestRepository.script("servers/hostile-caldav-server.py"), dir.path], output: nil)
        let written = TestProcess.awaitFile(dir.appendingPathComponent("port").path, writtenBy: pid, within: 30) { text -> [Int]? in
            let ports = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return ports.count == 2 ? ports : nil
        }
        guard let ports = written else {
            TestProcess.stop(pid)
            throw CocoaError(.fileReadNoSuchFile)
        }
        (home, other) = (ports[0], ports[1])
    }

    var url: String { "http://127.0.0.1:\(home)/" }

    func mode(_ mode: String, _ arg: String = "") throws {
        try arg.write(to: dir.appendingPathComponent("arg"), atomically: true, encoding: .utf8)
        try mode.write(to: dir.appendingPathComponent("mode"), atomically: true, encoding: .utf8)
    }

    /// `PORT METHOD PATH auth|-` per request.
    var log: [String] { ((try? String(contentsOf: dir.appendingPathComponent("log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

    func stop() {
        TestProcess.stop(pid)
        try? FileManager.default.removeItem(at: dir)
    }
}

/// A password command that leaves a mark when it runs.
private func marking(_ sandbox: Sandbox) -> (command: String, mark: String) {
    let mark = sandbox.dir.appendingPathComponent("PWNED").path
    return ("sh -c 'touch \(mark); echo pw'", mark)
}

@Suite("Hostile servers and foreign databases", .serialized)
struct HostileNetworkTests {
    @Test("A restored database from someone else runs no command and contacts no server until the person says so; restore names it")
    func foreignDatabase() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let mallory = try Sandbox()
        let victim = try Sandbox()
        defer { mallory.remove(); victim.remove() }
        let (command, mark) = marking(victim)
        let connect = try await mallory.run(["calendar", "connect", server.url, "--user", "mallory", "--password-command", command], env: direct)
        #expect(connect.code == 0, "\(connect.err)")
        try FileManager.default.removeItem(atPath: mark)
        let gift = mallory.dir.appendingPathComponent("gift.sqlite").path
        #expect(try await mallory.run(["backup", gift]).code == 0)
        let requests = server.log.count

        let restore = try await victim.run(["restore", gift], env: direct)
        #expect(restore.code == 0, "\(restore.err)")
        #expect(restore.out.contains("! CalDAV account http://127.0.0.1:\(server.home)/ (user mallory), password command 'sh -c"), "\(restore.out)")
        #expect(restore.err.contains("focus will not use that one marked !"), "\(restore.err)")
        for args in [["calendar", "refresh"], ["plan"], ["calendar", "refresh", "--db", gift], ["sync"]] {
            let r = try await victim.run(args, env: direct)
            #expect(!FileManager.default.fileExists(atPath: mark), "\(args) ran the stored command")
            if args[1...].first == "refresh" {
                #expect(r.code == 69 && r.err.contains("not set up by you on this machine"), "\(args): \(r.code) \(r.err)")
            }
        }
        #expect(server.log.count == requests, "the victim's focus contacted the stored address: \(server.log.suffix(3))")
        let doctor = try await victim.run(["doctor"], env: direct)
        #expect(doctor.code == 1 && doctor.out.contains("✗ CalDAV account http://127.0.0.1:\(server.home)/ (user mallory)"), "\(doctor.out)")
    }

    @Test("At upgrade the database at the default path keeps working without a question; a --db file does not")
    func upgradeTrustsTheDefaultDatabase() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let before = try Sandbox()
        defer { before.remove() }
        let (command, mark) = marking(before)
        #expect(try await before.run(["calendar", "connect", server.url, "--user", "me", "--password-command", command], env: direct).code == 0)
        // As a focus older than the rule left it: the database at the default path, no trusted-settings file.
        let data = before.dir.appendingPathComponent("data/focus")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(try await before.run(["backup", data.appendingPathComponent("focus.sqlite").path]).code == 0)
        let other = before.dir.appendingPathComponent("other.sqlite").path
        #expect(try await before.run(["backup", other]).code == 0)
        try FileManager.default.removeItem(at: before.dir.appendingPathComponent("config/focus/trusted-settings"))
        try FileManager.default.removeItem(atPath: mark)

        let foreign = try await before.run(["calendar", "refresh", "--db", other], env: direct)
        #expect(foreign.code == 69 && !FileManager.default.fileExists(atPath: mark), "\(foreign.err)")
        let upgraded = try await before.run(["calendar", "refresh"], env: direct.merging(["FOCUS_DB": ""]) { $1 })
        #expect(upgraded.code == 0, "\(upgraded.err)")
        #expect(FileManager.default.fileExists(atPath: mark), "the account set up here before the upgrade asked or failed")
    }

    @Test("The login never reaches another port, host, or a calendar a home lists elsewhere", arguments: ["port-redirect", "foreign-home", "foreign-href"])
    func loginStaysHome(mode: String) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.mode(mode == "port-redirect" ? "ok" : mode, "http://localhost:\(server.other)/u/cal/evil.ics")
        let connect = try await sandbox.run(["calendar", "connect", server.url, "--user", "alice", "--password-stdin"], env: direct, stdin: "s3cret\n")
        if mode == "port-redirect" {
            #expect(connect.code == 0, "\(connect.err)")
            try server.mode("port-redirect")
            let refresh = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: "s3cret\n")
            #expect(refresh.code == 69 && refresh.err.contains("redirected to an address focus does not follow"), "\(refresh.err)")
            let list = try await sandbox.run(["calendar", "list", "--json"], env: direct)
            #expect(list.out.contains("127.0.0.1:\(server.home)") || !list.out.contains("\(server.other)"), "the redirect became the stored address")
        } else {
            #expect(connect.code == 0, "\(connect.err)")
            #expect(connect.err.contains("ignored"), "no warning: \(connect.err)")
            #expect(!connect.out.contains("Trap"), "\(connect.out)")
        }
        let leaked = server.log.filter { $0.hasPrefix("\(server.other) ") && $0.hasSuffix(" auth") }
        #expect(leaked.isEmpty, "the login went to the other port: \(leaked)")
        #expect(!server.log.contains { $0.hasPrefix("\(server.other) ") && ($0.contains(" PUT ") || $0.contains(" DELETE ")) })
    }

    @Test("A redirect to file://, gopher:// or plain http elsewhere is 69, said as such, and the copy is kept", arguments: [
        "file:///etc/passwd", "gopher://127.0.0.1:70/1", "http://192.0.2.1/cal/",
    ])
    func redirectsNotFollowed(location: String) async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        #expect(try await sandbox.run(["calendar", "connect", server.url, "--user", "alice", "--password-stdin"], env: direct, stdin: "pw\n").code == 0)
        try server.mode("redirect", location)
        let r = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: "pw\n")
        #expect(r.code == 69, "\(r.err)")
        #expect(r.err.contains("redirected to an address focus does not follow") && !r.err.contains("--insecure"), "\(r.err)")
        #expect(r.err.contains("is kept and used"), "\(r.err)")
        #expect(r.err.split(separator: "\n").filter { $0.hasPrefix("focus: error:") }.count == 1)
    }

    @Test("A namespace flood is read whole and right: the account is found")
    func namespaceFlood() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try server.mode("xmlns", "160000")
        let r = try await sandbox.run(["calendar", "connect", server.url, "--user", "alice", "--password-stdin"], env: direct, stdin: "pw\n")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("1 calendar"), "\(r.out)")
    }

    @Test("A remembered --ca-file that became a FIFO or went away: 66 naming it, the copy kept, no hang")
    func caFileBecameFIFO() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let ca = sandbox.dir.appendingPathComponent("ca.pem").path
        try "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        #expect(try await sandbox.run(["calendar", "connect", server.url, "--user", "alice", "--password-stdin", "--ca-file", ca], env: direct, stdin: "pw\n").code == 0)
        try FileManager.default.removeItem(atPath: ca)
        #expect(mkfifo(ca, 0o600) == 0)
        let fifo = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: "pw\n")
        #expect(fifo.code == 66 && fifo.err.contains(ca) && fifo.err.contains("FIFO") && fifo.err.contains("kept and used"), "\(fifo.err)")
        try FileManager.default.removeItem(atPath: ca)
        let missing = try await sandbox.run(["calendar", "refresh", "--password-stdin"], env: direct, stdin: "pw\n")
        #expect(missing.code == 66 && missing.err.contains(ca), "\(missing.err)")
    }

    @Test("subscribe masks a password typed in the address, as connect does")
    func subscribeMasksPassword() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let r = try await sandbox.run(["calendar", "subscribe", "https://alice:S3cretPW@example.org/cal.ics"], env: direct)
        #expect(r.code == 64)
        #expect(!r.err.contains("S3cretPW") && r.err.contains("alice:…@example.org"), "\(r.err)")
    }
}
