import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusSQLite
import FocusTestSupport
import Foundation
import Testing

/// An item a sync reads but cannot apply yet (README, "Two machines": it never holds back the
/// sync) is read again by every later sync, though the server reports its change only once:
/// it arrives as soon as it can. Said once; `sync status` lists it meanwhile.
@Suite struct SyncRetryTests {
    @Test func anInstanceThatArrivesBeforeItsSeriesIsAppliedWhenTheSeriesComes() async throws {
        let server = FakeCalDAVServer()
        let one = try TestWorld.syncMachine(server)
        #expect(await one.run("task", "add", "Chores/Dishes") == 0)
        try one.syncRound(server)
        let calendar = TestWorld.syncCalendarURL
        let task = try #require(server.contents(calendar).values.map { String(decoding: $0, as: UTF8.self) }
            .first { $0.contains("SUMMARY:Chores\r\n") }?.split(separator: "\r\n").first { $0.hasPrefix("UID:") }?.dropFirst(4))
        let stamp = Date(timeIntervalSince1970: 1_795_900_000)
        let seriesUID = "focus-subtask-00000000000000000000000000000abc@focus"
        var series = SyncedSubtask(uid: seriesUID, taskUID: String(task), title: "Water plants", notes: nil, estimateSeconds: 900,
                                   startDate: nil, due: nil, spanSeconds: nil, earliestMinutes: nil, done: false, modified: 1_795_900_000_000)
        series.every = "week"
        var instance = SyncedSubtask(uid: SyncIdentity.instanceUID(seriesUID: seriesUID, periodStart: LocalDate(year: 2026, month: 11, day: 23)),
                                     taskUID: String(task), title: "Water plants · 2026-11-29", notes: nil, estimateSeconds: 900, startDate: nil,
                                     due: nil, spanSeconds: nil, earliestMinutes: nil, done: false, modified: 1_795_900_000_000)
        instance.seriesUID = seriesUID
        instance.periodStart = "2026-11-23"
        // Another machine's instance is there before its series (written by two writers at once).
        server.store(Publication.resourceURL(calendar: calendar, uid: instance.uid), SyncCodec.encode(.subtask(instance), stamp: stamp))

        let first = try one.syncRound(server)
        #expect(first.warnings.contains { $0.contains("is an instance of recurring work this machine does not have") }, "\(first)")
        let second = try one.syncRound(server)
        #expect(second.warnings.isEmpty, "said once: \(second)")
        let status = await one.output("sync", "status").out
        #expect(status.contains("'Water plants · 2026-11-29' is an instance of recurring work this machine does not have"), "\(status)")

        server.store(Publication.resourceURL(calendar: calendar, uid: seriesUID), SyncCodec.encode(.subtask(series), stamp: stamp))
        let third = try one.syncRound(server)
        #expect(third.received == 2 && third.warnings.isEmpty, "\(third)")
        // The instance is here, of its series, under the name it arrived with.
        let held = try one.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM subtask i JOIN subtask s ON s.id = i.seriesId WHERE i.syncUid = ? AND s.syncUid = ?",
                             arguments: [instance.uid, seriesUID])
        }
        #expect(held == 1)
        #expect(try one.database.syncRetries().isEmpty)
    }
}
