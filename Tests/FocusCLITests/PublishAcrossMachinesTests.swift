import FocusCLI
import FocusCore
import FocusStorage
import FocusSystem
import FocusTestSupport
import Foundation
import Testing

private func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

private func planStarts(_ world: TestWorld) async -> [String] {
    let r = await world.output("plan", "--json")
    let blocks = (json(r.out) as? [String: Any])?["blocks"] as? [[String: Any]] ?? []
    return blocks.compactMap { $0["start"] as? String }
}

/// `calendar publish` through an in-memory CalDAV server (README, "Your real calendar"): one
/// calendar, one copy of each block, whatever other machines and apps do to it (machines made by
/// `publishingMachine`).
@Suite struct PublishAcrossMachinesTests {
    @Test func aSecondMachineRefusesACalendarThatHoldsAnotherMachinesPlanAndWritesNothing() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server), desktop = try publishingMachine(server)
        // Local ids collide: the desktop's #1 is other work than the laptop's #1.
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await laptop.run("task", "add", "Report/Figures", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await desktop.run("task", "add", "Report/Figures", "--estimate", "50m", "--due", "2026-11-27") == 0)

        let first = await laptop.output("calendar", "publish", "Focus plan")
        #expect(first.code == 0, "\(first.err)")
        #expect(first.out.contains("Published 2 planned blocks to Focus plan (2 new)."), "\(first.out)")
        let before = planTexts(server)
        #expect(before.count == 2)
        #expect(before.values.allSatisfy { icsValue($0, "X-FOCUS-PUBLISHER") != nil && icsValue($0, "UID")?.hasPrefix("focus-block-") == true })

        let second = await desktop.output("calendar", "publish", "Focus plan")
        #expect(second.code == 69)
        #expect(second.err.contains("holds the plan that focus on") && second.err.contains("one calendar holds one plan"), "\(second.err)")
        #expect(planTexts(server) == before, "the second machine wrote nothing")
        // It does not publish there afterwards, and cannot stop what it never published.
        #expect(await desktop.run("task", "edit", "Report/Figures", "--estimate", "75m") == 0)
        #expect(planTexts(server) == before)
        let stop = await desktop.output("calendar", "publish", "Focus plan", "--stop")
        #expect(stop.code == 64 && planTexts(server) == before, "\(stop.err)")

        let again = await laptop.output("calendar", "publish", "Focus plan")
        #expect(again.out.contains("(nothing changed)") && planTexts(server) == before, "\(again.out)")
    }

    /// Two machines that were both publishing into one calendar (both began before this rule,
    /// or at the same moment): at their next changes exactly one plan stays, never both.
    @Test func twoMachinesAlreadyPublishingEndWithOnePlan() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server), desktop = try publishingMachine(server)
        for world in [laptop, desktop] {
            #expect(await world.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        }
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        _ = try desktop.database.savePublishTarget(accountID: try desktop.database.accounts()[0].id, url: publishPlanURL, name: "Focus plan", sessions: false)
        for world in [desktop, laptop, desktop, laptop] {
            #expect(await world.run("task", "edit", "Thesis/Draft", "--notes", "round \(world === laptop ? "l" : "d")") == 0)
        }
        let publishers = Set(planTexts(server).values.compactMap { icsValue($0, "X-FOCUS-PUBLISHER") })
        #expect(publishers.count == 1 && planTexts(server).count == 2, "\(planTexts(server).keys.sorted())")
        let gaveWay = [laptop, desktop].filter { $0.console.stderr.contains("This machine stopped publishing there") }
        #expect(gaveWay.count == 1, "exactly one machine gave way")
    }

    @Test func stopDeletesOnlyThisMachinesEvents() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        #expect(planTexts(server).count == 2)
        // Another machine's focus wrote over one of them (an older focus did this).
        let (url, text) = planTexts(server).sorted { $0.key < $1.key }[0]
        server.store(url, text.replacingOccurrences(of: icsValue(text, "X-FOCUS-PUBLISHER")!, with: "0123456789abcdef"))
        // And someone's own event.
        server.store(publishPlanURL + "lunch.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:lunch@example.org\r\nDTSTART:20261125T110000Z\r\nDTEND:20261125T120000Z\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")

        let stop = await laptop.output("calendar", "publish", "Focus plan", "--stop")
        #expect(stop.code == 0, "\(stop.err)")
        #expect(stop.out.contains("1 block still ahead deleted there"), "\(stop.out)")
        #expect(Set(planTexts(server).keys) == [url, publishPlanURL + "lunch.ics"])
    }

    /// Issue #40: a block ahead deleted in another app means "not in this slot" (it used to be
    /// written again in the very slot the person deleted): the work is planned elsewhere, said
    /// once, and the slot stays free of it; a server answering 412 for missing members changes
    /// nothing to that.
    @Test func aBlockDeletedInAnotherAppIsPlannedElsewhereNotWrittenAgain() async throws {
        let server = FakeCalDAVServer()
        server.answerMissingIfMatchWith412(true)
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        let (url, text) = try #require(planTexts(server).min { $0.key < $1.key })
        let start = try #require(icsValue(text, "DTSTART"))
        server.remove(url)

        let again = await laptop.output("calendar", "publish", "Focus plan")
        #expect(again.code == 0 && !again.err.contains("warning"), "\(again.err)")
        #expect(again.err.contains("Thesis/Draft: not at ") && again.err.contains("(deleted in the calendar); planned "), "\(again.err)")
        #expect(!again.out.contains("written again"), "\(again.out)")
        #expect(planTexts(server).count == 2)
        #expect(planTexts(server).values.allSatisfy { icsValue($0, "DTSTART") != start }, "the deleted slot stays free of it")
        let quiet = await laptop.output("plan")
        #expect(!quiet.err.contains("deleted in the calendar"), "said once: \(quiet.err)")
    }

    /// Deleted between the look at the calendar and the write: the If-Match write is answered
    /// 412, the listing shows the member gone, and it is written again.
    @Test func aWriteAnswered412ForAMemberDeletedMeanwhileWritesItAgain() async throws {
        let server = FakeCalDAVServer()
        server.answerMissingIfMatchWith412(true)
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        laptop.caldav = DeletedMeanwhile(server: server)
        let edit = await laptop.output("task", "edit", "Thesis/Draft", "--notes", "Outline first")
        #expect(edit.code == 0 && !edit.err.contains("warning"), "\(edit.err)")
        #expect(edit.err.contains("(1 written again)"), "\(edit.err)")
        #expect(planTexts(server).values.filter { $0.contains("Outline first") }.count == 1)
    }

    @Test func aCalendarDeletedInAnotherAppIsMadeAgainWithoutWarnings() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        server.deleteCalendar(publishPlanURL)
        #expect(planTexts(server).isEmpty)

        let plan = await laptop.output("plan")
        #expect(plan.code == 0)
        #expect(!plan.err.contains("warning"), "\(plan.err)")
        #expect(plan.err.contains("was deleted there: made it again"), "\(plan.err)")
        #expect(plan.out.contains("Published 2 planned blocks to Focus plan (2 new)."), "\(plan.out)")
        #expect(planTexts(server).count == 2)
    }

    @Test func aBlockDraggedInTheCalendarAppIsPinnedThereUntilUnpinned() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        #expect(await planStarts(laptop) == ["2026-11-25T07:00:00Z", "2026-11-25T07:30:00Z"])
        // The person drags the first block to 14:00 (13:00 UTC), as a calendar app writes it.
        let (url, text) = planTexts(server).first { $0.value.contains("DTSTART:20261125T070000Z") }!
        let moved = text.replacingOccurrences(of: "DTSTART:20261125T070000Z", with: "DTSTART;TZID=Europe/Berlin:20261125T140000")
            .replacingOccurrences(of: "DTEND:20261125T072500Z", with: "DTEND;TZID=Europe/Berlin:20261125T142500")
            .replacingOccurrences(of: "END:VEVENT", with: "SEQUENCE:1\r\nEND:VEVENT")
        server.store(url, moved)

        let plan = await laptop.output("plan")
        #expect(plan.err.contains("Thesis/Draft is pinned at") && plan.err.contains("focus plan --unpin"), "\(plan.err)")
        #expect(await planStarts(laptop) == ["2026-11-25T07:00:00Z", "2026-11-25T13:00:00Z"], "the rest planned around it, nothing more")
        #expect(planTexts(server)[url] == moved, "the person's event is not written over")
        let listed = (json(await laptop.output("plan", "--json").out) as? [String: Any])?["blocks"] as? [[String: Any]] ?? []
        #expect(listed.filter { $0["pinned"] as? Bool == true }.compactMap { $0["start"] as? String } == ["2026-11-25T13:00:00Z"])
        #expect(await laptop.output("plan").out.contains("Thesis/Draft  planned (pinned)"))
        #expect(planTexts(server).count == 2)
        // Still pinned after other changes.
        #expect(await laptop.run("task", "add", "Report/Figures", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await planStarts(laptop).contains("2026-11-25T13:00:00Z"))

        let unpin = await laptop.output("plan", "--unpin", "Thesis")
        #expect(unpin.code == 0 && unpin.err.contains("unpinned 1 block"), "\(unpin.err)")
        #expect(!(await planStarts(laptop)).contains("2026-11-25T13:00:00Z"))
        #expect(!planTexts(server).values.contains { $0.contains("20261125T140000") }, "the event follows the plan again")
        #expect(planTexts(server).count == 3)
    }

    @Test func everyCommandThatChangesThePlanPublishesItAndOfflineItWaits() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        #expect(await laptop.run("task", "add", "Report/Figures", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(planTexts(server).count == 2, "task add published")
        #expect(await laptop.run("task", "done", "Report/Figures") == 0)
        #expect(planTexts(server).count == 1, "task done published")
        #expect(await laptop.run("log", "add", "Thesis/Draft", "--start", "2026-11-24 20:00", "--duration", "25m") == 0)
        #expect(planTexts(server).isEmpty, "log add published: the work is done")

        // Offline: the command succeeds, says the plan waits, and the next one publishes it.
        server.failAfter(0)
        let offline = await laptop.output("task", "add", "Essay/Outline", "--estimate", "25m", "--due", "2026-11-27")
        #expect(offline.code == 0)
        #expect(offline.err.contains("will be when the server answers"), "\(offline.err)")
        // `doctor` names the publication that waits, as it names a failed sync.
        let waiting = await laptop.output("doctor").out
        #expect(waiting.contains("✗ the plan waits to be published to 'Focus plan'"), "\(waiting)")
        server.failAfter(nil)
        #expect(await laptop.run("config", "set", "day_end", "21:00") == 0)
        #expect(planTexts(server).count == 1, "\(laptop.console.stderr)")
        #expect(!(await laptop.output("doctor").out.contains("waits to be published")), "published: nothing waits")
        // A change that leaves the plan as it is costs no request.
        let requests = server.requests
        #expect(await laptop.run("task", "add", "Someday") == 0)
        #expect(server.requests == requests)
    }

    @Test func blocksAndSessionsHaveTheirSyncNamesOnEveryMachine() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server), desktop = try publishingMachine(server)
        // The desktop had other work first: its local ids differ from the laptop's.
        #expect(await desktop.run("task", "add", "Other/Work") == 0)
        #expect(await desktop.run("task", "rm", "Other", "--force") == 0)
        for world in [laptop, desktop] {
            #expect(await world.run("task", "add", "Thesis/Draft", "--estimate", "75m", "--due", "2026-11-27") == 0)
            #expect(await world.run("log", "add", "Thesis/Draft", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        }
        func uids(_ world: TestWorld, _ arguments: String...) async -> [String] {
            await world.output(arguments).out.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
        }
        #expect(await uids(laptop, "calendar", "export", "-") != uids(desktop, "calendar", "export", "-"), "not synced: local names")
        // As a sync leaves them: the same names on both machines.
        for world in [laptop, desktop] {
            var n: UInt64 = 0
            try world.database.assignSyncUIDs(random: { n += 1; return n })
        }
        let blocks = await uids(laptop, "calendar", "export", "-")
        #expect(blocks.count == 2 && blocks.allSatisfy { $0.hasPrefix("UID:focus-block-") }, "\(blocks)")
        #expect(await uids(desktop, "calendar", "export", "-") == blocks)
        let sessions = await uids(laptop, "export", "--format", "ics")
        #expect(sessions.count == 1 && sessions[0].hasPrefix("UID:session-"))
        #expect(await uids(desktop, "export", "--format", "ics") == sessions)
    }
}

/// The in-memory server, where another app deletes the member focus is about to replace (once).
private final class DeletedMeanwhile: FakeServerClient, @unchecked Sendable {
    let server: FakeCalDAVServer
    private var done = false
    init(server: FakeCalDAVServer) { self.server = server }

    func put(_ url: String, ics: Data, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        if ifMatch != nil, !done {
            done = true
            server.remove(url)
        }
        return try server.put(url, ics: ics, ifMatch: ifMatch, endpoint)
    }
}
