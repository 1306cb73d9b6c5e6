import FocusText
import ArgumentParser
import FocusCore
import FocusNetwork
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus sync ...`: one history on two machines, through a calendar of a connected CalDAV
/// account (README, "Two machines").
package struct SyncCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Share tasks and sessions with your other machines through a CalDAV calendar.",
        discussion: """
            Tasks and subtasks are to-dos (VTODO) in the sync calendar, sessions are events there. \
            Run "sync setup CALENDAR" once on each machine (after calendar connect), then "sync" \
            whenever you like; the daemon syncs by itself after each change and every \
            sync_interval. See `focus sync status`, and the README, "Two machines", for the \
            merging rules.
            """,
        subcommands: [SyncNowCommand.self, SyncSetupCommand.self, SyncStatusCommand.self],
        defaultSubcommand: SyncNowCommand.self)
    package init() {}

    /// The progress line of a sync's writes (a first sync of a long history sends thousands).
    static func meter(quiet: Bool, env: FocusEnvironment) -> ProgressMeter {
        ProgressMeter(verb: "Sending", unit: .items("items"), total: nil, quiet: quiet, environment: env.environment, checkEvery: 1)
    }

    /// Prints what a sync did: its lines on standard output, warnings on standard error; a
    /// sync that did not converge then fails (README: it says so and exits non-zero).
    package static func say(_ summary: SyncEngine.Summary, target: SyncTarget, env: FocusEnvironment) throws {
        SyncRenderer.say(summary, calendar: target.name, on: env.console)
        if summary.unconverged { throw FocusError.unavailable("sync with '\(DisplayText(target.name).string)' " + SyncEngine.unconverged) }
    }

    /// Fetches the feeds that arrived from the other machines (`CalendarRefresher.fetchArrivedFeeds`)
    /// and plans again when busy time changed.
    static func fetchArrivedFeeds(_ db: AppDatabase, env: FocusEnvironment) {
        let refresher = CalendarRefresher(env: env.services, db: db, login: CalDAVLogin(mayPrompt: false))
        if refresher.fetchArrivedFeeds(report: { CalendarFetchRenderer.say($0, on: env.console) }) { _ = Planning.replanIfStale(env.services, db) }
    }
}

/// `focus sync`: send local changes and receive the other machines'.
package struct SyncNowCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "now", abstract: "Sync now (what sync without a subcommand does).", shouldDisplay: false)

    @Flag(help: "Read the account's password from the first line of standard input.")
    var passwordStdin = false
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).")
    var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        guard let target = try db.syncTarget() else {
            throw FocusError.usage("sync is not set up on this machine. Run `focus sync setup CALENDAR` first (the calendar of a connected CalDAV account).")
        }
        let endpoint = try CalDAVLogin(passwordFromStandardInput: passwordStdin).endpoint(of: target, db: db, env: env.services)
        try SyncCommand.say(try SyncEngine.sync(target, endpoint: endpoint, db: db, env: env.services, progress: SyncCommand.meter(quiet: quiet, env: env)), target: target, env: env)
        SyncCommand.fetchArrivedFeeds(db, env: env)
    }
}

/// `focus sync setup CALENDAR`.
package struct SyncSetupCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "setup", abstract: "Sync through CALENDAR of a connected CalDAV account (made if it does not exist).",
        discussion: """
            The calendar holds only focus's data: one that has other events is refused. It never \
            counts as busy time. The first sync follows at once; a database with history is backed \
            up beside itself first. On a second machine, set up the same calendar: tasks of the \
            same name become one.
            """)

    @Argument(help: ArgumentHelp("The calendar's name in the connected account.", valueName: "calendar"))
    var calendar: String
    @Flag(help: "Read the account's password from the first line of standard input.")
    var passwordStdin = false
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).")
    var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let login = CalDAVLogin(passwordFromStandardInput: passwordStdin)
        let client = env.services.caldav
        let found = try AccountCalendar.findOrMake(
            calendar, components: ["VEVENT", "VTODO"], purpose: "focus syncs to-dos and events", again: "set up again",
            db: db, env: env.services, login: login, client: client
        ) { match, endpoint in
            // Only focus's data: another program's events there would be mixed into a history.
            let content = try client.changes(in: match.url, since: nil, endpoint)
            let others = content.changed.filter { resource in
                guard let data = resource.data else { return false }
                if (try? SyncCodec.decode(data, zone: env.calendar)) != nil { return false }
                // The other machines' running sessions and the settings event are focus's too.
                if RunningCheckpoint.decode(data) != nil || SyncSettings.decode(data) != nil { return false }
                return String(decoding: data, as: UTF8.self).contains("BEGIN:VEVENT")
            }.count
            if others > 0 {
                throw FocusError.usage("calendar '\(DisplayText(match.displayName).string)' has \(others) event\(others == 1 ? "" : "s") of its own: focus keeps its data in a calendar that holds nothing else. Name a new calendar and focus makes it.")
            }
        }
        if found.made { env.console.line(CalendarFetchRenderer.made(calendar: found.name, accountAddress: found.account.url)) }
        if try db.connectedCalendars().contains(where: { $0.accountID == found.account.id && $0.remoteURL == found.url }) {
            env.console.note("note: calendar '\(found.name)' no longer counts as busy time: it holds focus's history.")
        }
        let machineID = try db.syncTarget()?.machineID ?? String(UInt64.random(in: .min ... .max), radix: 16)
        try db.setSyncTarget(accountID: found.account.id, url: found.url, name: found.name, machineID: machineID, at: env.now())
        guard let target = try db.syncTarget() else { return }
        env.console.line("Syncing through \(found.name) (\(CalendarFeed.shownAddress(found.url))).")
        try SyncCommand.say(try SyncEngine.sync(target, endpoint: found.endpoint, db: db, env: env.services, client: client,
                                                 progress: SyncCommand.meter(quiet: quiet, env: env)), target: target, env: env)
        SyncCommand.fetchArrivedFeeds(db, env: env)
    }
}

/// `focus sync status [--json]`.
package struct SyncStatusCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the last sync, what waits to be sent, and recent conflicts.")

    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let status = try Self.status(db, now: env.now())
        if json {
            env.console.line(SyncStatusRenderer.json(status))
        } else {
            env.console.show(SyncStatusRenderer.text(status, calendar: env.calendar, now: env.now()))
        }
    }

    /// What `sync status` shows, read from `db`: nil when sync is not set up.
    static func status(_ db: AppDatabase, now: Date) throws -> SyncStatus? {
        guard let target = try db.syncTarget() else { return nil }
        let pending = try db.pendingSyncCount()
        let conflicts = try db.syncConflicts(since: now.addingTimeInterval(-30 * 86_400))
        return SyncStatus(calendar: target.name, url: target.url, syncedAt: target.syncedAt, lastError: target.lastError, lastErrorAt: target.lastErrorAt,
                          pending: SyncStatus.Pending(changed: pending.changed, added: pending.added, removed: pending.removed),
                          conflicts: conflicts.map { SyncStatus.Conflict(label: $0.label, conflict: $0.conflict, at: $0.at) },
                          skipped: try db.skippedSettings())
    }
}
