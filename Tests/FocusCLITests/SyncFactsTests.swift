import FocusCLI
import FocusCore
import FocusRendering
import FocusServices
import FocusText
import FocusStorage
import FocusSystem
import FocusTestSupport
import Foundation
import Testing
import ArgumentParser

/// Issue #26's classes of lost or doubled work between two machines, against the in-memory
/// CalDAV server (with DAViCal's behaviours where they matter).
private let calendarURL = TestWorld.syncCalendarURL
private let endpoint = TestWorld.syncEndpoint

@discardableResult
private func sync(_ world: TestWorld, _ client: any CalDAVClient) throws -> SyncEngine.Summary {
    let env = try world.environment(global: GlobalOptions.parse([]))
    guard let target = try world.database.syncTarget() else { throw FocusError.usage("no target") }
    return try SyncEngine(env: env.services, client: client, db: world.database).run(target, endpoint: endpoint)
}

private func tasks(_ world: TestWorld) async -> String { await world.output("task", "list", "--all").out }
private func sessions(_ world: TestWorld) async -> [[String: Any]] {
    let out = await world.output("log", "--json", "--last", "60").out
    return (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
}
private func serverText(_ server: FakeCalDAVServer) -> [String] {
    server.contents(calendarURL).values.map { String(decoding: $0, as: UTF8.self) }
}

/// The one member of the sync calendar that is a `component` (VTODO, VEVENT) titled `summary`.
/// A session's VEVENT has its task's title as SUMMARY too, and the members come in no fixed
/// order, so a search by title alone finds either: more than one match fails here, every run.
private func member(_ server: FakeCalDAVServer, _ component: String, _ summary: String) throws -> (url: String, text: String) {
    let hits = server.contents(calendarURL).map { (url: $0.key, text: String(decoding: $0.value, as: UTF8.self)) }
        .filter { $0.text.contains("BEGIN:\(component)\r\n") && $0.text.contains("SUMMARY:\(summary)\r\n") }
    try #require(hits.count == 1, "\(component) \(summary): \(hits.map(\.text))")
    return hits[0]
}

/// A client that passes everything to the server, with a hook after each read of changes and
/// a way to answer a first read as an empty calendar (as it was read before the other machine
/// wrote) or to refuse every write.
private final class Meddling: FakeServerClient, @unchecked Sendable {
    let server: FakeCalDAVServer
    var firstReadEmpty = false
    var afterRead: (() -> Void)?
    var refuseWrites = false
    /// Writes still to refuse with a 412 (as a proxy or a busy server may), then pass on.
    var refuseNext = 0
    init(_ server: FakeCalDAVServer) { self.server = server }

    func changes(in c: String, since token: String?, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteChanges {
        if firstReadEmpty {
            firstReadEmpty = false
            return RemoteChanges(complete: true, changed: [], removed: [], token: nil)
        }
        let answer = try server.changes(in: c, since: token, e)
        afterRead?()
        afterRead = nil
        return answer
    }
    func put(_ url: String, ics: Data, ifMatch: String?, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        if refuseNext > 0 { refuseNext -= 1; return .changedOnServer }
        return refuseWrites ? .changedOnServer : try server.put(url, ics: ics, ifMatch: ifMatch, e)
    }
}

@Suite struct SyncFactsTests {
    /// Laptop 1 deletes `Code` while laptop 2, not yet told, records two hours in it: the task,
    /// the subtask and the two hours survive on both, and the sync says so.
    @Test func workRecordedWhereATaskWasDeletedElsewhereKeepsTheTaskOnBothMachines() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Code/Refactor parser") == 0)
        #expect(await one.run("log", "add", "Code/Refactor parser", "--start", "2026-11-23 09:00", "--duration", "25m") == 0)
        try sync(one, server)
        try sync(two, server)
        #expect(await one.run("task", "rm", "Code", "--force") == 0)
        try sync(one, server)
        #expect(await two.run("log", "add", "Code/Refactor parser", "--start", "2026-11-24 10:00", "--duration", "2h") == 0)
        let kept = try sync(two, server)
        #expect(kept.kept.contains("Code/Refactor parser") && kept.kept.contains("Code"), "\(kept)")
        let target = try #require(try two.database.syncTarget())
        #expect(SyncRenderer.lines(kept, calendar: target.name).map(\.line.string).contains { $0.contains("focus task rm Code --force") })
        try sync(one, server)
        for world in [one, two] {
            #expect(await tasks(world).contains("Refactor parser"))
            let logged = await sessions(world)
            #expect(logged.count == 1 && logged.first?["focused_seconds"] as? Int == 7200, "the 2 h survive; the 25 m seen by laptop 1 go")
        }
        #expect(await two.output("sync", "status").out.contains("deleted on another machine, kept"))
    }

    /// The other order: the session arrives at the machine that deleted its task.
    @Test func aTaskDeletedHereComesBackWhenWorkRecordedElsewhereArrives() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Code/Refactor parser") == 0)
        try sync(one, server)
        try sync(two, server)
        #expect(await two.run("log", "add", "Code/Refactor parser", "--start", "2026-11-24 10:00", "--duration", "2h") == 0)
        try sync(two, server)
        #expect(await one.run("task", "rm", "Code", "--force") == 0)
        let back = try sync(one, server)
        #expect(back.deletedThere == 0 && !back.kept.isEmpty)
        try sync(two, server)
        for world in [one, two] {
            #expect(await tasks(world).contains("Refactor parser"))
            #expect(await sessions(world).count == 1)
        }
    }

    /// The same with a subtask new to the deleting machine (seen in scripts/torture/torture's sync
    /// family): laptop 2 adds `Code/Tests` and records work in it, laptop 1 deletes `Code`. The
    /// read of changes lists the new subtask and its session but not `Code`, unchanged there:
    /// `Tests` must come back under `Code`, not as a task of its own that the session can never
    /// find (it was then skipped on laptop 1 at every sync).
    @Test func aSubtaskNewToTheMachineThatDeletedItsTaskComesBackWithItsWork() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Code/Refactor parser") == 0)
        try sync(one, server)
        try sync(two, server)
        // Laptop 1 reads past its own writes: `Code` is then no change to it.
        try sync(one, server)
        #expect(await two.run("task", "add", "Code/Tests") == 0)
        #expect(await two.run("log", "add", "Code/Tests", "--start", "2026-11-24 10:00", "--duration", "2h") == 0)
        try sync(two, server)
        #expect(await one.run("task", "rm", "Code", "--force") == 0)
        let back = try sync(one, server)
        #expect(back.kept == ["Code"], "\(back)")
        try sync(two, server)
        try sync(one, server)
        for world in [one, two] {
            let logged = await sessions(world)
            #expect(logged.count == 1 && logged.first?["task"] as? String == "Code" && logged.first?["subtask"] as? String == "Tests",
                    "\(logged)")
            let more = await world.output("log", "add", "Code/Tests", "--start", "2026-11-24 13:00", "--duration", "5m")
            #expect(more.code == 0, "Tests is a subtask of Code: \(more.err)")
        }
    }

    /// Seen in scripts/torture/torture's sync family: a write refused once with a 412 for an item the
    /// read had just listed (changed in another app) was written again with the entity tag
    /// agreed before, since a read from the round's token no longer listed it: refused in every
    /// round, every sync after said "did not converge". It is read again and merged instead.
    @Test func aWriteRefusedOnceForAnItemChangedThereIsMergedAgainAndConverges() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Code/Refactor parser") == 0)
        try sync(one, server)
        try sync(one, server)
        let (url, text) = try member(server, "VTODO", "Refactor parser")
        _ = try server.put(url, ics: Data(text.replacing("SUMMARY:Refactor parser", with: "SUMMARY:Parser").utf8), ifMatch: "*", endpoint)
        #expect(await one.run("task", "edit", "Code/Refactor parser", "--notes", "split the lexer") == 0)
        let flaky = Meddling(server)
        flaky.refuseNext = 1
        let summary = try sync(one, flaky)
        #expect(!summary.unconverged, "\(summary)")
        let merged = try member(server, "VTODO", "Parser").text
        #expect(merged.contains("split the lexer"), "both changes there: \(merged)")
        #expect(await tasks(one).contains("Parser"))
    }

    /// Seen in scripts/torture/torture's sync family: a phone adds `Tests` under `Code`, then deletes
    /// `Code` alone (its subtask stays, a to-do of its own there); laptop 1 had deleted `Code`
    /// too and takes `Tests` for a task, while laptop 2 records work in `Code` and so keeps it,
    /// with `Tests` under it. Both must end holding `Tests` as the same kind, or a session
    /// recorded in it on one is skipped on the other at every sync.
    @Test func aSubtaskLeftWithoutItsTaskIsTheSameKindOnBothMachines() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Code/Refactor parser") == 0)
        try sync(one, server)
        try sync(two, server)
        let code = try member(server, "VTODO", "Code")
        let codeUID = try #require(code.text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        server.store(calendarURL + "tests.ics", """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nUID:tests@phone.example\r\n\
            DTSTAMP:20261124T090000Z\r\nSUMMARY:Tests\r\nDUE;VALUE=DATE:20261218\r\nRELATED-TO:\(codeUID)\r\n\
            END:VTODO\r\nEND:VCALENDAR\r\n
            """)
        #expect(await one.run("task", "rm", "Code", "--force") == 0)
        server.remove(code.url)
        #expect(await two.run("log", "add", "Code/Refactor parser", "--start", "2026-11-24 10:00", "--duration", "2h") == 0)
        try sync(one, server)
        try sync(two, server)
        try sync(one, server)
        #expect(await one.run("log", "add", "Tests", "--start", "2026-11-24 13:00", "--duration", "25m") == 0)
        try sync(one, server)
        try sync(two, server)
        // The same tasks and subtasks (each machine numbers its own), `Tests` due on 18
        // December on both.
        let (listed, there) = (await tasks(one), await tasks(two))
        let unnumbered = { (text: String) in text.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ") }
        #expect(unnumbered(listed) == unnumbered(there), "\(listed)\n\(there)")
        #expect(listed.split(separator: "\n").contains { $0.hasPrefix("Tests #") } && listed.contains("due Fri 18 Dec"), "\(listed)")
        for world in [one, two] {
            let logged = await sessions(world)
            #expect(logged.contains { $0["task"] as? String == "Tests" && $0["subtask"] is NSNull }, "\(logged)")
            #expect(logged.count == 2, "\(logged)")
        }
    }

    /// The calendar deleted in another app and made again, empty: every item is sent again,
    /// nothing is deleted on either machine.
    @Test func aCalendarMadeAgainGetsEverythingAgainAndNothingIsDeleted() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis/Chapter 2") == 0)
        for day in 20...23 {
            #expect(await one.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-\(day) 09:00", "--duration", "25m") == 0)
        }
        try sync(one, server)
        try sync(two, server)
        server.remakeCalendar(calendarURL)
        let again = try sync(one, server)
        #expect(again.deletedHere == 0 && again.sent == 6, "\(again)")
        let other = try sync(two, server)
        #expect(other.deletedHere == 0 && other.deletedThere == 0)
        for world in [one, two] { #expect(await sessions(world).count == 4) }
        #expect(server.contents(calendarURL).count == 6)
    }

    /// Two machines' first syncs at the same moment, each with `Thesis` and the same session:
    /// one task and one session everywhere, and no renaming on later syncs.
    @Test func twoFirstSyncsAtTheSameMomentEndWithOneOfEachAndNoRenames() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        for world in [one, two] {
            #expect(await world.run("task", "add", "Thesis/Intro") == 0)
            #expect(await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        }
        try sync(one, server)
        let racing = Meddling(server)
        racing.firstReadEmpty = true
        try sync(two, racing)
        #expect(server.contents(calendarURL).count == 6, "both machines wrote their copies")
        var trace: [String] = []
        for _ in 0..<2 {
            for (name, world) in [("one", one), ("two", two)] {
                let s = try sync(world, server)
                trace.append("\(name): \(s.sent) sent \(s.received) received \(s.deletedHere) deletedHere \(s.deletedThere) deletedThere; server " + server.contents(calendarURL).keys.map { String($0.dropFirst(calendarURL.count).prefix(22)) }.sorted().joined(separator: ","))
            }
        }
        #expect(server.contents(calendarURL).count == 3, "\(trace.joined(separator: "\n"))")
        for world in [one, two] {
            let list = await tasks(world)
            #expect(!list.contains("(2)"), "\(list)")
            #expect(await sessions(world).count == 1)
        }
        let quiet = try sync(one, server)
        #expect(quiet.sent == 0 && quiet.received == 0)
        #expect(serverText(server).allSatisfy { !$0.contains("(2)") })
    }

    /// A member deleted by another app between the read and the write: DAViCal answers the
    /// `If-Match` with 412; after checking, the item is written again and the sync converges.
    @Test func a412ForAMemberDeletedMeanwhileIsWrittenAgain() async throws {
        let server = FakeCalDAVServer()
        server.answerMissingIfMatchWith412(true)
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis") == 0)
        try sync(one, server)
        #expect(await one.run("task", "edit", "Thesis", "--notes", "edited here") == 0)
        let client = Meddling(server)
        let url = try #require(server.contents(calendarURL).keys.first)
        client.afterRead = { server.remove(url) }
        let summary = try sync(one, client)
        #expect(!summary.unconverged && summary.sent == 1)
        #expect(serverText(server).contains { $0.contains("edited here") })
    }

    /// A server that keeps refusing: the sync says it did not converge, fails, and `doctor`
    /// names it.
    @Test func aSyncThatCannotConvergeFailsAndDoctorNamesIt() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis") == 0)
        let client = Meddling(server)
        client.refuseWrites = true
        let env = try one.environment(global: GlobalOptions.parse([]))
        let target = try #require(try one.database.syncTarget())
        let summary = try SyncEngine.sync(target, endpoint: endpoint, db: one.database, env: env.services, client: client)
        #expect(summary.unconverged)
        #expect(throws: FocusError.self) { try SyncCommand.say(summary, target: target, env: env) }
        let doctor = await one.output("doctor")
        #expect(doctor.out.contains("did not converge") || doctor.err.contains("did not converge"), "\(doctor)")
    }

    /// A laptop offline for a week, against a server that pruned its token and answers with
    /// every member as `200 OK` (DAViCal): deletions made meanwhile still arrive.
    @Test func aWeekOfflineAgainstAPrunedTokenStillReceivesDeletions() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Meeting prep") == 0)
        #expect(await one.run("task", "add", "Thesis") == 0)
        try sync(one, server)
        try sync(two, server)
        try sync(one, server)
        #expect(await one.run("task", "rm", "Meeting prep") == 0)
        try sync(one, server)
        server.pruneSyncTokens()
        two.now = two.now.addingTimeInterval(8 * 86_400)
        let later = try sync(two, server)
        #expect(later.deletedHere == 1)
        #expect(await !tasks(two).contains("Meeting prep"))
        #expect(await tasks(two).contains("Thesis"))
    }

    /// To-dos nested as tasks.org and Thunderbird make them, one its own parent: each becomes a
    /// task or a subtask of the nearest task, at the first sync.
    @Test func nestedAndSelfParentedToDosAttachToTheNearestTask() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        func todo(_ uid: String, _ title: String, parent: String? = nil) {
            let related = parent.map { "RELATED-TO:\($0)\r\n" } ?? ""
            server.store(calendarURL + "\(uid).ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:\(title)\r\n\(related)END:VTODO\r\nEND:VCALENDAR\r\n")
        }
        todo("p@tasks.org", "Project")
        todo("s@tasks.org", "Step", parent: "p@tasks.org")
        todo("d@tasks.org", "Detail", parent: "s@tasks.org")
        todo("l@tasks.org", "Loop", parent: "l@tasks.org")
        todo("a@tasks.org", "Ping", parent: "b@tasks.org")
        todo("b@tasks.org", "Pong", parent: "a@tasks.org")
        let first = try sync(one, server)
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        let list = await one.output("task", "list", "--all", "--json").out
        for name in ["Project", "Step", "Detail", "Loop", "Ping", "Pong"] { #expect(list.contains("\"\(name)\"")) }
        #expect(try sync(one, server).received == 0, "nothing read again")
    }

    /// Two to-dos "Buy milk" from another app: told apart here, never renamed there.
    @Test func titlesThatCollideAreToldApartOnlyHere() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        for uid in ["m1@phone", "m2@phone"] {
            server.store(calendarURL + "\(uid).ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        }
        try sync(one, server)
        #expect(await tasks(one).contains("Buy milk (2)"))
        #expect(await one.run("task", "add", "Something else") == 0)
        try sync(one, server)
        try sync(one, server)
        #expect(serverText(server).filter { $0.contains("SUMMARY:Buy milk\r\n") }.count == 2, "\(serverText(server))")
        #expect(await one.output("sync", "status").out.contains("Nothing waits to be sent."))
    }

    /// A due date that is a date is written as one (`DUE;VALUE=DATE`), so a to-do app shows that
    /// day; a date another app wrote stays a date when focus writes the to-do back.
    @Test func datesStayDatesInTheCalendar() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis/Intro", "--due", "2026-12-01") == 0)
        try sync(one, server)
        #expect(serverText(server).contains { $0.contains("DUE;VALUE=DATE:20261201\r\n") }, "\(serverText(server))")
        let uid = try #require(try member(server, "VTODO", "Thesis").text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4))
        server.store(calendarURL + "call.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:call@phone\r\nSUMMARY:Call\r\nRELATED-TO:\(uid)\r\nDUE;VALUE=DATE:20261210\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        try sync(one, server)
        #expect(await one.run("task", "edit", "Thesis/Call", "--notes", "edited here") == 0)
        try sync(one, server)
        let call = String(decoding: try #require(server.contents(calendarURL)[calendarURL + "call.ics"]), as: UTF8.self)
        #expect(call.contains("edited here") && call.contains("DUE;VALUE=DATE:20261210\r\n"), "\(call)")
    }

    /// A task dragged under another task in a to-do app becomes its subtask, with its sessions;
    /// no ghost of the task stays behind.
    @Test func aToDoWhoseKindChangedMovesWithItsSessions() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Thesis/Intro") == 0)
        #expect(await one.run("task", "add", "Errand") == 0)
        #expect(await one.run("log", "add", "Errand", "--start", "2026-11-24 09:00", "--duration", "25m") == 0)
        try sync(one, server)
        // The to-do Errand, not its session's VEVENT (SUMMARY:Errand too).
        let thesisUID = try #require(try member(server, "VTODO", "Thesis").text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4))
        let errand = try member(server, "VTODO", "Errand")
        let dragged = errand.text.replacingOccurrences(of: "X-FOCUS-KIND:task\r\n", with: "RELATED-TO:\(thesisUID)\r\n")
            .replacingOccurrences(of: "X-FOCUS-MODIFIED:", with: "X-FOCUS-OLD:")
        server.store(errand.url, dragged)
        try sync(one, server)
        let list = await one.output("task", "list", "--all", "--json").out
        #expect(!list.contains("\"title\": \"Errand\", \"notes\""), "no task Errand left: \(list)")
        let logged = await sessions(one)
        #expect(logged.count == 1 && logged.first?["task"] as? String == "Thesis" && logged.first?["subtask"] as? String == "Errand", "\(logged)")
    }

    /// The same subtask made offline on both machines: the one made later wins each field that
    /// differs (as the README says), and `sync status` shows the values as focus shows them.
    @Test func theSameSubtaskMadeOnBothKeepsTheLaterAndSaysSoInFocusTerms() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        // Compared as text on a tie, "7200" is larger than "32400": only the later edit keeps 9h.
        #expect(await one.run("task", "add", "Essay/Draft", "--estimate", "2h") == 0)
        two.now = two.now.addingTimeInterval(3600)
        #expect(await two.run("task", "add", "Essay/Draft", "--estimate", "9h") == 0)
        try sync(one, server)
        try sync(two, server)
        try sync(one, server)
        for world in [one, two] {
            let list = await world.output("task", "list", "--all", "--json").out
            #expect(list.contains("\"estimate_seconds\": 32400"), "\(list)")
        }
        let status = await two.output("sync", "status").out
        #expect(status.contains("estimate: kept 9h, other 2h"), "\(status)")
    }
}
