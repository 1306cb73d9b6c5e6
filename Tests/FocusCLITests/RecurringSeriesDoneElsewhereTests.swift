import FocusCore
import FocusCoreTestSupport
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Issue #40: the series of a recurring to-do ticked done on the phone was ignored silently (the
/// server said COMPLETED, focus said open, forever). Another app knows no series (focus writes no
/// RRULE): ticking it means this period's work is done, as `focus task done SERIES` does here.
@Suite struct RecurringSeriesDoneElsewhereTests {
    @Test func aSeriesTickedDoneOnThePhoneCompletesItsCurrentInstanceAndIsWrittenBackOpen() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server, now: "2026-11-25T09:00:00Z")
        laptop.caldav = server
        try laptop.trustStoredSettings()
        #expect(await laptop.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week", "--on", "fri") == 0)
        #expect(await laptop.run("sync") == 0)
        let (url, text) = try #require(server.contents(TestWorld.syncCalendarURL).map { ($0.key, String(decoding: $0.value, as: UTF8.self)) }
            .first { $0.1.contains("X-FOCUS-EVERY") })
        server.store(url, text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED"))

        let sync = await laptop.output("sync")
        #expect(sync.code == 0 && sync.out.contains("'Admin/Weekly review' was ticked done in another app: this period's work is done here"), "\(sync.out)")
        let instances = try laptop.database.overview(all: true).flatMap(\.subtasks).filter { $0.subtask.seriesID != nil }
            .sorted { ($0.subtask.periodStart?.description ?? "") < ($1.subtask.periodStart?.description ?? "") }
        #expect(instances.map(\.subtask.done) == [true, false], "this week's instance done, next week's open")
        #expect(await laptop.output("task", "list").out.contains("next due Fri 4 Dec"))
        let there = String(decoding: try #require(server.contents(TestWorld.syncCalendarURL)[url]), as: UTF8.self)
        #expect(there.contains("STATUS:NEEDS-ACTION"), "the series written back open: \(there)")
        let again = await laptop.output("sync")
        #expect(!again.out.contains("ticked done"), "said once: \(again.out)")
        let instanceThere = server.contents(TestWorld.syncCalendarURL).values.map { String(decoding: $0, as: UTF8.self) }
            .first { $0.contains("X-FOCUS-PERIOD:2026-11-23") } ?? ""
        #expect(instanceThere.contains("STATUS:COMPLETED"), "the instance's done travels: \(instanceThere)")
    }
}
