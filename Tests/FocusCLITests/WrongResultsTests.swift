import FocusCLI
import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Results that were wrong without an error: settings judged in file order, titles no path can
/// reach, sessions in the future, one title stored twice in two Unicode spellings.
@Suite struct WrongResultsTests {
    // MARK: Config as a whole

    @Test func configSetJudgesTheFinishedFileAndSaysWhichKeyToChangeFirst() async throws {
        let world = try TestWorld()
        let refused = await world.output("config", "set", "day_start", "22:30")
        #expect(refused.code == 64)
        #expect(refused.err == "focus: error: invalid day_start '22:30': expected a time that keeps day_start before day_end (day_end is 17:00: change it first).\n")
        #expect(!FileManager.default.fileExists(atPath: world.configPath))
        #expect(await world.run("config", "set", "day_end", "23:30") == 0)
        world.config = try ConfigFile.parse(String(contentsOfFile: world.configPath, encoding: .utf8), path: world.configPath)
        #expect(await world.run("config", "set", "day_start", "22:30") == 0)
        let text = try String(contentsOfFile: world.configPath, encoding: .utf8)
        let reread = try ConfigFile.parse(text, path: world.configPath)
        #expect(reread.dayStart == TimeOfDay(hour: 22, minute: 30) && reread.dayEnd == TimeOfDay(hour: 23, minute: 30))
    }

    // MARK: Titles that look like ids

