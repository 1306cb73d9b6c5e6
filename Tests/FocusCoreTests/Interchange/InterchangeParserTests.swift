import Foundation
import Testing
import FocusCore

@Suite struct InterchangeParserTests {
    static let jsonl = """
        {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T09:00:00+01:00", "end": "2026-11-20T09:25:00+01:00", "status": "completed"}

        {"task": " Reading ", "subtask": "", "start": "2026-11-20T10:00:00Z", "end": "2026-11-20T10:50:00Z", "status": "Interrupted", "focused_seconds": 1200.4, "planned_seconds": 3000, "note": "tab\\tand \\"quote\\" \\u00e9\\ud83d\\ude00", "extra": {"nested": [1, 2, {"x": null}]}, "flag": true}\r
        {"task": "Side project", "subtask": null, "start": "2026-11-21T23:30:00+01:00", "end": "2026-11-22T00:20:00+01:00", "status": "completed", "note": ""}
        """

    static let expected = [
        SessionRecord(task: "Thesis", subtask: "Chapter 2", start: 1_795_161_600, end: 1_795_163_100, status: .completed, focusedSeconds: 1500, plannedSeconds: 1500),
        SessionRecord(task: "Reading", subtask: nil, start: 1_795_168_800, end: 1_795_171_800, status: .interrupted, focusedSeconds: 1200, plannedSeconds: 3000,
                      note: "tab\tand \"quote\" é😀"),
        SessionRecord(task: "Side project", subtask: nil, start: 1_795_300_200, end: 1_795_303_200, status: .completed, focusedSeconds: 3000, plannedSeconds: 3000),
    ]

    @Test func readsJSONLinesWithDefaultsEscapesAndUnknownKeys() throws {
        #expect(try InterchangeParser.parse(Self.jsonl, format: .jsonl) == Self.expected)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func chunkBoundariesDoNotMatter(chunk: Int) throws {
        for (format, text) in [(InterchangeFormat.jsonl, Self.jsonl), (.csv, Self.csv)] {
            var parser = InterchangeParser(format: format, file: "f")
            let (got, lines) = try parsedInChunks(text, chunk: chunk, feed: { try parser.feed($0, $1) }, finish: { try parser.finish($0) })
            #expect(got == Self.expected, "\(format) in chunks of \(chunk)")
            #expect(lines == (format == .jsonl ? [1, 3, 4] : [2, 3, 4]))
            #expect(parser.count == 3)
        }
    }

    static let csv = """
        task,subtask,start,end,status,focused_seconds,planned_seconds,note
        Thesis,Chapter 2,2026-11-20T09:00:00+01:00,2026-11-20T09:25:00+01:00,completed,,,
        " Reading ",,2026-11-20T10:00:00Z,2026-11-20T10:50:00Z,Interrupted,1200.4,3000,"tab\tand ""quote"" é😀"
        Side project,,2026-11-21T23:30:00+01:00,2026-11-22T00:20:00+01:00,completed,,,

        """

    @Test func readsCSVWithQuotesAndEmptyFieldsAsNull() throws {
        #expect(try InterchangeParser.parse(Self.csv, format: .csv) == Self.expected)
    }

    @Test func csvQuotedFieldsMayHoldCommasAndLineBreaks() throws {
        let text = "start,end,task,status,note\n2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,\"Thesis, v2\",completed,\"line one\nline two, \"\"quoted\"\"\""
        let records = try InterchangeParser.parse(text, format: .csv)
        #expect(records.map(\.task) == ["Thesis, v2"])
        #expect(records.map(\.note) == ["line one\nline two, \"quoted\""])
    }

