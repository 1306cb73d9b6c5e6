import FocusCLI
import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

// The stored-settings rule (README, "What focus promises"): a password command, a remembered
// CA file or an address that came with a database this user did not set up on this machine is
// never used without the person's yes.

/// A folder of its own, and a password command that leaves a mark there when it runs.
private struct Marker {
    let dir = NSTemporaryDirectory() + "focus-stored-\(UUID().uuidString)"
    var mark: String { dir + "/RAN" }
    var command: String { "sh -c 'touch \(mark); echo pw'" }
    var ran: Bool { FileManager.default.fileExists(atPath: mark) }
    init() throws { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
}

/// A world whose database holds an account it did not get on this machine (as a restored or
/// `--db` file does): stored straight into the database, never through `connect`.
private func foreignAccount(_ marker: Marker) throws -> TestWorld {
    let world = try TestWorld(now: "2026-11-24T19:00:00Z")
    _ = try world.database.saveAccount(url: "http://127.0.0.1:9/", principalURL: "http://127.0.0.1:9/p/", homeURLs: ["http://127.0.0.1:9/u/"],
                                       user: "mallory", passwordCommand: marker.command, caFile: nil, insecure: false, at: world.now)
    _ = try world.database.storeConnectedCalendar(
        name: "Gift", accountID: 1, remoteURL: "http://127.0.0.1:9/u/cal/", changes: RemoteChanges(complete: true, changed: [], removed: [], token: nil),
        fetchState: "", timeZone: "Europe/Berlin", horizon: DateInterval(start: world.now, duration: 86_400), at: world.now
    ) { _ in ConnectedExpansion(content: Data(), eventCount: 0, occurrences: []) }
    return world
}

@Suite("Stored commands, paths and addresses")
struct StoredSettingsTests {
    @Test("A password command that came with the database never runs without a terminal to ask at")
    func foreignCommandRefused() async throws {
        let marker = try Marker()
        let world = try foreignAccount(marker)
        let r = await world.output("calendar", "refresh")
        #expect(r.code == 69)
        #expect(r.err.contains("not set up by you on this machine"), "\(r.err)")
        #expect(r.err.contains("mallory"), "the account is named")
        #expect(!marker.ran, "the stored command ran")
        let doctor = await world.output("doctor")
        #expect(doctor.code == 1)
        #expect(doctor.out.contains("✗ CalDAV account http://127.0.0.1:9/ (user mallory), password command 'sh -c"), "\(doctor.out)")
        #expect(!marker.ran)
    }

    @Test("Asked at a terminal: no leaves it unrun; yes runs it and is remembered")
    func askedFirst() async throws {
        let marker = try Marker()
        let world = try foreignAccount(marker)
        world.answers = ["n"]
        let no = await world.output("calendar", "refresh")
        #expect(no.code == 69)
        #expect(no.err.contains("Run its password command and connect? [y/N]"), "\(no.err)")
        #expect(!marker.ran)
        world.answers = ["y"]
        _ = await world.output("calendar", "refresh")
        #expect(marker.ran, "a yes runs it")
        try FileManager.default.removeItem(atPath: marker.mark)
        world.answers = nil
        _ = await world.output("calendar", "refresh")
        #expect(marker.ran, "and is remembered: no question the next time")
        let doctor = await world.output("doctor")
        #expect(doctor.out.contains("(set up on this machine)"), "\(doctor.out)")
    }

    @Test("The digest of a setting changes with every field, so an approved account cannot lend its trust")
    func digests() {
        let base = StoredSetting(kind: .account, url: "https://h/", user: "me", passwordCommand: "pass show x", caFile: nil, insecure: false)
        let variants = [
            StoredSetting(kind: .account, url: "https://h2/", user: "me", passwordCommand: "pass show x"),
            StoredSetting(kind: .account, url: "https://h/", user: "me2", passwordCommand: "pass show x"),
            StoredSetting(kind: .account, url: "https://h/", user: "me", passwordCommand: "pass show y"),
            StoredSetting(kind: .account, url: "https://h/", user: "me", passwordCommand: "pass show x", caFile: "/tmp/ca.pem"),
            StoredSetting(kind: .account, url: "https://h/", user: "me", passwordCommand: "pass show x", insecure: true),
            StoredSetting(kind: .feed, url: "https://h/", user: "me", passwordCommand: "pass show x"),
            StoredSetting(kind: .account, url: "https://h/", user: "me", passwordCommand: nil),
        ]
        #expect(Set(variants.map(\.digest) + [base.digest]).count == variants.count + 1)
        #expect(TrustedSettings.parse(TrustedSettings.render([base.digest])) == [base.digest])
    }

    @Test("SHA-256 matches FIPS 180-4's examples")
    func sha256() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

@Suite("Password commands")
struct PasswordCommandTests {
    @Test("A command that prints the password and leaves a child holding its output gives the password once it exits")
    func backgroundChild() throws {
        let password = try ProcessCredentials.run("sh -c '(sleep 30 &); echo s3cret'", environment: ProcessInfo.processInfo.environment, timeout: .seconds(25))
        #expect(password == "s3cret")
    }

    @Test("On a timeout the command's whole process group is killed")
    func timeoutKillsGroup() throws {
        let marker = try Marker()
        let pidFile = marker.dir + "/child"
        let command = "sh -c 'sleep 300 & echo $! > \(pidFile); wait'"
        #expect(throws: FocusError.self) { try ProcessCredentials.run(command, environment: ProcessInfo.processInfo.environment, timeout: .seconds(3)) }
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(text))
        // Killed: gone, or a zombie until its new parent reaps it.
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true)
        }
        var tries = 0
        while alive(), tries < 200 {
            usleep(10_000)
            tries += 1
        }
        #expect(!alive(), "the background child of a timed-out password command is still running")
    }
}
