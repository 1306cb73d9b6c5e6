import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct InterchangeWriterTests {
    static let records = [
        SessionRecord(task: "Thesis", subtask: "Chapter 2", start: 1_795_161_600, end: 1_795_163_100, status: .completed, focusedSeconds: 1500, plannedSeconds: 1500),
        SessionRecord(task: "Read, \"think\"", subtask: nil, start: -86_401, end: 0, status: .interrupted, focusedSeconds: 0, plannedSeconds: 86_401,
                      note: "line\nbreak \u{1B}[31m\u{7F} \u{2028} é \\ end "),
    ]

    @Test func jsonLinesHaveTheContractKeysInOrderInUTC() {
        let w = InterchangeWriter(format: .jsonl)
        #expect(w.header == "")
        #expect(w.line(Self.records[0]) == #"{"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed", "focused_seconds": 1500, "planned_seconds": 1500}"# + "\n")
        #expect(w.line(Self.records[1]) == #"{"task": "Read, \"think\"", "subtask": null, "start": "1969-12-30T23:59:59Z", "end": "1970-01-01T00:00:00Z", "status": "interrupted", "focused_seconds": 0, "planned_seconds": 86401, "note": "line\nbreak \u001b[31m\u007f \u2028 é \\ end "}"# + "\n")
    }

    @Test func csvQuotesOnlyWhatNeedsIt() {
        let w = InterchangeWriter(format: .csv)
        #expect(w.header == "task,subtask,start,end,status,focused_seconds,planned_seconds,note,tags\n")
        #expect(w.line(Self.records[0]) == "Thesis,Chapter 2,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,completed,1500,1500,,\n")
        #expect(w.line(Self.records[1]) == "\"Read, \"\"think\"\"\",,1969-12-30T23:59:59Z,1970-01-01T00:00:00Z,interrupted,0,86401,\"line\nbreak \u{1B}[31m\u{7F} \u{2028} é \\ end \",\n")
    }

    @Test(arguments: [InterchangeFormat.jsonl, .csv])
    func whatIsWrittenReadsBackTheSame(format: InterchangeFormat) throws {
        var rng = SeededRandom(seed: 42)
        let names = ["Thesis", "Read, \"think\"", "Ünïcødé 😀", " spaced", "a\"b", "x,y,z"]
        var records: [SessionRecord] = []
        for _ in 0..<500 {
            let start = Int64(rng.next() % 2_000_000_000)
            let length = Int64(rng.next() % 86_401)
            let focused = Int(rng.next() % UInt64(length + 1))
            let note: String? = rng.next() % 3 == 0 ? names[Int(rng.next() % 6)] + "\nmore\ttext" : nil
            let sub: String? = rng.next() % 4 == 0 ? nil : names[Int(rng.next() % 6)].trimmingCharacters(in: .whitespaces)
            records.append(SessionRecord(
                task: names[Int(rng.next() % 6)].trimmingCharacters(in: .whitespaces), subtask: sub, start: start, end: start + length,
                status: rng.next() % 2 == 0 ? .completed : .interrupted, focusedSeconds: focused, plannedSeconds: Int(rng.next() % 7200), note: note))
        }
        let w = InterchangeWriter(format: format)
        var bytes = Array(w.header.utf8)
        for r in records { w.append(r, to: &bytes) }
        let back = try InterchangeParser.parse(String(decoding: bytes, as: UTF8.self), format: format)
        #expect(back == records)
    }
}
