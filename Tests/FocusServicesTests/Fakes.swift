import FocusCore
import FocusCoreTestSupport
import FocusServices
import FocusStorage
import FocusText
import Foundation
import Synchronization
import Testing

/// A person at the terminal who answers from a script (no answer left: no, nothing typed),
/// and the questions they were asked.
final class ScriptedPrompter: Prompter {
    private let state: Mutex<(answers: [Bool], passwords: [String], asked: [String])>

    init(answers: [Bool] = [], passwords: [String] = []) {
        state = Mutex((answers, passwords, []))
    }

    func confirm(_ question: DisplayText) -> Bool {
        state.withLock { s in
            s.asked.append(question.string)
            return s.answers.isEmpty ? false : s.answers.removeFirst()
        }
    }

    func password(_ question: DisplayText) -> String? {
        state.withLock { s in
            s.asked.append(question.string)
            return s.passwords.isEmpty ? nil : s.passwords.removeFirst()
        }
    }

    var asked: [String] { state.withLock { $0.asked } }
}

/// Standard input and password commands with fixed answers, and what was asked of them.
final class FixedCredentials: CredentialSource {
    private let standardInputLine: String?
    private let commandOutput: String
    private let calls = Mutex<[String]>([])

    /// `standardInput` nil: standard input holds no password.
    init(standardInput: String? = nil, commandOutput: String = "from-command") {
        standardInputLine = standardInput
        self.commandOutput = commandOutput
    }

    func standardInput() throws(FocusError) -> String {
        calls.withLock { $0.append("standard input") }
        guard let standardInputLine else { throw FocusError.usage("--password-stdin read no password.") }
        return standardInputLine
    }

    func run(_ command: String, environment: [String: String]) throws(FocusError) -> String {
        calls.withLock { $0.append("run " + command) }
        return commandOutput
    }

    var asked: [String] { calls.withLock { $0 } }
}

/// The world a service runs in, without a command line: an in-memory database, a recording
/// console, the in-memory CalDAV server, and a trusted-settings file in a directory of its own.
struct ServiceWorld {
    let db: AppDatabase
    let console = RecordingConsole()
    let server = FakeCalDAVServer()
    let directory: String
    /// 2026-11-22 09:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_338_000)
    let address = "https://dav.example.org/"

    init() throws {
        db = try AppDatabase.inMemory()
        directory = NSTemporaryDirectory() + "focus-services-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func context(prompter: (any Prompter)? = nil, credentials: any CredentialSource = FixedCredentials()) -> ServiceContext {
        let now = self.now, db = self.db
        return ServiceContext(console: console, now: { now }, calendar: LocalCalendar(zone: .utc), config: FocusConfig(),
                              configPath: directory + "/config.toml", databasePath: db.path, environment: [:], caldav: server,
                              feeds: ScriptedHTTPClient { _ throws(FocusError) in throw FocusError.usage("no feeds in these tests") },
                              credentials: credentials, prompter: prompter, openedDatabase: { db }, trustSettings: { _ in })
    }

    /// Alice's account on the fake server, every calendar that holds events counting as busy
    /// time; `passwordCommand` as `connect --password-command` stores it.
    @discardableResult
    func saveAccount(passwordCommand: String? = nil) throws -> StoredAccount {
        _ = try db.saveAccount(url: address, principalURL: "https://dav.example.org/principals/alice/", homeURLs: [server.home],
                               user: "alice", passwordCommand: passwordCommand, caFile: nil, insecure: false, calendarNames: [], at: now)
        return try #require(try db.accounts().first)
    }

    /// A calendar made on the server as another client makes it, holding one event.
    func makeCalendar(_ slug: String, _ name: String, components: [String] = ["VEVENT"]) throws {
        let endpoint = CalDAVEndpoint(url: address, user: "alice", password: nil, caFile: nil, insecure: false)
        _ = try server.makeCalendar(server.home + slug + "/", displayName: name, components: components, endpoint)
        server.store(server.home + slug + "/meeting.ics", """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:\(slug)-meeting@example.org\r
            DTSTAMP:20261120T090000Z\r
            DTSTART:20261123T100000Z\r
            DTEND:20261123T110000Z\r
            SUMMARY:\(name) meeting\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
    }
}
