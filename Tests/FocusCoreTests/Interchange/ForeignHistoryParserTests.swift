import FocusCore
import Foundation
import Testing

/// Fixtures written from each format's documentation: `timew export` (one interval per line,
/// tags sorted as Timewarrior keeps them), Watson's frames file (`json.dump(indent=1)`), and
/// the Open Pomodoro `history` file (a timestamp, then logfmt attributes).
@Suite struct ForeignHistoryParserTests {
    static let timewarrior = """
        [
        {"id":4,"start":"20261120T080000Z","end":"20261120T082500Z","tags":["Intro","Thesis"]},
        {"id":3,"start":"20261120T090000Z","end":"20261120T095000Z","tags":["Side project"],"annotation":"fixed the \\"build\\", finally"},
        {"id":2,"start":"20261120T100000Z","end":"20261120T101500Z"},
        {"id":1,"start":"20261120T110000Z","tags":["Reading"]}
        ]

        """

    static let watson = """
        [
         [
          1795161600,
          1795163100,
          "Thesis",
          "a6c4c6a37c5d4a3ab6e9ac8c1e7cc0a1",
          [
           "Chapter 2",
           "draft"
          ],
          1795163100
         ],
         [
          1795168800,
          1795171800.5,
          "Side project",
          "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
          [],
          1795171800
         ]
        ]
        """

    static let openPomodoro = """
        2026-11-20T09:00:00+01:00 description="Write intro" duration=25 tags=writing,thesis
        2026-11-20T10:00:00+01:00 description="Back\\\\slash and \\"quotes\\" \\u00e9" duration=50

        2026-11-20T11:00:00+01:00 tags=reading
        2026-11-20T12:00:00Z description=Review duration=12.5 source=phone
        """

    static func t(_ iso: String) -> Int64 {
        guard case let .instant(v) = InstantParser.parse(iso) else { preconditionFailure(iso) }
        return v
    }

    static func session(_ task: String, _ subtask: String?, _ start: String, minutes: Double, note: String? = nil,
                        tags: [String] = []) -> SessionRecord {
        let s = t(start)
        let length = Int((minutes * 60).rounded())
        var record = SessionRecord(task: task, subtask: subtask, start: s, end: s + Int64(length), status: .completed,
                                   focusedSeconds: length, plannedSeconds: length, note: note)
        record.tags = tags
        return record
    }

