import FocusText
import ArgumentParser
import FocusCore
import FocusNetwork
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus calendar connect URL [--user USER] [--password-stdin | --password-command CMD]
/// [--calendar NAME ...] [--ca-file PATH] [--insecure]`.
package struct CalendarConnectCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "connect", abstract: "Connect a CalDAV account; its calendars count as busy time.",
        discussion: """
            The account is found from the server's address or its /.well-known/caldav (RFC 6764), \
            and its calendars are listed. Those named with --calendar count as busy time (default: every \
            calendar that holds events); `focus calendar refresh` keeps them current. focus never stores \
            a password: give the command that prints it (--password-command, run without a shell, \
            e.g. 'pass show caldav/fastmail'), pipe it in (--password-stdin), or type it when asked. \
            The README's "Your real calendar" has the addresses of Nextcloud, Fastmail and iCloud.
            """)

    @Argument(help: ArgumentHelp("The server's address (https://, or http:// to this machine).", valueName: "url"))
    var url: String
    @Option(help: ArgumentHelp("The account's user name.", valueName: "user"))
    var user: String?
    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false
    @Option(help: ArgumentHelp("A command that prints the password (run without a shell, each time focus needs it).", valueName: "command"))
    var passwordCommand: String?
    @Option(name: .customLong("calendar"), help: ArgumentHelp("A calendar that counts as busy time (repeatable; default: all that hold events).", valueName: "name"))
    var calendars: [String] = []
    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's (a private CA).", valueName: "path"))
    var caFile: String?
    @Flag(help: "Allow plain http:// to another machine (the password and calendars cross the network unencrypted).")
    var insecure = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func validate() throws {
        if passwordStdin, passwordCommand != nil {
            throw ValidationError("Give either --password-stdin or --password-command, not both.")
        }
        let inAddress = (try? CalendarFeed.credentials(url))?.user
        if (passwordStdin || passwordCommand != nil), user == nil, inAddress == nil {
            throw ValidationError("A password needs a user name: add --user USER.")
        }
        if let user, let inAddress, user != inAddress {
            throw ValidationError("The address names user '\(inAddress)' and --user '\(user)': give one.")
        }
    }

    package func run(in env: FocusEnvironment) async throws {
        // `https://me@host/dav` names the user as --user does.
        let (plain, inAddress) = try CalendarFeed.credentials(url)
        let user = self.user ?? inAddress
        let address = try CalendarFeed.address(plain, insecure: insecure)
        var ca: String?
        if let caFile {
            _ = try CalendarFile.read(caFile)  // 66 for a missing file, 74 unreadable, before any network
            ca = URL(fileURLWithPath: caFile).standardizedFileURL.path
        }
        if let passwordCommand { _ = try CommandLineWords.split(passwordCommand) }
        let login = CalDAVLogin(passwordFromStandardInput: passwordStdin)
        // Connecting an account again uses the password command it was connected with.
        let db = try env.openDatabase()
        let known = try db.accounts().first { $0.url == address && $0.user == (user ?? "") }
        // A command that came with the database runs only with the person's yes.
        if passwordCommand == nil, let known, known.passwordCommand != nil { try login.approve(known, env: env.services, checkFile: false) }
        let password = try login.password(user: user, command: passwordCommand ?? known?.passwordCommand, host: CalendarFeed.shownAddress(address), env: env.services)
        let endpoint = CalDAVEndpoint(url: address, user: user, password: password, caFile: ca, insecure: insecure)
        let fetch = ConnectedCalendarFetch(env: env.services)
        let account = try fetch.client.discover(endpoint)
        // Scheduling inboxes and outboxes are no calendars of the person's (RFC 6638).
        let remote = CalDAVChoice.usable(try fetch.client.calendars(account, endpoint))
        // The calendar focus syncs through holds history, never busy time (README, "Two machines").
        let syncURL = try db.syncTarget()?.url
        // Nor is the calendar focus publishes the plan into, unless named.
        let published = CalDAVChoice.leftOut(published: try db.publishTargets().map(\.url), names: calendars)
        var chosen = try CalDAVChoice.busyCalendars(remote, named: calendars).filter { $0.url != syncURL && !published.contains($0.url) }
        // Before sync is set up here, the calendar another machine syncs through is its history.
        let histories = syncURL == nil ? try ConnectedCalendarFetch.histories(chosen, client: fetch.client, endpoint: endpoint) : []
        chosen.removeAll { histories.contains($0.url) }

        let accountID = try db.saveAccount(url: address, principalURL: account.principalURL, homeURLs: account.homeURLs, user: user ?? "",
                                           passwordCommand: passwordCommand, caFile: ca, insecure: insecure, calendarNames: calendars, addresses: account.addresses,
                                           schedulingURLs: account.schedulingURLs, at: env.now())
        // Never read by a refresh either (it would download it whole each time to judge it).
        try db.excludeConnectedCalendars(accountID: accountID, urls: histories.sorted())
        // Set up by this user on this machine: trusted from now on (README, "What focus promises").
        try TrustStore(env: env.services).trustAccount(accountID, in: db)
        env.console.show(CalendarFetchRenderer.connected(address: address, user: user, calendars: remote, chosen: chosen, histories: histories, syncURL: syncURL))
        let failures = try Self.storeFirstCopies(chosen, accountID: accountID, address: address, endpoint: endpoint, fetch: fetch, db: db, env: env)
        for name in try db.removeConnectedCalendars(accountID: accountID, keeping: Set(chosen.map(\.url))) {
            env.console.line(CalendarFetchRenderer.noLongerBusy(name))
        }
        if let outcome = Planning.replanIfStale(env.services, db), !outcome.result.items.isEmpty {
            env.console.line(PlanRenderer.summary(outcome))
        }
        if failures > 0, failures == chosen.count {
            throw FocusError.unavailable("none of the account's calendars could be read (see the warnings above); `focus calendar refresh` tries again.")
        }
    }

    /// Fetches and stores each chosen calendar's first copy; how many could not be read (each
    /// said in a warning).
    static func storeFirstCopies(_ chosen: [RemoteCalendar], accountID: Int64, address: String, endpoint: CalDAVEndpoint,
                                 fetch: ConnectedCalendarFetch, db: AppDatabase, env: FocusEnvironment) throws -> Int {
        // A calendar another source already has under this name keeps it: this one is named
        // after its host too.
        let stored = try db.calendars()
        let mine = Set(try db.connectedCalendars().filter { $0.accountID == accountID }.map(\.remoteURL))
        var failures = 0
        for calendar in chosen {
            var name = calendar.displayName
            if let clash = stored.first(where: { TaskCatalog.key($0.name) == TaskCatalog.key(name) }), !mine.contains(clash.source) {
                name += " (\(CalendarFeed.host(of: address)))"
            }
            do {
                let say = { (report: CalendarFetchReport) in CalendarFetchRenderer.say(report, on: env.console) }
                say(fetch.report(try fetch.first(calendar, name: name, accountID: accountID, endpoint: endpoint, db: db, warn: say), name: name, verb: .stored))
            } catch let error as FocusError {
                failures += 1
                CalendarFetchRenderer.say(.notRead(name: name, reason: error.description), on: env.console)
            }
        }
        return failures
    }
}
