import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

@Suite struct ImportExportCommandTests {
    typealias F = CLIFixtures

    static let good = #"{"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#

    @Test func importCreatesTasksAndSubtasksAndSaysWhatItDid() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("history.jsonl", F.smallHistory)
        let r = await world.output("import", path)
        #expect(r.code == 0)
        #expect(r.err == "")
        #expect(r.out == "Imported 3 sessions (0 already present), created 2 tasks and 1 subtask.\n")
        let list = await world.output("task", "list", "--json")
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        #expect(tasks.map { $0["title"] as? String } == ["Reading", "Thesis"])
        #expect((tasks[1]["subtasks"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Chapter 2"])
        #expect((tasks[1]["subtasks"] as? [[String: Any]])?.first?["logged_seconds"] as? Int == 1500)
    }

    @Test func existingTasksAreMatchedWithoutRegardToCase() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "thesis/chapter 2")
        let dir = try TempDir()
        let path = try dir.file("h.jsonl", F.smallHistory)
        let r = await world.output("import", path)
        #expect(r.out == "Imported 3 sessions (0 already present), created 1 task and 0 subtasks.\n")
        #expect(try world.database.catalog().tasks.map(\.title).sorted() == ["Reading", "thesis"])
    }

    @Test func reimportingTheSameFileAddsNothingTwice() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("h.jsonl", F.smallHistory)
        await world.run("import", path)
        let before = await world.output("stats", "--json")
        let again = await world.output("import", path)
        #expect(again.code == 0)
        #expect(again.out == "Imported 0 sessions (3 already present), created 0 tasks and 0 subtasks.\n")
        #expect(try F.count(world, "timeLog") == 3)
        #expect(await world.output("stats", "--json").out == before.out)
        // One new line among the old ones: only it is added.
        let more = try dir.file("more.jsonl", F.smallHistory + Self.good.replacingOccurrences(of: "2026-11-20T08", with: "2026-11-21T08") + "\n")
        #expect(await world.output("import", more).out == "Imported 1 session (3 already present), created 0 tasks and 0 subtasks.\n")
    }

    @Test(arguments: [
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z""#, "bad JSON: expected ',' or '}' at the end of the line"),
        (#"["Thesis"]"#, "bad JSON: expected an object starting with '{' at column 1"),
        (#"{"task": "Thesis", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#, #"missing field "start""#),
        (#"{"subtask": "x", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#, #"missing field "task""#),
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z"}"#, #"missing field "status""#),
        (#"{"task": "Thesis", "start": "2026-11-20T09:00:00", "end": "2026-11-20T09:25:00+01:00", "status": "completed"}"#,
         "start '2026-11-20T09:00:00' has no UTC offset; write it like 2026-11-20T09:00:00+01:00 or 2026-11-20T08:00:00Z"),
        (#"{"task": "Thesis", "start": "2026-11-31T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed"}"#,
         "start '2026-11-31T09:00:00Z' is not an ISO 8601 date-time like 2026-11-20T09:00:00+01:00"),
        (#"{"task": "Thesis", "start": 1763625600, "end": "2026-11-20T09:25:00Z", "status": "completed"}"#,
         #"start must be text, an ISO 8601 date-time like "2026-11-20T09:00:00+01:00""#),
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T07:00:00Z", "status": "completed"}"#,
         "end 2026-11-20T07:00:00Z is before start 2026-11-20T08:00:00Z"),
        (#"{"task": "Thesis", "start": "2026-10-20T08:00:00Z", "end": "2026-11-20T09:00:00Z", "status": "completed"}"#,
         "the session lasts 745h, more than 31 days; check its end (a session of up to 31 days is imported as one)"),
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed", "focused_seconds": 1600}"#,
         "focused_seconds 1600 is more than the session's 1500 seconds from start to end"),
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed", "focused_seconds": -1}"#,
         "focused_seconds must be 0 or more seconds"),
        (#"{"task": "Thesis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "done"}"#,
         "unknown status 'done'; expected completed, interrupted or open"),
        (#"{"task": "  ", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#, "empty task name"),
        (#"{"task": "The\u001b[31msis", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#,
         "task name contains a control character (U+001B)"),
        (#"{"task": "Thesis", "subtask": "Ch\u00852", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#,
         "subtask name contains a control character (U+0085)"),
        (#"{"task": "Thesis/Chapter 2", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed"}"#,
         #"task name 'Thesis/Chapter 2' contains '/', which separates a task from its subtask; put the subtask in "subtask""#),
    ])
    func aBadLineRejectsTheWholeFileWithItsNumberAndReason(line: String, reason: String) async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        // Line 1 is good, line 2 blank, line 3 bad, line 4 good: nothing at all is written.
        let path = try dir.file("bad.jsonl", Self.good + "\n\n" + line + "\n" + Self.good.replacingOccurrences(of: "Thesis", with: "Other") + "\n")
        let r = await world.output("import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path):3: \(reason)\n")
        #expect(r.out == "")
        #expect(try F.count(world, "timeLog") == 0)
        #expect(try F.count(world, "task") == 0)
        #expect(try F.count(world, "subtask") == 0)
    }

    @Test func csvErrorsNameTheLineTheRecordStartsOn() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("bad.csv", #"""
            status,start,end,task,note
            completed,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,Thesis,"two
            lines, and ""quotes"""
            sometimes,2026-11-20T09:00:00Z,2026-11-20T09:25:00Z,Thesis,

            """#)
        let r = await world.output("import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path):4: unknown status 'sometimes'; expected completed, interrupted or open\n")
        #expect(try F.count(world, "timeLog") == 0)
    }

    @Test func csvImportsColumnsInAnyOrderAndEmptyMeansNone() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("h.csv", """
            note,status,end,start,subtask,task,focused_seconds,source\r
            ,completed,2026-11-20T08:25:00Z,2026-11-20T08:00:00Z,Chapter 2,Thesis,,phone\r
            "a, b",interrupted,2026-11-20T09:10:00+01:00,2026-11-20T09:00:00+01:00,,Thesis,300,\r

            """)
        let r = await world.output("import", path)
        #expect(r.code == 0)
        #expect(r.out == "Imported 2 sessions (0 already present), created 1 task and 1 subtask.\n")
        let export = await world.output("export")
        #expect(export.out == """
            {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed", "focused_seconds": 1500, "planned_seconds": 1500}
            {"task": "Thesis", "subtask": null, "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:10:00Z", "status": "interrupted", "focused_seconds": 300, "planned_seconds": 600, "note": "a, b"}

            """)
    }

    @Test(arguments: [
        (["import", "history.txt"], "focus: error: cannot tell the format of history.txt from its name; name it .jsonl or .csv, or pass --format (jsonl, csv, timewarrior, watson or openpomodoro).\n"),
        (["import", "h.jsonl", "--format", "xml"], "focus: error: invalid format 'xml': expected jsonl, csv, timewarrior, watson or openpomodoro.\n"),
        (["import", "h.jsonl", "--map", "task=1"], "focus: error: --map applies to timewarrior, watson and openpomodoro files; a jsonl or csv file names its task and subtask itself.\n"),
        (["import", "h.json", "--format", "timewarrior", "--map", "task=project"], "focus: error: --map task=project: only Watson frames have a project; use a tag number or PREFIX* for timewarrior.\n"),
        (["export", "--format", "xml"], "focus: error: invalid format 'xml': expected jsonl, csv or ics.\n"),
        (["export", "--from", "2026-11-01"], "focus: error: --from needs --to: give both, e.g. --from 2026-11-01 --to 2026-11-30 (whole local days, --to included).\n"),
    ])
    func badImportAndExportFlagsExit64(args: [String], message: String) async throws {
        let world = try TestWorld()
        // The files exist (a missing one is 66 unless the command line alone is wrong).
        let dir = try TempDir()
        var args = args
        var message = message
        if args.first == "import" {
            let path = try dir.file(args[1], "")
            message = message.replacingOccurrences(of: "of \(args[1]) from", with: "of \(path) from")
            args[1] = path
        }
        let r = await world.output(args)
        #expect(r.code == 64)
        #expect(r.err == message)
    }

    @Test(arguments: [
        ["import", "/nonexistent/h.jsonl"], ["import", "/nonexistent/history.txt"], ["import", "/nonexistent/h.json", "--map", "task=1"],
    ])
    func aMissingFileIs66WhenTheCommandLineItselfIsRight(args: [String]) async throws {
        let world = try TestWorld()
        let r = await world.output(args)
        #expect(r.code == 66)
        #expect(r.err.hasPrefix("focus: error: cannot read \(args[1]): no such file"))
    }

    @Test func formatForcesHowAFileIsRead() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("history.txt", Self.good + "\n")
        let r = await world.output("import", path, "--format", "jsonl")
        #expect(r.out == "Imported 1 session (0 already present), created 1 task and 1 subtask.\n")
    }

    @Test func exportWritesOneLinePerSessionOldestFirstInUTC() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        let r = await world.output("export")
        #expect(r.code == 0)
        #expect(r.out == """
            {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z", "status": "completed", "focused_seconds": 1500, "planned_seconds": 1500}
            {"task": "Thesis", "subtask": null, "start": "2026-11-21T22:30:00Z", "end": "2026-11-21T23:20:00Z", "status": "interrupted", "focused_seconds": 2400, "planned_seconds": 3000, "note": "late"}
            {"task": "Reading", "subtask": null, "start": "2026-11-22T08:00:00Z", "end": "2026-11-22T08:50:00Z", "status": "completed", "focused_seconds": 3000, "planned_seconds": 3000}

            """)
        let csv = await world.output("export", "--format", "csv")
        #expect(csv.out == """
            task,subtask,start,end,status,focused_seconds,planned_seconds,note,tags
            Thesis,Chapter 2,2026-11-20T08:00:00Z,2026-11-20T08:25:00Z,completed,1500,1500,,
            Thesis,,2026-11-21T22:30:00Z,2026-11-21T23:20:00Z,interrupted,2400,3000,late,
            Reading,,2026-11-22T08:00:00Z,2026-11-22T08:50:00Z,completed,3000,3000,,

            """)
    }

    @Test func exportFromToKeepsTheSessionsStartingOnThoseLocalDays() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        // The late session starts on the 21st (Berlin) and ends on the 22nd: it belongs to the 21st.
        let r = await world.output("export", "--from", "2026-11-21", "--to", "2026-11-21")
        #expect(r.out.split(separator: "\n").count == 1)
        #expect(r.out.contains(#""start": "2026-11-21T22:30:00Z""#))
        let none = await world.output("export", "--from", "2026-11-01", "--to", "2026-11-19")
        #expect(none.code == 0)
        #expect(none.out == "")
    }

    @Test func exportToAFileIsAtomicAndInfersCSVFromTheName() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        let dir = try TempDir()
        let r = await world.output("export", "--output", dir.path + "/out.csv")
        #expect(r.code == 0)
        #expect(r.out == "Exported 3 sessions to \(dir.path)/out.csv.\n")
        #expect(try dir.read("out.csv").hasPrefix("task,subtask,start,end,status,focused_seconds,planned_seconds,note,tags\nThesis,Chapter 2,"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.csv"])
    }

    @Test func exportToAPipeIsRefusedAndLeavesItAPipe() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        let dir = try TempDir()
        let fifo = dir.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = await world.output("export", "--output", fifo)
        #expect(r.code == 74)
        #expect(r.err == "focus: error: cannot write \(fifo): it is a FIFO (named pipe), not a regular file, and focus replaces only regular files. Name a new file or a regular one.\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pipe"], "no temporary file left")
    }

    @Test(arguments: [("jsonl", "history.jsonl"), ("csv", "history.csv")])
    func exportThenImportIntoAnEmptyDatabaseGivesIdenticalStats(format: String, name: String) async throws {
        let source = try TestWorld(now: "2026-11-22T20:00:00Z")
        let dir = try TempDir()
        let sample = F.dataDirectory + "/sample-history.jsonl"
        let imported = await source.output("import", sample)
        #expect(imported.code == 0)
        #expect(await source.run("task", "edit", "Thesis/Chapter 2", "--estimate", "30h") == 0)
        let exported = await source.output("export", "--format", format, "--output", dir.path + "/" + name)
        #expect(exported.out == "Exported 180 sessions to \(dir.path)/\(name).\n")

        let copy = try TestWorld(now: "2026-11-22T20:00:00Z")
        let again = await copy.output("import", dir.path + "/" + name)
        #expect(again.out == "Imported 180 sessions (0 already present), created 4 tasks and 5 subtasks.\n")
        #expect(await copy.run("task", "edit", "Thesis/Chapter 2", "--estimate", "30h") == 0)
        for args in [["stats", "--last", "42", "--json"], ["stats", "--last", "7", "--json"], ["stats", "--last", "30", "--csv"],
                     ["stats", "--last", "42", "--task", "Thesis/Chapter 3", "--json"], ["stats", "--last", "14", "--tz", "America/New_York", "--json"],
                     ["export"]] {
            let a = await source.output(args)
            let b = await copy.output(args)
            #expect(a.code == 0)
            #expect(a.out == b.out, "\(args)")
        }
    }
}
