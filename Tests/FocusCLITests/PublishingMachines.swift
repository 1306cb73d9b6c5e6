import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation

/// The publishing tests' machines and what they read back: one account on the in-memory
/// server, whose plan calendar is `publishPlanURL`.
let publishPlanURL = "https://dav.example.org/calendars/alice/focus-plan/"

/// A machine with the server's account stored and its settings trusted; by default 24 November
/// 2026, 23:00 in Berlin: the plan's first free time is Wednesday 08:00 (07:00 UTC).
func publishingMachine(_ server: FakeCalDAVServer, now: String = "2026-11-24T22:00:00Z") throws -> TestWorld {
    let world = try TestWorld(now: now)
    world.config = TestWorld.roundTheWeek
    world.caldav = server
    _ = try world.database.saveAccount(url: "https://dav.example.org/", principalURL: "https://dav.example.org/principals/alice/",
                                       homeURLs: [server.home], user: "alice", passwordCommand: nil, caFile: nil, insecure: false, at: world.now)
    try world.trustStoredSettings()
    return world
}

/// The plan calendar's members, by address.
func planTexts(_ server: FakeCalDAVServer) -> [String: String] {
    server.contents(publishPlanURL).mapValues { String(decoding: $0, as: UTF8.self) }
}

/// The value of the first line of `text` named `name` (unfolded text).
func icsValue(_ text: String, _ name: String) -> String? {
    text.components(separatedBy: "\r\n").first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)) }
}