    @Test(arguments: [
        ("", 1, "the file is empty; a CSV file starts with a header row naming its columns (task,subtask,start,end,status,…)"),
        ("task,start,end\n", 1, "the header has no \"status\" column; it needs task, start, end and status (subtask, focused_seconds, planned_seconds, note and tags are optional)"),
        ("task,start,end,status,task\n", 1, "the header names the column \"task\" twice"),
        ("task,start,end,status\nThesis,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z\n", 2, "3 fields but the header has 4 columns"),
        ("task,start,end,status\n\"Thesis\"x,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,completed\n", 2,
         "unexpected text after a closing quote; a quote inside a quoted field is written \"\""),
        ("task,start,end,status\nThesis,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,\"completed\n", 2, "a quoted field is not closed before the end of the file"),
        ("task,start,end,status,focused_seconds\nThesis,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,completed,25m\n", 2, "focused_seconds '25m' is not a number of seconds"),
    ])
    func csvProblemsNameTheirLine(text: String, line: Int, reason: String) {
        #expect(throws: FocusError.badInput(file: "h.csv", line: line, reason: reason)) {
            try InterchangeParser.parse(text, format: .csv, file: "h.csv")
        }
    }

    @Test(arguments: [
        ("{\"task\": \"T\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\"} x", "bad JSON: unexpected text after the object at column 102"),
        ("{\"task\": \"T\\q\"}", "bad JSON: unknown escape at column 13"),
        ("{\"task\": \"T\u{01}\"}", "bad JSON: control character in a string (write it as \\u00XX) at column 12"),
        ("{\"task\": \"\\ud800\"}", "bad JSON: lone surrogate in \\u escape at column 17"),
        ("{\"task\": tru}", "bad JSON: expected a value at column 10"),
        ("{\"task\": 01}", "bad JSON: expected ',' or '}' at column 11"),
        ("{task: 1}", "bad JSON: expected a key in double quotes at column 2"),
        ("{\"task\" 1}", "bad JSON: expected ':' after the key at column 9"),
        ("{\"task\": [1, 2}", "bad JSON: expected ',' or ']' at column 15"),
        (String(repeating: "[", count: 70), "bad JSON: expected an object starting with '{' at column 1"),
        ("{\"x\": " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}", "bad JSON: nested too deeply at column 71"),
        ("{\"task\": 12, \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\"}", "task must be text, like \"Thesis\""),
        ("{\"task\": \"T\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\", \"note\": 5}", "note must be text"),
        ("{\"task\": \"T\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": true}", "status must be \"completed\", \"interrupted\" or \"open\""),
        ("{\"task\": \"T\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\", \"planned_seconds\": \"1500\"}", "planned_seconds must be a number of seconds"),
        ("{\"task\": \"T\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\", \"planned_seconds\": 1e300}", "planned_seconds 1e300 is more than a year"),
        ("{\"task\": \"#12\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\"}", "task name '#12' looks like an id (#12); rename it"),
        ("{\"task\": \"" + String(repeating: "x", count: 201) + "\", \"start\": \"2026-11-20T08:00:00Z\", \"end\": \"2026-11-20T08:25:00Z\", \"status\": \"completed\"}", "task name is longer than 200 characters"),
    ])
    func jsonProblemsNameTheirLineAndWhatIsWrong(line: String, reason: String) {
        #expect(throws: FocusError.badInput(file: "h.jsonl", line: 2, reason: reason)) {
            try InterchangeParser.parse("\n" + line + "\n", format: .jsonl, file: "h.jsonl")
        }
    }

    @Test func aZeroLengthSessionAndOneOfExactlyADayAreAccepted() throws {
        let text = """
            {"task": "T", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:00:00Z", "status": "interrupted"}
            {"task": "T", "start": "2026-11-20T08:00:00Z", "end": "2026-11-21T08:00:00Z", "status": "completed", "focused_seconds": 0}
            """
        let r = try InterchangeParser.parse(text, format: .jsonl)
        #expect(r.map(\.focusedSeconds) == [0, 0])
        #expect(r.map { $0.end - $0.start } == [0, 86_400])
    }

    @Test func invalidUTF8IsRefused() {
        var parser = InterchangeParser(format: .jsonl, file: "f")
        let bytes: [UInt8] = Array(#"{"task": "T"#.utf8) + [0xFF] + Array(#"", "start": "2026-11-20T08:00:00Z"}"#.utf8)
        #expect(throws: FocusError.badInput(file: "f", line: 1, reason: "bad JSON: a string is not UTF-8 text")) {
            try parser.feed(bytes) { _, _ in }
            try parser.finish { _, _ in }
        }
    }

    @Test(arguments: [("a.jsonl", InterchangeFormat.jsonl), ("A.NDJSON", .jsonl), ("x.json", .jsonl), ("h.csv", .csv), ("h.txt", nil), ("csv", nil)])
    func theFormatFollowsTheExtension(path: String, format: InterchangeFormat?) {
        #expect(InterchangeFormat.detect(path: path) == format)
    }
}

/// Feeds `text`, after a byte-order mark, to a session file parser `chunk` bytes at a time and
/// then finishes it: the records it handed over, with their line numbers.
func parsedInChunks(
    _ text: String, chunk: Int,
    feed: ([UInt8], (SessionRecord, Int) throws -> Void) throws -> Void,
    finish: ((SessionRecord, Int) throws -> Void) throws -> Void
) throws -> (records: [SessionRecord], lines: [Int]) {
    var got: [SessionRecord] = []
    var lines: [Int] = []
    let bytes = Array(("\u{FEFF}" + text).utf8)
    var i = 0
    while i < bytes.count {
        try feed(Array(bytes[i..<min(bytes.count, i + chunk)])) { r, line in got.append(r); lines.append(line) }
        i += chunk
    }
    try finish { r, line in got.append(r); lines.append(line) }
    return (got, lines)
}
