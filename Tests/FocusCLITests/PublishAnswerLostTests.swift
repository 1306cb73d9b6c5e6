import FocusCLI
import ArgumentParser
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// A publication's new event (`If-None-Match: *`) that finds its address taken (412), through an
/// in-memory CalDAV server (README, "Your real calendar"). Tuesday 24 November 2026, 23:00 in
/// Berlin: the plan's first free time is Wednesday 08:00 (07:00 UTC).
@Suite struct PublishAnswerLostTests {
    /// Twelve blocks: the send window is wider than one by the last few (`SendWindow`), so the
    /// lost answer comes while another write is in flight and the create is sent again.
    private func twelveTasks(_ world: TestWorld) async {
        for n in 1...12 {
            #expect(await world.run("task", "add", "Thesis/Part \(n)", "--estimate", "25m", "--due", "2026-11-27") == 0)
        }
    }

    @Test func aCreateStoredThereWhoseAnswerWasLostIsFollowedAndWrittenOverInTheVersionThere() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        await twelveTasks(laptop)
        // The server keeps the event in its own words (one property more) and the answer is lost.
        let lossy = AnswerLost(server: server) { $0.replacingOccurrences(of: "END:VEVENT", with: "X-SERVER-NOTE:kept\r\nEND:VEVENT") }
        laptop.caldav = lossy

        let publish = await laptop.output("calendar", "publish", "Focus plan")
        #expect(publish.code == 0 && !publish.err.contains("warning"), "\(publish.err)")
        #expect(publish.out.contains("Published 12 planned blocks to Focus plan (12 new)."), "\(publish.out)")
        let url = try #require(lossy.lost)
        let text = try #require(planTexts(server)[url])
        #expect(!text.contains("X-SERVER-NOTE"), "written over with what focus writes: \(text)")
        #expect(planTexts(server).count == 12)

        // Followed: its task done, its block goes from the calendar.
        let title = try #require(icsValue(text, "SUMMARY"))
        let done = await laptop.output("task", "done", title)
        #expect(done.code == 0 && !done.err.contains("warning"), "\(done.err)")
        #expect(done.err.contains("1 removed"), "\(done.err)")
        #expect(planTexts(server)[url] == nil && planTexts(server).count == 11)
    }

    @Test func aCreateSentAloneWhoseAnswerWasLostFailsThePublicationAndTheNextFollowsIt() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27") == 0)
        let lossy = AnswerLost(server: server, alone: true) { $0 }
        laptop.caldav = lossy
        let publish = await laptop.output("calendar", "publish", "Focus plan")
        #expect(publish.code == 69 && publish.err.contains("connection was reset"), "\(publish.err)")
        let url = try #require(lossy.lost)
        #expect(planTexts(server).count == 1)

        // The next publication finds it this focus's own, as focus writes it: followed, not
        // written again, no warning, no second copy; and a re-plan deletes it.
        let edit = await laptop.output("task", "edit", "Thesis/Draft", "--estimate", "50m")
        #expect(edit.code == 0 && !edit.err.contains("warning"), "\(edit.err)")
        #expect(edit.err.contains("Published 2 planned blocks to Focus plan (1 new)."), "\(edit.err)")
        #expect(planTexts(server).count == 2 && planTexts(server)[url] != nil)
        #expect(lossy.puts[url] == 1, "written once: \(lossy.puts)")
        let done = await laptop.output("task", "done", "Thesis/Draft")
        #expect(done.err.contains("(2 removed)") && !done.err.contains("warning"), "\(done.err)")
        #expect(planTexts(server).isEmpty)
    }

    @Test func anEventNotThisFocussAtANewBlocksAddressIsLeftWithAWarning() async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        let (url, first) = try #require(planTexts(server).min { $0.key < $1.key })
        let uid = try #require(icsValue(first, "UID"))
        #expect(await laptop.output("calendar", "publish", "Focus plan", "--stop").code == 0)
        #expect(planTexts(server).isEmpty)
        // Another app wrote an event of its own at that block's address, with its UID.
        let theirs = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:20261125T110000Z\r\nDTEND:20261125T120000Z\r\n"
            + "SUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        server.store(url, theirs)

        let publish = await laptop.output("calendar", "publish", "Focus plan")
        #expect(publish.err.contains("warning: 'Thesis/Draft' was not written: another event is at its place in the calendar"), "\(publish.err)")
        #expect(publish.out.contains("(1 new)"), "\(publish.out)")
        #expect(planTexts(server)[url] == theirs, "left as it is")
        #expect(planTexts(server).count == 2)
    }
}

