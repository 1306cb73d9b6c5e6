import FocusCore
import FocusCoreTestSupport
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Recurring work on two machines (README, "Planning" and "Two machines"): the rule travels,
/// each machine makes the week's instance, and they converge to one instance per period.
private func machine(_ server: FakeCalDAVServer) throws -> TestWorld {
    let world = try TestWorld.syncMachine(server, now: "2026-11-25T09:00:00Z")
    world.caldav = server
    try world.trustStoredSettings()
    return world
}

/// The instances of the series on one machine: title and logged focus.
private func instances(_ world: TestWorld) throws -> [(title: String, logged: Int)] {
    try world.database.overview(all: true).flatMap(\.subtasks).filter { $0.subtask.seriesID != nil }
        .map { ($0.subtask.title, $0.loggedSeconds) }.sorted { $0.title < $1.title }
}

@Suite struct RecurringWorkSyncTests {
    @Test func bothMachinesMakeTheWeeksInstanceAndSyncLeavesOneWithTheTimeLoggedOnBoth() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        #expect(await laptop.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week", "--on", "fri") == 0)
        #expect(await laptop.run("sync") == 0, "\(laptop.console.stderr)")
        #expect(await desktop.run("sync") == 0, "\(desktop.console.stderr)")
        // The rule arrived: the desktop lists the series as the laptop does.
        let list = await desktop.output("task", "list")
        #expect(list.out.contains("every week on Fri") && list.out.contains("next due Fri 27 Nov"), "\(list.out)")

        // Each logs time against this week's instance, then both sync.
        #expect(await laptop.run("log", "add", "Admin/Weekly review", "--start", "2026-11-25 08:00", "--duration", "20m") == 0)
        #expect(await desktop.run("log", "add", "Admin/Weekly review", "--start", "2026-11-25 09:00", "--duration", "15m") == 0)
        for world in [laptop, desktop, laptop] { #expect(await world.run("sync") == 0, "\(world.console.stderr)") }

        let expected = ["Weekly review · 2026-11-27", "Weekly review · 2026-12-04"]
        for world in [laptop, desktop] {
            let made = try instances(world)
            #expect(made.map(\.title) == expected)
            #expect(made.first?.logged == 35 * 60)
            #expect(await world.output("task", "list").out.contains("35m / 1h"))
        }
        let periods = server.contents(TestWorld.syncCalendarURL).values.map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.contains("X-FOCUS-PERIOD:2026-11-23") }
        #expect(periods.count == 1, "one instance of this week's period on the server")
    }

    @Test func instancesMadeOnBothMachinesBeforeEitherSyncedThemAreOne() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server), desktop = try machine(server)
        #expect(await laptop.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week") == 0)
        #expect(await laptop.run("sync") == 0)
        #expect(await desktop.run("sync") == 0)
        // A week later, both make the new week's instances before syncing.
        for world in [laptop, desktop] {
            world.now = TestWorld.instant("2026-12-02T09:00:00Z")
            #expect(await world.run("plan") == 0)
        }
        #expect(await desktop.run("log", "add", "Admin/Weekly review", "--start", "2026-12-02 08:00", "--duration", "10m") == 0)
        for world in [desktop, laptop, desktop] { #expect(await world.run("sync") == 0, "\(world.console.stderr)") }
        for world in [laptop, desktop] {
            let made = try instances(world)
            #expect(made.map(\.title) == ["Weekly review · 2026-11-29", "Weekly review · 2026-12-06", "Weekly review · 2026-12-13"])
            #expect(made.map(\.logged) == [0, 600, 0])
        }
    }

    /// Another app's copies of this week's instance (new UIDs and titles, focus's X- properties
    /// copied along, as to-do apps copy unknown properties) are that app's to-dos: plain work
    /// here, and neither they nor focus's instance is deleted (issue #39: the copies took the
    /// period's place in turn, and a sync deleted focus's instance and most of the copies).
    @Test func anotherAppsCopiesOfAnInstanceDeleteNothing() async throws {
        let server = FakeCalDAVServer()
        let laptop = try machine(server)
        #expect(await laptop.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "week", "--on", "fri") == 0)
        #expect(await laptop.run("sync") == 0, "\(laptop.console.stderr)")
        let calendar = TestWorld.syncCalendarURL
        let (url, data) = try #require(server.contents(calendar).first { String(decoding: $0.value, as: UTF8.self).contains("X-FOCUS-PERIOD:2026-11-23") })
        let original = String(decoding: data, as: UTF8.self)
        let uidLine = try #require(original.split(separator: "\r\n").first { $0.hasPrefix("UID:") })
        let titleLine = try #require(original.split(separator: "\r\n").first { $0.hasPrefix("SUMMARY:") })
        let copies = 6
        for n in 0..<copies {
            server.store(calendar + "copy-\(n).ics", original.replacingOccurrences(of: String(uidLine), with: "UID:copy-\(n)@other.example")
                .replacingOccurrences(of: String(titleLine), with: "SUMMARY:Copy \(n)"))
        }
        for _ in 0..<3 { #expect(await laptop.run("sync") == 0, "\(laptop.console.stderr)") }
        let held = server.contents(calendar)
        #expect(held[url] != nil, "focus's instance is still on the server")
        #expect((0..<copies).allSatisfy { held[calendar + "copy-\($0).ics"] != nil }, "every copy is still on the server")
        #expect(try instances(laptop).map(\.title) == ["Weekly review · 2026-11-27", "Weekly review · 2026-12-04"])
        let list = await laptop.output("task", "list").out
        #expect((0..<copies).allSatisfy { list.contains("Copy \($0)") }, "\(list)")
    }
}
