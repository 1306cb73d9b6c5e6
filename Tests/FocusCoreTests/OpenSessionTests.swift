import FocusCore
import FocusCoreTestSupport
import Foundation
import Testing

/// Open sessions (README, "Open sessions") in the totals, the interchange formats and sync.
@Suite struct OpenSessionCoreTests {
    typealias F = StatsFixtures

    @Test func anOpenSessionCountsInEveryTotalAndInNoCompletionRate() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 25),
            F.nov(16, 10, 0, minutes: 25, focused: 600, status: .interrupted),
            F.nov(17, 9, 0, minutes: 90, planned: 0, status: .open),
        ])
        #expect(r.summary.focusedSeconds == 1500 + 600 + 5400)
        #expect(F.seconds(r)[1] == 5400, "the open session's day")
        #expect(r.totals.completed == 1 && r.totals.interrupted == 1)
        #expect(r.summary.completionPercent == 50, "the open session is neither completed nor interrupted")
        #expect(r.tasks.first?.focusedSeconds == 7500)
        #expect(r.tasks.first.map { $0.completed + $0.interrupted } == 2)
    }

    @Test func theOpenStatusReadsBackFromJSONLinesAndCSVWithNoPlannedLength() throws {
        let open = SessionRecord(task: "Thesis", subtask: "Chapter 2", start: 1_795_161_600, end: 1_795_165_200, status: .open,
                                 focusedSeconds: 3300, plannedSeconds: 0)
        let jsonl = InterchangeWriter(format: .jsonl)
        #expect(jsonl.line(open).contains(#""status": "open", "focused_seconds": 3300, "planned_seconds": null"#), "\(jsonl.line(open))")
        let csv = InterchangeWriter(format: .csv)
        #expect(csv.line(open) == "Thesis,Chapter 2,2026-11-20T08:00:00Z,2026-11-20T09:00:00Z,open,3300,,,\n")
        for format in [InterchangeFormat.jsonl, .csv] {
            let w = InterchangeWriter(format: format)
            let back = try InterchangeParser.parse(w.header + w.line(open), format: format)
            #expect(back == [open], "\(format)")
        }
    }

    @Test func syncCarriesTheOpenStatus() throws {
        let zone = LocalCalendar(zone: ZoneRules.fromTZ("Europe/Berlin") ?? .utc)
        let start = Date(timeIntervalSince1970: 1_795_300_200)
        let session = SyncedSession(uid: SyncIdentity.sessionUID(taskUID: "t", subtaskUID: nil, start: start), taskUID: "t", subtaskUID: nil,
                                    label: "Thesis", start: start, end: start.addingTimeInterval(3600), plannedSeconds: 0,
                                    focusedSeconds: 3500, status: "open", note: nil, modified: 0)
        let text = SyncCodec.encode(.session(session), stamp: start)
        #expect(text.contains("X-FOCUS-SESSION:open"))
        #expect(try SyncCodec.decode(Data(text.utf8), zone: zone) == .session(session))
        #expect(SyncCodec.sessionStatus("OPEN") == "open")
        #expect(SyncCodec.sessionStatus("something else") == "interrupted")
    }
}