/// A sync's new item (`If-None-Match: *`) stored there whose answer was lost: the write sent
/// again is refused (412), and the next round reads it back (README, "Two machines").
@Suite struct SyncAnswerLostTests {
    @Test func aNewItemStoredThereWhoseAnswerWasLostIsAgreedOnceWithoutAConflict() async throws {
        let server = FakeCalDAVServer()
        let laptop = try TestWorld.syncMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Chapter 2") == 0)
        for day in 1...12 {
            #expect(await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-\(day < 10 ? "0" : "")\(day) 09:00", "--duration", "25m") == 0)
        }
        let lossy = AnswerLost(server: server) { $0 }
        func sync() throws -> SyncEngine.Summary {
            let env = try laptop.environment(global: GlobalOptions.parse([]))
            let target = try #require(try laptop.database.syncTarget())
            return try SyncEngine(env: env.services, client: lossy, db: laptop.database).run(target, endpoint: TestWorld.syncEndpoint)
        }
        let first = try sync()
        #expect(lossy.lost != nil, "an answer was lost")
        #expect(first.conflicts == 0 && first.warnings.isEmpty && !first.unconverged, "\(first)")
        #expect(try laptop.database.syncConflicts(since: .distantPast).isEmpty)
        let items = server.contents(TestWorld.syncCalendarURL)
        #expect(items.count == 14, "\(items.keys.sorted())")
        // Agreed: nothing to send again, nothing to merge.
        let second = try sync()
        #expect(second.sent == 0 && second.received == 0 && second.conflicts == 0, "\(second)")
        #expect(server.contents(TestWorld.syncCalendarURL) == items)
    }
}

/// The in-memory server, where the first new event written while another write is in flight
/// (or, `alone`, the first at all) is stored (as `stored` makes its text) and its answer lost:
/// the connection fails.
private final class AnswerLost: FakeServerClient, @unchecked Sendable {
    let server: FakeCalDAVServer
    let alone: Bool
    let stored: @Sendable (String) -> String
    /// The address of the write whose answer was lost.
    var lost: String?
    /// How many PUTs went to each address.
    var puts: [String: Int] = [:]

    init(server: FakeCalDAVServer, alone: Bool = false, stored: @escaping @Sendable (String) -> String) {
        self.server = server
        self.alone = alone
        self.stored = stored
    }

    func writes(_ endpoint: CalDAVEndpoint) -> any RemoteWrites { Writes(owner: self, endpoint: endpoint) }

    private final class Writes: RemoteWrites {
        let owner: AnswerLost
        let endpoint: CalDAVEndpoint
        var waiting: [(write: RemoteWriteRequest, tag: Int)] = []
        init(owner: AnswerLost, endpoint: CalDAVEndpoint) {
            self.owner = owner
            self.endpoint = endpoint
        }
        var inFlight: Int { waiting.count }
        func start(_ write: RemoteWriteRequest, tag: Int) { waiting.append((write, tag)) }

        func next(waitingAtMost seconds: Double?) -> RemoteWriteCompletion? {
            guard !waiting.isEmpty else { return nil }
            let (write, tag) = waiting.removeFirst()
            if case let .put(url, _, _) = write { owner.puts[url, default: 0] += 1 }
            if owner.lost == nil, owner.alone || !waiting.isEmpty, case let .put(url, ics, nil) = write {
                owner.lost = url
                _ = try? owner.server.put(url, ics: Data(owner.stored(String(decoding: ics, as: UTF8.self)).utf8), ifMatch: nil, endpoint)
                return RemoteWriteCompletion(tag: tag, result: .failure(.unavailable("dav.example.org: the connection was reset.")))
            }
            do throws(FocusError) {
                switch write {
                case let .put(url, ics, ifMatch):
                    return RemoteWriteCompletion(tag: tag, result: .success(try owner.put(url, ics: ics, ifMatch: ifMatch, endpoint)))
                case let .delete(url, ifMatch):
                    return RemoteWriteCompletion(tag: tag, result: .success(try owner.delete(url, ifMatch: ifMatch, endpoint)))
                }
            } catch {
                return RemoteWriteCompletion(tag: tag, result: .failure(error))
            }
        }
    }
}
