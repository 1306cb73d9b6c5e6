import ArgumentParser
import FocusCalendar
import FocusCore
import FocusNetwork
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus calendar subscribe URL [--name NAME] [--ca-file PATH] [--insecure]`.
package struct CalendarSubscribeCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "subscribe", abstract: "Subscribe to an iCalendar feed (https, webcal, http) as busy time.",
        discussion: """
            The feed is fetched at once and stored as `calendar import` stores a file (same reader, same \
            warnings); `focus calendar refresh` fetches it again. webcal:// is read as https://; plain \
            http:// is allowed only to this machine unless --insecure. Re-subscribing a name replaces it.
            """)

    @Argument(help: ArgumentHelp("The feed's address (Google Calendar's \"secret address in iCal format\", a published Outlook calendar's ICS link, a share link).", valueName: "url"))
    var url: String
    @Option(help: ArgumentHelp("The calendar's name (default: the name inside the feed, else the address's file name).", valueName: "name"))
    var name: String?
    @Option(help: ArgumentHelp("Trust the certificate authorities in this PEM file instead of the system's (a private CA).", valueName: "path"))
    var caFile: String?
    @Flag(help: "Allow plain http:// to another machine (the calendar crosses the network unencrypted).")
    var insecure = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let address = try CalendarFeed.address(url, insecure: insecure)
        var state = FeedState(insecure: insecure ? true : nil)
        if let caFile {
            _ = try CalendarFile.read(caFile)  // 66 for a missing file, 74 unreadable, before any network
            state.caFile = URL(fileURLWithPath: caFile).standardizedFileURL.path
        }
        let services = env.services
        let fetcher = FeedFetcher(env: services, client: services.feeds)
        let label = "feed \(CalendarFeed.shownAddress(address))"
        guard case let .body(data, etag, modified) = try CalendarFeed.fetch(address, state: state, conditional: false, label: label, client: fetcher.client) else {
            throw FocusError.unavailable("\(CalendarFeed.shownAddress(address)) answered 304 Not Modified to a first request.")
        }
        state.etag = etag
        state.lastModified = modified
        let fileName = address.split(separator: "?").first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        // Else the host: `.ics` is what the file-name rule strips.
        let fallbackName = fileName.isEmpty || fileName.contains(":") ? CalendarFeed.host(of: address) + ".ics" : fileName
        let db = try env.openDatabase()
        // Set up by this user on this machine: trusted from now on (README, "What focus promises").
        try TrustStore(env: env.services).add([StoredSetting(kind: .feed, url: address, caFile: state.caFile, insecure: state.insecure ?? false).digest])
        let say = { (report: CalendarFetchReport) in CalendarFetchRenderer.say(report, on: env.console) }
        say(try fetcher.store(data, address: address, state: state, name: name, nameFallback: fallbackName, label: label, db: db,
                              verb: .subscribed, warn: say))
    }
}
