import FocusText
import FocusCore
import FocusNetwork
import FocusServices
import FocusStorage
import FoundationEssentials
import Synchronization

/// The composition root: everything a command needs from the outside world, injected.
/// Built live in `FocusEnvironment+Live.swift`, and for tests in FocusTestSupport.
package struct FocusEnvironment: Sendable {
    package var console: any Console
    /// Timestamps: the wall clock, or `FOCUS_NOW` plus the time elapsed since start-up.
    package var now: @Sendable () -> Date
    /// Waiting: a monotonic clock (a test clock in tests).
    package var clock: any Clock<Duration>
    package var calendar: LocalCalendar
    package var config: FocusConfig
    package var configPath: String
    package var databasePath: String
    /// Desktop notifications, given the fallback to use when they cannot be shown and where to
    /// say once that they cannot.
    package var makeNotifier: @Sendable (_ fallback: any Notifier, _ warn: @escaping @Sendable (String) -> Void) -> any Notifier
    /// The person's hook scripts, given where to say that one failed.
    package var makeHooks: @Sendable (_ warn: @escaping @Sendable (String) -> Void) -> any HookRunner
    package var environment: [String: String]
    /// Asks a person a yes-or-no question (`Delete 12 sessions of Thesis/Chapter 2 (5h 20m)? [y/N]`)
    /// and says whether they answered yes; nil when there is no terminal to ask at (standard
    /// input or standard error is not a terminal), so the command must be told (`--force`).
    package var ask: (@Sendable (_ question: DisplayText) -> Bool)?
    /// Whether the countdown reads its keys from the controlling terminal (`/dev/tty`), whatever
    /// standard output is: the live environment only, never a test's in-process run.
    package var readsKeys = false
    /// Opens the store; called once per command that needs it.
    private let openStore: @Sendable () throws(FocusError) -> AppDatabase
    /// Whether the database file exists (live: a `stat` of its path; tests: always).
    package var databaseExists: @Sendable () -> Bool = { true }
    /// Set for a command that only reads (`FocusRunnable.readsOnly`): a database that does not
    /// exist is then an empty one in memory, and nothing is created on disk.
    package var readsOnly = false
    /// The database this command opened and whether it wrote to it (for the re-plan after it).
    package let databaseUse = DatabaseUse()
    /// The CalDAV server of the connected accounts: nil live (HTTP through libcurl), an
    /// in-memory one in tests.
    package var caldav: (any CalDAVClient)?
    /// Watches the screen saver and the session lock (README, "Away from the screen"): D-Bus
    /// live, nothing in a test's in-process run.
    package var makeAwayWatcher: @Sendable () -> any AwayWatcher = { NoAwayWatcher() }

    package init(
        console: any Console, now: @escaping @Sendable () -> Date, clock: any Clock<Duration>,
        calendar: LocalCalendar, config: FocusConfig, configPath: String, databasePath: String,
        makeNotifier: @escaping @Sendable (_ fallback: any Notifier, _ warn: @escaping @Sendable (String) -> Void) -> any Notifier, environment: [String: String],
        openDatabase: @escaping @Sendable () throws(FocusError) -> AppDatabase,
        makeHooks: @escaping @Sendable (_ warn: @escaping @Sendable (String) -> Void) -> any HookRunner = { _ in NoHooks() },
        ask: (@Sendable (_ question: DisplayText) -> Bool)? = nil
    ) {
        self.ask = ask
        self.console = console
        self.now = now
        self.clock = clock
        self.calendar = calendar
        self.config = config
        self.configPath = configPath
        self.databasePath = databasePath
        self.makeNotifier = makeNotifier
        self.makeHooks = makeHooks
        self.environment = environment
        self.openStore = openDatabase
    }

    package var today: LocalDate { calendar.day(of: now()) }

    /// What the services this command runs (a sync, a re-plan) take of it.
    package var services: ServiceContext {
        let env = self
        let use = databaseUse
        // The live clients (libcurl, loaded on the first request) unless a test gave its own.
        let console = console
        let http = CurlHTTPClient(environment: environment)
        let caldav = caldav ?? CalDAVHTTPClient(http: http, warn: { console.note("warning: \($0)") })
        return ServiceContext(console: console, now: now, calendar: calendar, config: config, configPath: configPath,
                              databasePath: databasePath, environment: environment, caldav: caldav, feeds: FeedHTTPClient(http: http),
                              credentials: ProcessCredentials(), prompter: ask.map { TerminalPrompter(ask: $0) }, openedDatabase: { use.current },
                              trustSettings: { digests throws(FocusError) in try TrustStore(env: env.services).add(digests) })
    }

    /// Opens the database (and recovers a session whose process died); every write through it is
    /// noted, so that the command's changes are re-planned after it (`Planning.replanIfStale`).
    package func openDatabase() throws(FocusError) -> AppDatabase {
        var db = try readsOnly && !databaseExists() ? AppDatabase.inMemory() : openStore()
        let use = databaseUse
        db.onWrite = { use.noteWrite() }
        use.opened(db)
        return db
    }
}

/// What a command did with the database: the one it opened, and whether it wrote.
package final class DatabaseUse: Sendable {
    private let state = Mutex<(database: AppDatabase?, wrote: Bool, published: Bool)>((nil, false, false))

    package init() {}

    func opened(_ db: AppDatabase) { state.withLock { $0.database = db } }
    func noteWrite() { state.withLock { $0.wrote = true } }
    /// The command published the plan itself (`plan`, `calendar publish`, `calendar refresh`).
    func notePublished() { state.withLock { $0.published = true } }
    var published: Bool { state.withLock { $0.published } }

    /// The database the command opened, if any.
    package var current: AppDatabase? { state.withLock { $0.database } }

    /// The database, when the command wrote to it.
    package var changed: AppDatabase? { state.withLock { $0.wrote ? $0.database : nil } }

    /// Lets the database go (its connection closes when the command's own handle is gone too).
    package func release() { state.withLock { $0.database = nil } }

    /// After a failed command: removes the database this process created when nothing was
    /// recorded in it (`AppDatabase.unusedCreation`), once its connection is closed.
    func discardUnusedCreation() {
        let created = state.withLock { s -> [String]? in
            let paths = s.database?.unusedCreation(wrote: s.wrote)
            if paths != nil { s.database = nil }
            return paths
        }
        if let created { AppDatabase.remove(created: created) }
    }
}

/// A yes to a `[y/N]` question: `y` or `yes`, in any case; anything else (Enter included) is no.
package enum Confirmation {
    package static func isYes(_ answer: String) -> Bool {
        ["y", "yes"].contains(answer.trimmingSpaces().lowercased())
    }
}
