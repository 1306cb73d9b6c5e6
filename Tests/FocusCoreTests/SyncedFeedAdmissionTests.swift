import FocusCore
import Foundation
import Testing

/// What a server, another app or a person with write access to the sync calendar sends, held
/// to the rules a person typing it meets (issue #39).
@Suite struct SyncedFeedAdmissionTests {
    @Test(arguments: [
        "http://feeds.example.org/team.ics",
        "https://me:secret@feeds.example.org/team.ics",
        "https://me@feeds.example.org/team.ics",
        "/etc/passwd",
        "file:///etc/passwd",
        "webcal://feeds.example.org/team.ics",
        "HTTPS://feeds.example.org/team.ics",
        "https://feeds.example.org/team ics",
    ])
    func aSyncedFeedThatATypedSubscribeWouldRefuseIsNotSubscribedToWithOneWarning(address: String) {
        let arriving = SyncSettings.arriving([SyncSettings.Feed(address: address, name: "Team")], taken: [])
        #expect(arriving.subscribe.isEmpty)
        #expect(arriving.warnings.count == 1)
        #expect(arriving.warnings.allSatisfy { $0.hasPrefix("warning: the feed ") && !$0.contains(":secret@") && !$0.contains("team.ics") },
                "\(arriving.warnings)")
    }

    @Test func aSyncedFeedATypedSubscribeWouldTakeIsSubscribedTo() {
        let feeds = ["https://feeds.example.org/team.ics", "http://127.0.0.1:8080/local.ics"].map { SyncSettings.Feed(address: $0, name: $0) }
        let arriving = SyncSettings.arriving(feeds, taken: [])
        #expect(arriving.warnings.isEmpty)
        #expect(arriving.subscribe.map(\.address) == feeds.map(\.address))
    }

    @Test func aSyncedFeedNeverTakesTheNameOfACalendarHere() {
        let team = SyncSettings.Feed(address: "https://feeds.example.org/team.ics", name: "Work")
        let other = SyncSettings.Feed(address: "https://feeds.example.org/other.ics", name: "work")
        let arriving = SyncSettings.arriving([team, other], taken: ["Work", "Work (feeds.example.org)", "Classes"])
        #expect(arriving.subscribe.map(\.name) == ["Work (feeds.example.org) 2", "work (feeds.example.org) 3"])
        #expect(SyncSettings.arriving([team], taken: ["Classes"]).subscribe.map(\.name) == ["Work"])
    }
}