    @Test(arguments: ["#5000", " #12", "#0012", "#+3", "#1"])
    func aTaskNamedLikeAnIdIsRefused(title: String) async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let r = await world.output("task", "add", title)
        #expect(r.code == 64)
        #expect(r.err.hasSuffix("expected a name that does not look like an id (#12).\n"))
        let renamed = await world.output("task", "edit", "Thesis", "--title", title)
        #expect(renamed.code == 64)
        #expect(try world.database.catalog().tasks.map(\.title) == ["Thesis"])
    }

    @Test func aSubtaskMayStillBeAddedUnderATaskNamedByItsId() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let r = await world.output("task", "add", "#1/Chapter 2")
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("Added Thesis/Chapter 2 (#2)"))
        #expect(await world.run("task", "add", "#77/Chapter 2") == 64)
    }

    @Test func anImportedTaskNamedLikeAnIdIsRefusedWithItsLine() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let file = try dir.file("h.jsonl", """
            {"task": "Thesis", "start": "2026-11-20T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed"}
            {"task": "#0012", "start": "2026-11-20T10:00:00Z", "end": "2026-11-20T10:25:00Z", "status": "completed"}

            """)
        let r = await world.output("import", file)
        #expect(r.code == 65)
        #expect(r.err.contains("h.jsonl:2: task name '#0012' looks like an id"))
        #expect(try world.database.catalog().tasks.isEmpty)
    }

    // MARK: Unicode normalisation

    @Test func composedAndDecomposedSpellingsAreOneTask() async throws {
        let world = try TestWorld()
        let composed = "\u{E9}t\u{E9}"
        let decomposed = "e\u{301}te\u{301}"
        #expect(await world.run("task", "add", decomposed) == 0)
        let again = await world.output("task", "add", composed)
        #expect(again.code == 64)
        #expect(again.err.contains("already exists"))
        let tasks = try world.database.catalog().tasks
        #expect(tasks.count == 1)
        // Stored in NFC: the composed code points.
        #expect(Array(tasks[0].title.unicodeScalars) == Array(composed.unicodeScalars))
        // Either spelling of a prefix finds it.
        #expect(await world.output("task", "show", "e\u{301}t").out.hasPrefix(composed))
        #expect(await world.output("task", "show", "\u{E9}").code == 0)
    }

    @Test func anImportInTheOtherSpellingAddsToTheSameTask() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Caf\u{E9}/R\u{E9}sum\u{E9}")
        let dir = try TempDir()
        let file = try dir.file("h.jsonl", """
            {"task": "Cafe\u{301}", "subtask": "Re\u{301}sume\u{301}", "start": "2026-11-20T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed"}

            """)
        let r = await world.output("import", file)
        #expect(r.code == 0)
        #expect(r.out == "Imported 1 session (0 already present), created 0 tasks and 0 subtasks.\n")
    }

    @Test func aRenameIsStoredInNFC() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        #expect(await world.run("task", "edit", "Thesis", "--title", "Ne\u{301}e") == 0)
        #expect(Array(try world.database.catalog().tasks[0].title.unicodeScalars) == Array("N\u{E9}e".unicodeScalars))
    }

    // MARK: Sessions in the future

    @Test func aSessionEndingAfterNowIsRefusedUnlessAllowed() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")  // 07:30 in Berlin
        await world.run("task", "add", "Thesis")
        let r = await world.output("log", "add", "Thesis", "--start", "17:00", "--duration", "3h")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: the session would end Mon 23 Nov 20:00, after now (Mon 23 Nov 07:30): the log records time already spent. Check the date and time, or pass --allow-future to record it anyway.\n")
        #expect(try world.database.sessions(overlapping: .distantPast, .distantFuture).isEmpty)
        // Ending exactly now is the past.
        #expect(await world.run("log", "add", "Thesis", "--start", "07:00", "--end", "07:30") == 0)
        #expect(await world.run("log", "add", "Thesis", "--start", "17:00", "--duration", "3h", "--allow-future") == 0)
        #expect(try world.database.sessions(overlapping: .distantPast, .distantFuture).count == 2)
    }

    @Test func anEditThatMovesASessionIntoTheFutureIsRefusedUnlessAllowed() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")
        await world.run("task", "add", "Thesis")
        await world.run("log", "add", "Thesis", "--start", "06:00", "--duration", "30m")
        let r = await world.output("log", "edit", "1", "--end", "09:00")
        #expect(r.code == 64)
        #expect(r.err.contains("after now (Mon 23 Nov 07:30)"))
        // A note alone is no new time: allowed.
        #expect(await world.run("log", "edit", "1", "--note", "fine") == 0)
        #expect(await world.run("log", "edit", "1", "--end", "09:00", "--allow-future") == 0)
    }

    @Test func anImportWithAFutureSessionIsRefusedWholeWithItsLine() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")
        let dir = try TempDir()
        let file = try dir.file("h.jsonl", """
            {"task": "Thesis", "start": "2026-11-20T09:00:00Z", "end": "2026-11-20T09:25:00Z", "status": "completed"}
            {"task": "Thesis", "start": "2099-01-01T09:00:00Z", "end": "2099-01-01T09:25:00Z", "status": "completed"}

            """)
        let r = await world.output("import", file)
        #expect(r.code == 65)
        #expect(r.err.contains("h.jsonl:2: the session ends 2099-01-01T09:25:00Z, after now (2026-11-23T06:30:00Z)"))
        #expect(try world.database.sessions(overlapping: .distantPast, .distantFuture).isEmpty)
        let today = await world.output("stats", "--last", "1", "--json")
        #expect(today.out.contains("\"totals\": {\"focused_seconds\": 0"))
        #expect(await world.run("import", file, "--allow-future") == 0)
        #expect(try world.database.sessions(overlapping: .distantPast, .distantFuture).count == 2)
    }

    // MARK: Ranges and renderers

    @Test func busyAndLogRangesAreCappedAtACentury() async throws {
        let world = try TestWorld()
        let busy = await world.output("calendar", "busy", "--from", "1900-01-01", "--to", "3000-01-01")
        #expect(busy.code == 64)
        #expect(busy.err == "focus: error: invalid --to date '3000-01-01': expected at most 36600 days after --from.\n")
        let log = await world.output("log", "--last", "36601")
        #expect(log.code == 64)
        #expect(log.err == "focus: error: invalid --last '36601': expected a number of days from 1 to 36600.\n")
    }

    @Test func busyTextFilesEachEventUnderEveryDayItCovers() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        let cal = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTART:20261123T220000Z\r
            DTEND:20261125T230000Z\r
            SUMMARY:Trip\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:b\r
            DTSTART:20261124T090000Z\r
            DTEND:20261124T100000Z\r
            SUMMARY:Class\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:c\r
            DTSTART:20261126T090000Z\r
            SUMMARY:Marker\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let dir = try TempDir()
        #expect(await world.run("calendar", "import", try dir.file("c.ics", cal), "--name", "C") == 0)
        let r = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-26")
        #expect(r.out == """
            Mon 23 Nov 2026
              23:00–(00:00)  Trip · C

            Tue 24 Nov 2026
              (23:00)–(00:00)  Trip · C
              10:00–11:00  Class · C

            Wed 25 Nov 2026
              (23:00)–00:00  Trip · C

            """)
    }

    @Test func logTextTotalsEachDayOnce() async throws {
        let world = try TestWorld(now: "2026-11-22T12:00:00Z")
        await world.run("task", "add", "Thesis")
        await world.run("log", "add", "Thesis", "--start", "2026-11-21 09:00", "--duration", "25m")
        await world.run("log", "add", "Thesis", "--start", "2026-11-21 10:00", "--duration", "30m")
        await world.run("log", "add", "Thesis", "--start", "2026-11-22 09:00", "--duration", "50m")
        let r = await world.output("log", "--last", "2")
        #expect(r.out == """
            Sun 22 Nov 2026  ·  50m
              #3  09:00–09:50  50m     ✓  Thesis

            Sat 21 Nov 2026  ·  55m
              #2  10:00–10:30  30m     ✓  Thesis
              #1  09:00–09:25  25m     ✓  Thesis

            """)
    }

    @Test func aHugeSummaryIsCutInTheAgenda() async throws {
        let world = try TestWorld(now: "2026-11-23T06:00:00Z")
        let dir = try TempDir()
        let summary = String(repeating: "A", count: 1_000_000)
        let file = try dir.file("big.ics", oneEventCalendar(summary, "20261123T100000Z", "20261123T110000Z", name: "Big"))
        #expect(await world.run("calendar", "import", file) == 0)
        let r = await world.output("agenda")
        let line = try #require(r.out.split(separator: "\n").first { $0.contains("AAAA") })
        #expect(line == "  11:00–12:00  " + String(repeating: "A", count: 199) + "… · Big")
    }
}
