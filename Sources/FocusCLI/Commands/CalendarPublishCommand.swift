import FocusText
import ArgumentParser
import FocusCore
import FocusNetwork
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus calendar publish CALENDAR [--sessions] [--password-stdin]`.
package struct CalendarPublishCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Write the plan's blocks to a calendar of a connected CalDAV account.",
        discussion: """
            Every planned block still ahead becomes an event in CALENDAR (made when the account has no \
            calendar of that name and the server allows it): summary "Task/Subtask", category focus, \
            the subtask's notes as its description. From then on `focus plan`, `calendar refresh` and \
            the daemon keep it current: moved blocks are updated, removed ones deleted, and blocks \
            that have ended stay as the record of the day. An event deleted there is written again; a \
            block moved there is pinned at its new time (`focus plan --unpin` hands it back). focus \
            never changes an event it did not write, never reads its own events back as busy time, \
            and never writes into a calendar that holds another machine's plan: one calendar, one plan.
            """)

    @Argument(help: ArgumentHelp("The calendar's name in the connected account.", valueName: "calendar"))
    var calendar: String
    @Flag(help: "Also publish the sessions worked in the last 14 days and from now on.")
    var sessions = false
    @Flag(help: "Read the account's password from the first line of standard input.")
    var passwordStdin = false
    @Flag(help: "Stop publishing to CALENDAR: the events of blocks still ahead are deleted there, those that have ended stay.")
    var stop = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func validate() throws {
        if stop, sessions { throw ValidationError("--stop and --sessions do not go together.") }
    }

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        if stop { return try stopPublishing(env, db) }
        let login = CalDAVLogin(passwordFromStandardInput: passwordStdin)
        let client = env.services.caldav
        let found = try AccountCalendar.findOrMake(calendar, components: ["VEVENT"], purpose: "focus publishes events", again: "publish again",
                                                   db: db, env: env.services, login: login, client: client)
        if found.made { env.console.line(CalendarFetchRenderer.made(calendar: found.name, accountAddress: found.account.url)) }
        let target = try db.savePublishTarget(accountID: found.account.id, url: found.url, name: found.name, sessions: sessions)
        env.databaseUse.notePublished()
        _ = Planning.replanIfStale(env.services, db)
        let publisher = PlanPublisher(env: env.services, client: client)
        let summary = try publisher.publish(target, endpoint: found.endpoint, db: db)
        if let other = summary.otherPlan {
            // One calendar holds one plan: nothing of this machine's stays there.
            let deleted = try publisher.stop(target, endpoint: found.endpoint, db: db)
            throw FocusError.unavailable(PublishReport.otherPlan(calendar: found.name, blocksThere: other.count, host: other.host)
                + (deleted > 0 ? " This machine's \(deleted) block\(deleted == 1 ? "" : "s") ahead were deleted there." : ""))
        }
        for report in summary.notes.map(PublishReport.note) + summary.warnings.map(PublishReport.warning) + [PlanPublisher.published(summary, target: target)] {
            PublishRenderer.say(report, on: env.console)
        }
    }

    /// Deletes the events of blocks still ahead from the calendar, then forgets it.
    private func stopPublishing(_ env: FocusEnvironment, _ db: AppDatabase) throws {
        let key = TaskCatalog.key(calendar)
        guard let target = try db.publishTargets().first(where: { TaskCatalog.key($0.name) == key }) else {
            let names = try db.publishTargets().map { "'\(DisplayText($0.name).string)'" }
            throw FocusError.usage("focus does not publish to a calendar named '\(DisplayText(calendar).string)'\(names.isEmpty ? "" : " (it publishes to \(names.joined(separator: ", ")))").")
        }
        guard let account = try db.accounts().first(where: { $0.id == target.accountID }) else {
            try db.removePublishTarget(id: target.id)
            return
        }
        let endpoint = try CalDAVLogin(passwordFromStandardInput: passwordStdin).endpoint(account, env: env.services)
        let client = env.services.caldav
        // Only this machine's events, each in the version it wrote: never another machine's.
        let deleted = try PlanPublisher(env: env.services, client: client).stop(target, endpoint: endpoint, db: db)
        env.console.line("Stopped publishing to \(target.name): \(deleted) block\(deleted == 1 ? "" : "s") still ahead deleted there.")
    }
}
