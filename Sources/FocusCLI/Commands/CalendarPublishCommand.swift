import ArgumentParser
import FocusCore
import FocusNetwork
import FocusStorage
import Foundation

/// `focus calendar publish CALENDAR [--sessions] [--password-stdin]`.
package struct CalendarPublishCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Write the plan's blocks to a calendar of a connected CalDAV account.",
        discussion: """
            Every planned block still ahead becomes an event in CALENDAR (made when the account has no \
            calendar of that name and the server allows it): summary "Task/Subtask", category focus, \
            the subtask's notes as its description. From then on `focus plan`, `calendar refresh` and \
            the daemon keep it current: moved blocks are updated, removed ones deleted, and blocks \
            that have ended stay as the record of the day. focus never changes an event it did not \
            write, and never reads its own events back as busy time.
            """)

    @Argument(help: ArgumentHelp("The calendar's name in the connected account.", valueName: "calendar"))
    var calendar: String
    @Flag(help: "Also publish the sessions worked in the last 14 days and from now on.")
    var sessions = false
    @Flag(help: "Read the account's password from the first line of standard input.")
    var passwordStdin = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let accounts = try db.accounts()
        guard !accounts.isEmpty else {
            throw FocusError.usage("no CalDAV account is connected. Connect one first: `focus calendar connect URL --user USER`.")
        }
        let login = CalDAVLogin(passwordFromStandardInput: passwordStdin)
        let client = CalDAVHTTPClient(http: CurlHTTPClient(environment: env.environment))
        // The account that has a calendar of this name, else the one connected last.
        var found: (account: StoredAccount, endpoint: CalDAVEndpoint, url: String, name: String)?
        var fallback: (account: StoredAccount, endpoint: CalDAVEndpoint)?
        for account in accounts {
            let endpoint = try login.endpoint(account, env: env)
            let home = CalDAVAccount(contextURL: account.url, principalURL: account.principalURL, homeURLs: account.homeURLs)
            let remote = try client.calendars(home, endpoint)
            if let match = CalDAVChoice.calendar(named: calendar, in: remote) {
                guard match.components.isEmpty || match.components.contains("VEVENT") else {
                    throw FocusError.usage("calendar '\(Sanitized.terminal(match.displayName))' holds only \(match.components.joined(separator: ", ")): focus publishes events. Name another calendar, or a new one.")
                }
                if match.writable == false {
                    throw FocusError.unavailable("calendar '\(Sanitized.terminal(match.displayName))' is read-only for this login. Name another calendar, or a new one.")
                }
                found = (account, endpoint, match.url, match.displayName)
                break
            }
            if fallback == nil { fallback = (account, endpoint) }
            if passwordStdin { break }  // standard input gives one password
        }
        if found == nil, let (account, endpoint) = fallback {
            guard let home = account.homeURLs.first else {
                throw FocusError.unavailable("the account at \(CalendarFeed.shownAddress(account.url)) has no calendar home to make '\(Sanitized.terminal(calendar))' in.")
            }
            let url = CalDAVChoice.newCalendarURL(home: home, name: calendar)
            switch try client.makeCalendar(url, displayName: calendar, endpoint) {
            case .written:
                env.console.line("Made calendar \(Sanitized.terminal(calendar)) in the account at \(CalendarFeed.shownAddress(account.url)).")
            case .changedOnServer, .missing:
                throw FocusError.unavailable("the server would not make calendar '\(Sanitized.terminal(calendar))' (something else is at \(CalendarFeed.shownAddress(url))). Make it in your calendar app, then publish again.")
            }
            found = (account, endpoint, url, calendar)
        }
        guard let found else { return }
        let target = try db.savePublishTarget(accountID: found.account.id, url: found.url, name: found.name, sessions: sessions)
        _ = Planning.replanIfStale(env, db)
        let summary = try PlanPublisher(env: env, client: client).publish(target, endpoint: found.endpoint, db: db)
        for warning in summary.warnings { env.console.note("warning: " + warning) }
        env.console.line(PlanPublisher.line(summary, target: target))
    }
}