    @Test func timewarriorTagsBecomeTaskAndSubtaskAnnotationTheNoteAndOpenIntervalsAreSkipped() throws {
        let (records, skipped) = try ForeignHistoryParser.parse(Self.timewarrior, format: .timewarrior)
        #expect(records == [
            Self.session("Intro", "Thesis", "2026-11-20T08:00:00Z", minutes: 25),
            Self.session("Side project", nil, "2026-11-20T09:00:00Z", minutes: 50, note: "fixed the \"build\", finally"),
            Self.session("Untagged", nil, "2026-11-20T10:00:00Z", minutes: 15),
        ])
        #expect(skipped == 1)
    }

    @Test(arguments: [
        ("task=2,subtask=1", ["Thesis/Intro", "Untagged/Side project", "Untagged"]),
        ("task=2", ["Thesis", "Untagged", "Untagged"]),
        ("subtask=none", ["Intro", "Side project", "Untagged"]),
        ("task=T*,subtask=1", ["Thesis/Intro", "Untagged/Side project", "Untagged"]),
        ("task=1,subtask=1", ["Intro", "Side project", "Untagged"]),
    ])
    func mapChoosesWhichTagsBecomeTaskAndSubtask(map: String, paths: [String]) throws {
        let mapping = try ImportMapping.parse(map, format: .timewarrior)
        let records = try ForeignHistoryParser.parse(Self.timewarrior, format: .timewarrior, mapping: mapping).records
        #expect(records.map { r in r.subtask.map { "\(r.task)/\($0)" } ?? r.task } == paths)
    }

    @Test func prefixRulesTakeTheirTagAndNumbersCountTheRest() throws {
        let mapping = try ImportMapping.parse("task=project:*,subtask=1", format: .timewarrior)
        #expect(mapping.titles(tags: ["Intro", "deep", "project:Thesis"]) == ("Thesis", "Intro"))
        #expect(mapping.titles(tags: ["project:Thesis"]) == ("Thesis", nil))
        #expect(mapping.titles(tags: ["Intro"]) == ("Untagged", "Intro"))
        #expect(mapping.titles(tags: []) == ("Untagged", nil))
    }

    /// `--map task=Th*` made "Thesis" a task named "esis": a prefix that ends in a letter or
    /// digit starts a name and is kept; one that ends in a separator is a namespace, dropped.
    @Test(arguments: [
        ("task=Th*", ["Intro", "Thesis"], "Thesis"),
        ("task=Thesis*", ["Thesis"], "Thesis"),
        ("task=proj2*", ["proj2025"], "proj2025"),
        ("task=project:*", ["project:Thesis"], "Thesis"),
        ("task=area/*", ["area/Teaching"], "Teaching"),
        ("task=+*", ["+Side"], "Side"),
    ])
    func aPrefixIsDroppedOnlyWhenItEndsInASeparator(map: String, tags: [String], task: String) throws {
        let mapping = try ImportMapping.parse(map, format: .timewarrior)
        #expect(mapping.titles(tags: tags).task == task)
    }

    @Test(arguments: [
        ("task", ForeignFormat.timewarrior, "invalid --map rule 'task': expected task=SOURCE,subtask=SOURCE with SOURCE a tag number (1), PREFIX* (project:*) or none (subtask only)."),
        ("project=1", .timewarrior, "invalid --map field 'project': expected task or subtask."),
        ("task=0", .timewarrior, "invalid --map task '0': expected task=SOURCE,subtask=SOURCE with SOURCE a tag number (1), PREFIX* (project:*) or none (subtask only)."),
        ("task=none", .watson, "--map task=none: every session needs a task; choose a tag number, PREFIX*, or leave task out."),
        ("task=project", .timewarrior, "--map task=project: only Watson frames have a project; use a tag number or PREFIX* for timewarrior."),
        ("subtask=description", .watson, "--map subtask=description: only Open Pomodoro entries have a description; use a tag number or PREFIX* for watson."),
        ("task=1,task=2", .watson, "--map names task twice; give each of task and subtask once, e.g. --map task=1,subtask=2."),
        ("task=*", .openpomodoro, "invalid --map task '*': expected a tag prefix followed by *, like project:*."),
    ])
    func badMapRulesAreRefusedWithTheFix(map: String, format: ForeignFormat, message: String) {
        #expect(throws: FocusError.self) { try ImportMapping.parse(map, format: format) }
        do {
            _ = try ImportMapping.parse(map, format: format)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func watsonProjectIsTheTaskAndTheFirstTagTheSubtask() throws {
        let (records, skipped) = try ForeignHistoryParser.parse(Self.watson, format: .watson)
        #expect(records == [
            Self.session("Thesis", "Chapter 2", "2026-11-20T08:00:00Z", minutes: 25, tags: ["draft"]),
            Self.session("Side project", nil, "2026-11-20T10:00:00Z", minutes: 50),
        ])
        #expect(skipped == 0)
        let byTag = try ForeignHistoryParser.parse(Self.watson, format: .watson, mapping: .parse("task=2,subtask=project", format: .watson)).records
        #expect(byTag.map(\.task) == ["draft", "Untagged"])
        #expect(byTag.map(\.subtask) == ["Thesis", "Side project"])
    }

    @Test func openPomodoroDescriptionIsTheTaskAndTheEndIsStartPlusDuration() throws {
        let records = try ForeignHistoryParser.parse(Self.openPomodoro, format: .openpomodoro).records
        #expect(records == [
            Self.session("Write intro", nil, "2026-11-20T09:00:00+01:00", minutes: 25, tags: ["thesis", "writing"]),
            Self.session("Back\\slash and \"quotes\" é", nil, "2026-11-20T10:00:00+01:00", minutes: 50),
            Self.session("Untagged", nil, "2026-11-20T11:00:00+01:00", minutes: 25, tags: ["reading"]),
            Self.session("Review", nil, "2026-11-20T12:00:00Z", minutes: 12.5),
        ])
        let tagged = try ForeignHistoryParser.parse(Self.openPomodoro, format: .openpomodoro, mapping: .parse("subtask=1", format: .openpomodoro)).records
        #expect(tagged.map(\.subtask) == ["writing", nil, "reading", nil])
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func chunkBoundariesDoNotMatter(chunk: Int) throws {
        for (format, text) in [(ForeignFormat.timewarrior, Self.timewarrior), (.watson, Self.watson), (.openpomodoro, Self.openPomodoro)] {
            var parser = ForeignHistoryParser(format: format, file: "f")
            let (got, lines) = try parsedInChunks(text, chunk: chunk, feed: { try parser.feed($0, $1) }, finish: { try parser.finish($0) })
            #expect(got == (try ForeignHistoryParser.parse(text, format: format).records), "\(format) in chunks of \(chunk)")
            let expectedLines = format == .timewarrior ? [2, 3, 4] : format == .watson ? [2, 13] : [1, 2, 4, 5]
            #expect(lines == expectedLines, "\(format)")
        }
    }

    @Test(arguments: [
        (ForeignFormat.timewarrior, "[\n{\"id\":1,\"start\":\"20261120T080000Z\",\"end\":\"20261120T082500Z\"},\n{\"id\":2,\"start\":\"2026-11-20 08:00\",\"end\":\"20261120T082500Z\"}\n]\n",
         "f:3: entry 2 (interval @2): start '2026-11-20 08:00' is not a Timewarrior time like 20261120T090000Z"),
        (.timewarrior, "[\n{\"id\":7,\"start\":\"20261120T080000Z\",\"end\":\"20261120T070000Z\"}\n]",
         "f:2: entry 1 (interval @7): end 2026-11-20T07:00:00Z is before start 2026-11-20T08:00:00Z"),
        (.timewarrior, "[\n{\"id\":7,\"start\":\"20261020T080000Z\",\"end\":\"20261121T090000Z\"}\n]",
         "f:2: entry 1 (interval @7): the session lasts 769h, more than 31 days; check its end (a session of up to 31 days is imported as one)"),
        (.timewarrior, "[\n{\"start\":\"20261120T080000Z\",\"end\":\"20261120T082500Z\",\"tags\":[\"client/acme\"]}\n]",
         "f:2: entry 1: task name 'client/acme' contains '/', which separates a task from its subtask; rename it in Timewarrior, or choose another part with --map (see focus import --help)"),
        (.timewarrior, "[\n{\"start\":\"20261120T080000Z\",\"end\":\"20261120T082500Z\",\"tags\":\"Thesis\"}\n]",
         "f:2: entry 1: tags must be an array of text, found text"),
        (.timewarrior, "[\n{\"start\":\"20261120T080000Z\" \"end\":\"20261120T082500Z\"}\n]",
         "f:2: entry 1: bad JSON: expected ',' or '}' at line 2, column 29"),
        (.timewarrior, "{\"start\":\"20261120T080000Z\"}", "f:1: a Timewarrior export is one JSON array starting with '[', but the file starts with something else"),
        (.timewarrior, "[\n{\"start\":\"20261120T080000Z\",\"end\":\"20261120T082500Z\"},\n", "f:3: the file ends before the closing ']' of the array (is it cut short?)"),
        (.timewarrior, "[\n{\"start\":\"20261120T080000Z\",\"end\":\"20261120T082500Z\"},\n]", "f:3: entry 2 is empty (a stray ',' in the array)"),
        (.timewarrior, "", "f:1: the file is empty; a Timewarrior export is one JSON array starting with '['"),
        (.watson, "[\n [\n  1795161600,\n  \"x\",\n  \"Thesis\"\n ]\n]", "f:2: entry 1: the stop time must be a number of seconds since 1970, found text"),
        (.watson, "[\n [1795161600, 1795163100, null, \"id\", []]\n]", "f:2: entry 1: the project (third item) must be text, found null"),
        (.watson, "[\n {\"start\": 1}\n]", "f:2: entry 1: expected a frame [start, stop, project, id, tags, updated_at], found an object"),
        (.openpomodoro, "2026-11-20T09:00:00+01:00 description=\"ok\"\n2026-11-20T10:00:00 description=\"no offset\"\n",
         "f:2: the timestamp '2026-11-20T10:00:00' has no UTC offset; Open Pomodoro writes it like 2026-11-20T09:00:00+01:00"),
        (.openpomodoro, "\n\n2026-11-20T09:00:00+01:00 description=\"unclosed\n", "f:3: the quoted value of description is not closed before the end of the line"),
        (.openpomodoro, "2026-11-20T09:00:00+01:00 duration=twenty\n", "f:1: duration 'twenty' is not a number of minutes, like duration=25"),
        (.openpomodoro, "2026-11-20T09:00:00+01:00 duration=44641\n", "f:1: duration=44641 minutes is more than 31 days; check it (a session of up to 31 days is imported as one)"),
        (.openpomodoro, "yesterday description=x\n", "f:1: a line starts with the time the pomodoro started, like 2026-11-20T09:00:00+01:00, not 'yesterday'"),
    ])
    func aBadEntryIsRefusedWithTheLineItStartsOnAndWhy(format: ForeignFormat, text: String, message: String) {
        do {
            _ = try ForeignHistoryParser.parse(text, format: format, file: "f")
            Issue.record("accepted: \(text)")
        } catch let error as FocusError {
            #expect(error.description == message)
            #expect(error.exitCode == 65)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theArrayScannerIsNotFooledByBracketsAndCommasInStrings() throws {
        let text = #"[{"id":1,"start":"20261120T080000Z","end":"20261120T082500Z","tags":["a],[b", "c\"}{,"]}]"#
        let records = try ForeignHistoryParser.parse(text, format: .timewarrior).records
        #expect(records.map(\.task) == ["a],[b"])
        #expect(records.map(\.subtask) == ["c\"}{,"])
        #expect(try ForeignHistoryParser.parse("[\n]\n", format: .timewarrior).records.isEmpty)
    }

    @Test(arguments: [
        ("20261120T090000Z", Optional(ForeignHistoryParserTests.t("2026-11-20T09:00:00Z"))),
        ("20240229T235959Z", ForeignHistoryParserTests.t("2024-02-29T23:59:59Z")),
        ("20230229T000000Z", nil),
        ("20261120T090000", nil),
        ("2026-11-20T09:00Z", nil),
    ])
    func timewarriorTimesAreBasicISOInUTC(text: String, seconds: Int64?) {
        #expect(ForeignHistoryParser.basicUTC(text) == seconds)
    }
}

/// Issue #43: one JSON value for reading and writing. What the importers read whole is the
/// value `--json` writes, so a document read back is written as it came, keys in order.
@Suite struct OneJSONValueTests {
    @Test func aDocumentReadWholeIsWrittenBackAsItCame() throws {
        let text = #"{"id": 7, "start": "20261122T080000Z", "tags": ["deep work", "\u0007bell"], "annotation": null, "ok": true, "ratio": 0.5, "nested": {"z": 1, "a": []}}"#
        let value = try JSONLineDecoder.decodeValue(text)
        #expect(value.rendered() == text)
        #expect(value["id"]?.number == 7)
        #expect(value["tags"]?.kind == "an array")
        #expect(value["missing"] == nil)
    }
}
