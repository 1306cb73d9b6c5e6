import ArgumentParser
import FocusCLI
import FocusCore
import FocusCoreTestSupport
import FocusServices
import FocusStorage
import FoundationEssentials

extension TestWorld {
    /// The calendar the machines of a sync test sync through, on a `FakeCalDAVServer`.
    package static let syncCalendarURL = "https://dav.example.org/calendars/alice/focus/"
    /// The account that reaches it.
    package static let syncEndpoint = CalDAVEndpoint(url: "https://dav.example.org/", user: "alice", password: "secret")

    /// One machine of a sync test: a world at `now` with the account connected and sync set up
    /// through `syncCalendarURL` (made on `server`) as machine `id`.
    package static func syncMachine(_ server: FakeCalDAVServer, now: String = "2026-11-24T19:00:00Z",
                                    id: String = UUID().uuidString) throws -> TestWorld {
        let world = try TestWorld(now: now)
        let account = try world.database.saveAccount(url: "https://dav.example.org/", principalURL: "https://dav.example.org/principals/alice/",
                                                     homeURLs: [server.home], user: "alice", passwordCommand: nil, caFile: nil, insecure: false,
                                                     at: world.now)
        _ = try server.makeCalendar(syncCalendarURL, displayName: "Focus", components: ["VEVENT", "VTODO"], syncEndpoint)
        try world.database.setSyncTarget(accountID: account, url: syncCalendarURL, name: "Focus", machineID: id, at: world.now)
        return world
    }

    /// What `focus ARGUMENTS` prints here, without the ids that are each machine's own: two
    /// synced machines print the same (`"id": 3` and `"id": 7` are one task).
    package func sharedOutput(_ arguments: String...) async -> String {
        await output(arguments).out.replacing(/"id": \d+/, with: "")
    }

    /// One sync round of this machine against `server`, as `focus sync` runs it.
    @discardableResult
    package func syncRound(_ server: FakeCalDAVServer) throws -> SyncEngine.Summary {
        let env = try environment(global: GlobalOptions.parse([]))
        guard let target = try database.syncTarget() else { throw FocusError.usage("no sync target") }
        return try SyncEngine(env: env.services, client: server, db: database).run(target, endpoint: TestWorld.syncEndpoint)
    }
}
