import FocusText
import ArgumentParser
import FocusCore
import FocusNetwork
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus calendar refresh [NAME] [--accept-empty]`.
package struct CalendarRefreshCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Fetch subscribed calendars again (all of them without NAME).",
        discussion: """
            Requests are conditional (If-None-Match, If-Modified-Since): an unchanged feed costs one small \
            request and changes nothing. A failed fetch (offline, a server error, a timeout, TLS, a web page \
            or a body that does not parse) keeps the last good copy in use; `calendar list` says how old it is. \
            A feed or connected calendar that comes back with no events while the copy kept has some is \
            kept aside with a warning.
            """)

    @Argument(help: ArgumentHelp("A subscribed calendar's name.", valueName: "name"))
    var name: String?
    @Flag(help: "Take a calendar that came back with no events (the copy kept is replaced by the empty one).")
    var acceptEmpty = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    @Flag(help: "Read the password of a connected CalDAV account from the first line of standard input.")
    var passwordStdin = false

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let refresher = CalendarRefresher(env: env.services, db: db, login: CalDAVLogin(passwordFromStandardInput: passwordStdin), acceptEmpty: acceptEmpty)
        // Without NAME every connected account is listed again first: calendars added there are
        // read (just now, so not again below), those gone stop counting.
        let say = { (report: CalendarFetchReport) in CalendarFetchRenderer.say(report, on: env.console) }
        let added = name == nil ? refresher.refreshAccounts(report: say).added : []
        let all = try db.calendars().filter { !($0.connected && added.contains($0.source)) }
        let chosen: [CalendarSummary]
        if let name {
            guard let calendar = all.first(where: { TaskCatalog.key($0.name) == TaskCatalog.key(name) }) else {
                throw FocusError.usage("no calendar is named '\(DisplayText(name).string)'. Run `focus calendar list` to see them.")
            }
            guard calendar.connected || CalendarFeed.isFeed(source: calendar.source) else {
                throw FocusError.usage("calendar '\(DisplayText(calendar.name).string)' was imported from a file, not subscribed: import the file again with `focus calendar import`.")
            }
            chosen = [calendar]
        } else {
            chosen = all.filter { $0.connected || CalendarFeed.isFeed(source: $0.source) }
            if chosen.isEmpty, !added.isEmpty {
                _ = Planning.replanIfStale(env.services, db)
                return
            }
            if chosen.isEmpty {
                env.console.line("No subscribed calendars. Subscribe to one with `focus calendar subscribe URL`, or connect a CalDAV account with `focus calendar connect URL`.")
                return
            }
        }
        var failures: [FocusError] = []
        for calendar in chosen {
            do {
                if let fetched = try refresher.refresh(calendar, warn: say) { say(fetched) }
            } catch let kept as FocusError {
                if chosen.count == 1 { throw kept }
                env.console.note("warning: \(kept.description)")
                failures.append(kept)
            }
        }
        if let outcome = Planning.replanIfStale(env.services, db), !outcome.result.items.isEmpty {
            env.console.line(PlanRenderer.summary(outcome))
        }
        env.databaseUse.notePublished()
        for report in PlanPublisher.publishAll(env: env.services, db: db, login: CalDAVLogin(mayPrompt: false), endpoints: refresher.endpoints.value) {
            PublishRenderer.say(report, on: env.console)
        }
        if let first = failures.first {
            let message = "\(failures.count) of \(chosen.count) calendars could not be refreshed (see the warnings above); their last good copies are kept and used."
            throw first.exitCode == 69 ? FocusError.unavailable(message) : FocusError.badInput(file: "calendar refresh", line: nil, reason: message)
        }
    }
}
