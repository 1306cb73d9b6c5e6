import ArgumentParser
import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusText
import Foundation

/// A test world: an in-memory database, a fixed "now", a fixed zone, a recording console.
package final class TestWorld: @unchecked Sendable {
    package let database: AppDatabase
    package let console: RecordingConsole
    package let notifier = RecordingNotifier()
    package let hooks = RecordingHookRunner()
    package let zone: ZoneRules
    private let lock = NSLock()
    private var _now: Date
    package var config = FocusConfig()

    /// The planning settings many command tests were written against (working hours 08:00–22:00
    /// on every day, no lunch gap, no daily cap), for tests about something other than the defaults.
    package static var roundTheWeek: FocusConfig {
        var config = FocusConfig()
        config.dayStart = TimeOfDay(hour: 8, minute: 0)
        config.dayEnd = TimeOfDay(hour: 22, minute: 0)
        config.weekdayHours = Array(repeating: nil, count: 7)
        config.lunch = nil
        config.maxPerDaySeconds = nil
        return config
    }
    private var _answers: [String]?
    /// What the person types at each yes-or-no question, in turn; nil: no terminal to ask at.
    /// Each question is written to `console`'s standard error, as the live one is.
    package var answers: [String]? {
        get { lock.withLock { _answers } }
        set { lock.withLock { _answers = newValue } }
    }
    package var configPath: String
    /// Whether commands find no database file (a machine where nothing was recorded yet).
    package var databaseMissing = false
    /// The CalDAV server commands talk to (a `FakeCalDAVServer`); nil: the live HTTP client.
    package var caldav: (any CalDAVClient)?

    package init(now: String = "2026-11-22T09:00:00Z", zone: String = "Europe/Berlin", width: Int = 80) throws {
        database = try AppDatabase.inMemory()
        console = RecordingConsole(width: width)
        self.zone = ZoneRules.fromTZ(zone) ?? .utc
        calendar = LocalCalendar(zone: self.zone)
        _now = TestWorld.instant(now)
        configPath = NSTemporaryDirectory() + "focus-test-\(UUID().uuidString)/config.toml"
    }

    package var now: Date {
        get { lock.withLock { _now } }
        set { lock.withLock { _now = newValue } }
    }

    package let calendar: LocalCalendar

    /// `2026-11-22T09:00:00Z` → Date (test input only).
    package static func instant(_ iso: String) -> Date { TestDates.instant(iso) }

    package func environment(global: GlobalOptions) throws(FocusError) -> FocusEnvironment {
        let zone = try global.tz.map { z throws(FocusError) in try FocusEnvironment.timeZone(option: z, environment: [:]) }
        let db = database
        var ask: (@Sendable (DisplayText) -> Bool)?
        if answers != nil { ask = { [self] (question: DisplayText) -> Bool in self.answer(question.string) } }
        var env = FocusEnvironment(
            console: console, now: { [self] in self.now }, clock: ContinuousClock(), calendar: zone.map { LocalCalendar(zone: $0, database: calendar.database) } ?? calendar,
            config: config, configPath: configPath, databasePath: db.path, makeNotifier: { [notifier] _, _ in notifier }, environment: [:],
            openDatabase: { () throws(FocusError) -> AppDatabase in db },
            makeHooks: { [hooks] _ in hooks },
            ask: ask
        )
        let missing = databaseMissing
        env.databaseExists = { !missing }
        env.caldav = caldav
        return env
    }

    /// Trusts every account and feed setting the database holds now, as `calendar connect` and
    /// `calendar subscribe` do for what this user sets up (README, "What focus promises"): for
    /// tests that store an account directly.
    package func trustStoredSettings() throws {
        let env = try environment(global: GlobalOptions.parse([]))
        try TrustStore(env: env.services).add(TrustStore.settings(database).map(\.digest))
    }

    /// The next of `answers` to a question, written after it as a person's typing would be echoed.
    private func answer(_ question: String) -> Bool {
        console.err(question + " ")
        let answer = lock.withLock { () -> String in
            guard var list = _answers, !list.isEmpty else { return "" }
            let first = list.removeFirst()
            _answers = list
            return first
        }
        console.err(answer + "\n")
        return Confirmation.isYes(answer)
    }

    /// Runs a command line in-process; returns the exit code. Output is in `console`.
    @discardableResult
    package func run(_ arguments: String...) async -> Int32 {
        await run(arguments)
    }

    @discardableResult
    package func run(_ arguments: [String]) async -> Int32 {
        await FocusMain.run(arguments: arguments, console: console) { global throws(FocusError) in
            try self.environment(global: global)
        }
    }

    /// Runs a command and returns only what it printed to standard output during this call.
    package func output(_ arguments: String...) async -> (code: Int32, out: String, err: String) {
        await output(arguments)
    }

    package func output(_ arguments: [String]) async -> (code: Int32, out: String, err: String) {
        let outBefore = console.stdout.count
        let errBefore = console.stderr.count
        let code = await run(arguments)
        return (code, String(console.stdout.dropFirst(outBefore)), String(console.stderr.dropFirst(errBefore)))
    }
}
