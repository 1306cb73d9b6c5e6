import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Issue #39: what `sync status` lists as waiting is sent by the next `sync`, whatever made it
/// wait; the quick path ("nothing changed": nothing new there, the tables as the last sync
/// left them) is taken only when nothing waits. Here a sync decides a deletion the server did
/// not report: another app deleted a task's to-do but not its subtask's, and the subtask goes
/// with its task here.
@Suite struct SyncQuickPathTests {
    private func todo(_ server: FakeCalDAVServer, _ summary: String) throws -> String {
        let hits = server.contents(TestWorld.syncCalendarURL).filter {
            let text = String(decoding: $0.value, as: UTF8.self)
            return text.contains("BEGIN:VTODO\r\n") && text.contains("SUMMARY:\(summary)\r\n")
        }
        try #require(hits.count == 1)
        return try #require(hits.first).key
    }

    @Test func aDeletionDecidedByASyncIsSentAndNothingWaits() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server), two = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Book/Intro") == 0)
        #expect(await one.run("task", "add", "Book/Outro") == 0)
        try one.syncRound(server)
        try two.syncRound(server)
        server.remove(try todo(server, "Book"))

        try one.syncRound(server)
        let status = await one.output("sync", "status").out
        #expect(status.contains("Nothing waits to be sent."), "\(status)")
        let pending = try one.database.pendingSyncCount()
        #expect(pending.changed + pending.added + pending.removed == 0, "\(pending)")
        // What this machine decided is there too: the other machine holds what it holds.
        try two.syncRound(server)
        let tasks = [await one.output("task", "list", "--all").out, await two.output("task", "list", "--all").out]
        #expect(tasks[0] == tasks[1], "\(tasks)")
        #expect(await two.output("sync", "status").out.contains("Nothing waits to be sent."))
        #expect(try one.syncRound(server).sent == 0)
    }
}
