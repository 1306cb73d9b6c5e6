import FocusCore
import FocusStorage
import FoundationEssentials

/// What a service (a sync, a re-plan) needs of the world it runs in: the ports and settings of
/// the command or daemon that runs it, and nothing of the command line. FocusCLI's composition
/// root, `FocusEnvironment`, makes one (`services`), live or for a test.
package struct ServiceContext: Sendable {
    package var console: any Console
    /// Timestamps.
    package var now: @Sendable () -> Date
    package var calendar: LocalCalendar
    package var config: FocusConfig
    package var configPath: String
    package var databasePath: String
    /// The process environment (`NO_COLOR`, `TERM`, `FOCUS_HTTP_TIMEOUT_MS`, …).
    package var environment: [String: String]
    /// The CalDAV server of the connected accounts: HTTP through libcurl live (built by the
    /// composition root, `FocusEnvironment`), an in-memory one in tests.
    package var caldav: any CalDAVClient
    /// What fetches calendar feeds: HTTP through libcurl live (built by the composition root).
    package var feeds: any HTTPClient
    /// Adds settings (their digests) to those this person trusts (README, "What focus
    /// promises"): a feed the other machines subscribe to, taken in by sync.
    package var trustSettings: @Sendable (_ digests: [String]) throws(FocusError) -> Void
    /// The person at the terminal (a yes to a stored setting, a password typed); nil when there
    /// is no terminal to ask at.
    package var prompter: (any Prompter)?
    /// Standard input and the accounts' password commands, as sources of a password.
    package var credentials: any CredentialSource
    /// The database the command opened, if any: the one whose settings the upgrade of the
    /// stored-settings rule trusts (`TrustStore`).
    package var openedDatabase: @Sendable () -> AppDatabase?

    package init(console: any Console, now: @escaping @Sendable () -> Date, calendar: LocalCalendar, config: FocusConfig,
                 configPath: String, databasePath: String, environment: [String: String], caldav: any CalDAVClient, feeds: any HTTPClient,
                 credentials: any CredentialSource, prompter: (any Prompter)? = nil, openedDatabase: @escaping @Sendable () -> AppDatabase? = { nil },
                 trustSettings: @escaping @Sendable (_ digests: [String]) throws(FocusError) -> Void) {
        self.console = console
        self.now = now
        self.calendar = calendar
        self.config = config
        self.configPath = configPath
        self.databasePath = databasePath
        self.environment = environment
        self.caldav = caldav
        self.feeds = feeds
        self.credentials = credentials
        self.prompter = prompter
        self.openedDatabase = openedDatabase
        self.trustSettings = trustSettings
    }
}
