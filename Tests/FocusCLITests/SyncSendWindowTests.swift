import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing
import ArgumentParser

/// A first sync sends several writes at once where the server keeps up, and one at a time where
/// it does not (README, "Your real calendar"), against an in-memory server that holds each write
/// for a while: what the server saw, never how long it took.
@Suite struct SyncSendWindowTests {
    /// A machine with a task, its subtask and `sessions` sessions: `sessions + 2` items to send.
    private func machine(_ server: FakeCalDAVServer, sessions: Int) async throws -> TestWorld {
        let world = try TestWorld.syncMachine(server)
        #expect(await world.run("task", "add", "Thesis/Chapter 2") == 0)
        for i in 0..<sessions {
            let start = "2026-11-\(i % 20 < 9 ? "0" : "")\(i % 20 + 1) \(8 + i / 20):00"
            #expect(await world.run("log", "add", "Thesis/Chapter 2", "--start", start, "--duration", "25m") == 0)
        }
        return world
    }

    private func sync(_ world: TestWorld, _ server: FakeCalDAVServer) throws -> SyncEngine.Summary {
        let env = try world.environment(global: GlobalOptions.parse([]))
        guard let target = try world.database.syncTarget() else { throw FocusError.usage("no target") }
        return try SyncEngine(env: env.services, client: server, db: world.database).run(target, endpoint: TestWorld.syncEndpoint)
    }

    @Test func aServerThatTakesWritesTogetherGetsSeveralAtOnceAndEachItemOnce() async throws {
        let server = FakeCalDAVServer()
        server.holdWrites(0.03)
        let laptop = try await machine(server, sessions: 60)
        let summary = try sync(laptop, server)
        #expect(summary.sent == 62)
        #expect(server.mostInFlight > 1)
        #expect(server.writtenPerURL.count == 62 && server.writtenPerURL.values.allSatisfy { $0 == 1 })
        #expect(server.contents(TestWorld.syncCalendarURL).count == 62)
        // The second machine reads one history back.
        let desktop = try TestWorld.syncMachine(server)
        #expect(try sync(desktop, server).received == 62)
        #expect(try sync(laptop, server).sent == 0)
    }

    @Test func aServerThatTakesOneWriteAtATimeGetsOneOrTwo() async throws {
        let server = FakeCalDAVServer()
        server.holdWrites(0.02, oneAtATime: true)
        let laptop = try await machine(server, sessions: 60)
        #expect(try sync(laptop, server).sent == 62)
        let arrivals = server.inFlightAtArrival
        #expect(arrivals.count == 62)
        #expect(arrivals.suffix(20).allSatisfy { $0 <= 2 }, "\(arrivals)")
        #expect(server.writtenPerURL.count == 62 && server.writtenPerURL.values.allSatisfy { $0 == 1 })
    }

    @Test func aServerThatAsksToWaitGetsFewerAtOnceAndTheWriteAgain() async throws {
        let server = FakeCalDAVServer()
        server.holdWrites(0.03)
        server.throttlePut(30, retryAfter: "1")
        let laptop = try await machine(server, sessions: 60)
        #expect(try sync(laptop, server).sent == 62)
        let arrivals = server.inFlightAtArrival
        #expect(arrivals.count == 63, "the write pushed back is sent again")
        // Until the 503 was read, up to seven more may have started; after its wait, half as
        // many at once as at the widest before (the server sees fewer than were sent at once:
        // some end before the last of a batch arrives), for a stretch of at least 16 answers
        // before the window may widen again.
        let seen = 30 + SendWindow.widest
        let before = arrivals.prefix(seen).max() ?? 0
        #expect(before > 1)
        #expect(arrivals.dropFirst(seen).prefix(16).allSatisfy { $0 < before }, "\(arrivals)")
        #expect(server.writtenPerURL.count == 62 && server.writtenPerURL.values.allSatisfy { $0 == 1 })
    }

    /// A `Retry-After` date far past year 9999 (issue #39: an overflow trap crashed sync and
    /// the daemon) is no `Retry-After`: the write is sent again after the usual wait.
    @Test func aRetryAfterDateBeyondYear9999IsNoRetryAfterAndTheSyncEnds() async throws {
        let server = FakeCalDAVServer()
        server.throttlePut(3, retryAfter: "Sun, 06 Nov 999999999999 08:49:37 GMT")
        let laptop = try await machine(server, sessions: 4)
        #expect(try sync(laptop, server).sent == 6)
        #expect(server.contents(TestWorld.syncCalendarURL).count == 6)
    }

    @Test func aServerThatFailsAWriteSentAloneEndsTheSyncAndTheNextSendsTheRest() async throws {
        let server = FakeCalDAVServer()
        server.holdWrites(0.01, oneAtATime: true)
        let laptop = try await machine(server, sessions: 10)
        server.failAfter(4)
        #expect(throws: FocusError.self) { try sync(laptop, server) }
        server.failAfter(nil)
        let summary = try sync(laptop, server)
        #expect(summary.sent > 0)
        #expect(server.contents(TestWorld.syncCalendarURL).count == 12)
        #expect(server.writtenPerURL.values.allSatisfy { $0 == 1 })
    }
}
