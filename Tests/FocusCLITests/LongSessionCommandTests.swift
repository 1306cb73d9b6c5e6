import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusSQLite
import FocusStorage

/// A forgotten timer is real history (README, "Sessions longer than a day"): imported with a
/// warning naming its line, kept as one session, its focus spread over the days it covers.
@Suite struct LongSessionCommandTests {
    /// 2026-11-19 20:00 to 2026-11-20 23:30 in Berlin: 27h 30m.
    static let forgotten = #"{"task": "Thesis", "subtask": "Ch 2", "start": "2026-11-19T20:00:00+01:00", "end": "2026-11-20T23:30:00+01:00", "status": "interrupted"}"#
    static let short = #"{"task": "Thesis", "subtask": "Ch 2", "start": "2026-11-18T09:00:00+01:00", "end": "2026-11-18T09:25:00+01:00", "status": "completed"}"#

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// (date, focused, completed, interrupted) of each day of `stats --json`.
    static func days(_ world: TestWorld, _ args: String...) async throws -> [[String]] {
        let before = (world.console.stdout.count, world.console.stderr.count)
        let code = await world.run(["stats", "--json"] + args)
        let r = (code: code, out: String(world.console.stdout.dropFirst(before.0)), err: String(world.console.stderr.dropFirst(before.1)))
        #expect(r.code == 0, "\(r.err)")
        let days = try #require(try json(r.out)["days"] as? [[String: Any]])
        return days.map { d in ["date", "focused_seconds", "completed", "interrupted"].map { "\(d[$0] ?? "?")" } }
    }

    /// "Today" in `status`, the countdown and the daemon's day summary counts a day's focus as
    /// the stats do: the part of each session inside the day.
    @Test func todaysFocusIsTheDaysShareOfAForgottenTimerAsInStats() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        #expect(await world.output("import", try dir.file("h.jsonl", Self.forgotten + "\n")).code == 0)
        // Friday the 20th, late: the timer's 23h 30m since midnight, not the 0 of a day on
        // which no session started.
        world.now = TestWorld.instant("2026-11-20T23:45:00+01:00")
        #expect(await world.output("status", "--format", "{today}").out == "23h30m\n")
        let friday = world.calendar.startOfDay(LocalDate(year: 2026, month: 11, day: 20))
        let thursday = world.calendar.startOfDay(LocalDate(year: 2026, month: 11, day: 19))
        let summary = try world.database.dayTotals(from: friday, to: friday.addingTimeInterval(86_400))
        #expect(summary.focusedSeconds == 84_600 && summary.interrupted == 0, "23h 30m, counted on the day it started")
        let first = try world.database.dayTotals(from: thursday, to: friday)
        #expect(first.focusedSeconds == 14_400 && first.interrupted == 1)
        let days = try await Self.days(world, "--from", "2026-11-19", "--to", "2026-11-20")
        #expect(days.map { $0[1] } == ["\(first.focusedSeconds)", "\(summary.focusedSeconds)"], "the same figures as stats")
    }

    /// The agenda shows a session on every day it covers, as it shows a night shift: a forgotten
    /// timer is on its start day, the whole next day and not the day after, each with that day's
    /// share of its focus; the JSON lists it on each of those days too.
    @Test func theAgendaShowsAForgottenTimerOnEveryDayItCovers() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        #expect(await world.output("import", try dir.file("h.jsonl", Self.forgotten + "\n")).code == 0)
        world.now = TestWorld.instant("2026-11-22T10:00:00+01:00")
        let thursday = await world.output("agenda", "2026-11-19")
        #expect(thursday.out.contains("  20:00–(23:30)  ✗ Thesis/Ch 2  4h of 27h 30m focused this day\n"), "\(thursday.out)")
        let friday = await world.output("agenda", "2026-11-20")
        #expect(friday.out.hasPrefix("Fri 20 Nov 2026\n  (20:00)–23:30  ✗ Thesis/Ch 2  23h 30m of 27h 30m focused this day\n"), "\(friday.out)")
        let saturday = await world.output("agenda", "2026-11-21")
        #expect(!saturday.out.contains("Thesis/Ch 2"))
        for (day, count) in [("2026-11-19", 1), ("2026-11-20", 1), ("2026-11-21", 0)] {
            let sessions = try #require(try Self.json(await world.output("agenda", day, "--json").out)["sessions"] as? [[String: Any]])
            #expect(sessions.count == count, "\(day)")
        }
        // A session wholly inside its day is said as before.
        #expect(await world.output("log", "add", "Thesis/Ch 2", "--start", "2026-11-21 09:00", "--duration", "25m").code == 0)
        #expect(await world.output("agenda", "2026-11-21").out.contains("  09:00–09:25  ✓ Thesis/Ch 2  25m focused\n"))
    }

    @Test func aForgottenTimerIsImportedOnceWithAWarningAndSpreadOverItsDays() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("h.jsonl", Self.short + "\n\n" + Self.forgotten + "\n")
        let r = await world.output("import", path)
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: \(path):3: a session of 27h 30m (a forgotten timer?): imported as one session\n")
        #expect(r.out == "Imported 2 sessions (0 already present), created 1 task and 1 subtask.\n")
        #expect(try CLIFixtures.count(world, "timeLog") == 2)
        // 4h on the evening it started, 23h 30m the next day; counted once, on the day it started.
        let days = try await Self.days(world, "--from", "2026-11-18", "--to", "2026-11-21")
        #expect(days == [["2026-11-18", "1500", "1", "0"], ["2026-11-19", "14400", "0", "1"],
                         ["2026-11-20", "84600", "0", "0"], ["2026-11-21", "0", "0", "0"]])
        let totals = try #require(try Self.json(await world.output("stats", "--json", "--last", "7").out)["totals"] as? [String: Int])
        #expect(totals == ["focused_seconds": 1500 + 99_000, "completed": 1, "interrupted": 1])
        // A window that starts inside it gets only its share, and does not count it.
        #expect(try await Self.days(world, "--from", "2026-11-20", "--to", "2026-11-20") == [["2026-11-20", "84600", "0", "0"]])
        // Importing again adds nothing.
        let again = await world.output("import", path)
        #expect(again.code == 0)
        #expect(again.out == "Imported 0 sessions (2 already present), created 0 tasks and 0 subtasks.\n")
        #expect(try CLIFixtures.count(world, "timeLog") == 2)
        // Export round-trips it: a fresh database importing the export reports the same.
        let exported = await world.output("export")
        #expect(exported.out.contains(#""start": "2026-11-19T19:00:00Z", "end": "2026-11-20T22:30:00Z""#))
        let other = try TestWorld()
        let copy = try dir.file("copy.jsonl", exported.out)
        #expect(await other.output("import", copy).code == 0)
        #expect(await other.output("stats", "--json", "--last", "7").out == (await world.output("stats", "--json", "--last", "7")).out)
        #expect(await other.output("export").out == exported.out)
    }

    @Test func aMiddleDayGetsItsWholeLengthAcrossTheEndOfSummerTime() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        // Berlin leaves summer time on 2026-10-25, a 25-hour day; the session runs 49 hours,
        // paused half of it: its focus is spread by wall time.
        let path = try dir.file("h.csv", """
            task,start,end,status,focused_seconds
            Thesis,2026-10-24T12:00:00+02:00,2026-10-26T12:00:00+01:00,completed,
            Gym,2026-10-24T12:00:00+02:00,2026-10-26T12:00:00+01:00,completed,88200

            """)
        let r = await world.output("import", path)
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: \(path):2: a session of 49h (a forgotten timer?): imported as one session\n"
                    + "focus: warning: \(path):3: a session of 49h (a forgotten timer?): imported as one session\n")
        #expect(try await Self.days(world, "--from", "2026-10-23", "--to", "2026-10-27") == [
            ["2026-10-23", "0", "0", "0"], ["2026-10-24", "\(43_200 + 21_600)", "2", "0"],
            ["2026-10-25", "\(90_000 + 45_000)", "0", "0"], ["2026-10-26", "\(43_200 + 21_600)", "0", "0"],
            ["2026-10-27", "0", "0", "0"],
        ])
        let r2 = await world.output("stats", "--json", "--from", "2026-10-25", "--to", "2026-10-25", "--task", "Gym")
        let tasks = try #require(try Self.json(r2.out)["tasks"] as? [[String: Any]])
        #expect(tasks.map { $0["focused_seconds"] as? Int } == [45_000])
    }

    @Test(arguments: [
        ("timew.json", """
            [
            {"id":2,"start":"20261120T080000Z","end":"20261120T082500Z","tags":["Thesis"]},
            {"id":1,"start":"20261119T080000Z","end":"20261120T113000Z","tags":["Thesis"]}
            ]

            """, 3),
        ("frames", """
            [
             [1795161600, 1795163100, "Thesis", "a6c4c6a37c5d4a3ab6e9ac8c1e7cc0a1", [], 1795163100],
             [1795000000, 1795099000, "Thesis", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", [], 1795099000]
            ]
            """, 3),
        ("history", """
            2026-11-20T09:00:00+01:00 description="Thesis" duration=25
            2026-11-18T09:00:00+01:00 description="Thesis" duration=1650

            """, 2),
        ("h.csv", """
            task,start,end,status
            Thesis,2026-11-20T09:00:00Z,2026-11-20T09:25:00Z,completed
            Thesis,2026-11-18T09:00:00Z,2026-11-19T12:30:00Z,interrupted

            """, 3),
    ] as [(String, String, Int)])
    func everyFormatImportsAForgottenTimerWithItsLine(name: String, text: String, line: Int) async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file(name, text)
        let r = await world.output("import", path)
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: \(path):\(line): a session of 27h 30m (a forgotten timer?): imported as one session\n")
        #expect(r.out.hasPrefix("Imported 2 sessions (0 already present)"))
        let logs = await world.output("log", "--json", "--last", "30")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(logs.out.utf8)) as? [[String: Any]])
        #expect(list.map { $0["focused_seconds"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1500, 99_000])
        #expect(await world.output("import", path).out.hasPrefix("Imported 0 sessions (2 already present)"))
    }

    @Test(arguments: [
        ("h.jsonl", #"{"task": "T", "start": "2026-10-01T00:00:00Z", "end": "2026-11-01T00:00:01Z", "status": "completed"}"#,
         "1: the session lasts 744h, more than 31 days; check its end (a session of up to 31 days is imported as one)"),
        ("timew.json", "[\n{\"start\":\"20251119T080000Z\",\"end\":\"20261120T113000Z\"}\n]",
         "2: entry 1: the session lasts 8787h 30m, more than 31 days; check its end (a session of up to 31 days is imported as one)"),
        ("history", "2026-10-01T09:00:00+01:00 duration=50000\n",
         "1: duration=50000 minutes is more than 31 days; check it (a session of up to 31 days is imported as one)"),
    ] as [(String, String, String)])
    func aSessionOfMoreThan31DaysIsABrokenEndAndRefusesTheFile(name: String, text: String, reason: String) async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file(name, text)
        let r = await world.output("import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path):\(reason)\n")
        #expect(try CLIFixtures.count(world, "timeLog") == 0)
    }

    @Test func manyForgottenTimersAreSaidTwentyLinesAndACount() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        var lines: [String] = []
        for k in 0..<23 {
            let day = String(format: "2026-10-%02d", k + 1)
            lines.append(#"{"task": "T", "start": "\#(day)T00:00:00Z", "end": "\#(day)T00:00:00Z", "status": "completed"}"#
                .replacingOccurrences(of: #""end": "\#(day)T00:00:00Z""#, with: #""end": "\#(String(format: "2026-10-%02d", k + 2))T06:00:00Z""#))
        }
        let path = try dir.file("h.jsonl", lines.joined(separator: "\n") + "\n")
        let r = await world.output("import", path)
        #expect(r.code == 0)
        let err = r.err.split(separator: "\n")
        #expect(err.count == 21)
        #expect(err.first == "focus: warning: \(path):1: a session of 30h (a forgotten timer?): imported as one session")
        #expect(err.last == "focus: warning: \(path): 3 more sessions longer than a day, each imported as one session")
        #expect(try CLIFixtures.count(world, "timeLog") == 23)
    }

    @Test func logAddTakesALongSessionOnlyWithAllowLong() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        let refused = await world.output("log", "add", "Thesis", "--start", "2026-11-19 20:00", "--end", "2026-11-20 23:30")
        #expect(refused.code == 64)
        #expect(refused.err == "focus: error: the session would last 27h 30m, more than a day. If a timer ran on (a forgotten timer), pass --allow-long to record it as one session; otherwise check the start and end.\n")
        #expect(try CLIFixtures.count(world, "timeLog") == 0)
        let ok = await world.output("log", "add", "Thesis", "--start", "2026-11-19 20:00", "--end", "2026-11-20 23:30", "--allow-long")
        #expect(ok.code == 0)
        #expect(ok.out == "Recorded #1: Thesis Thu 19 Nov 20:00, 27h 30m.\n")
        #expect(try await Self.days(world, "--from", "2026-11-19", "--to", "2026-11-20") == [["2026-11-19", "14400", "1", "0"], ["2026-11-20", "84600", "0", "0"]])
        // More than 31 days is refused even so.
        let tooLong = await world.output("log", "add", "Thesis", "--start", "2026-10-01 08:00", "--duration", "800h", "--allow-long")
        #expect(tooLong.code == 64)
        #expect(tooLong.err == "focus: error: invalid session length '800h': expected at most 31 days; check the start and end.\n")
        // A session added two days into it overlaps it, and is said to.
        let inside = await world.output("log", "add", "Thesis", "--start", "2026-11-20 22:00", "--duration", "25m")
        #expect(inside.code == 0)
        #expect(inside.err == "focus: warning: this overlaps 1 recorded session.\n")
        // Edits: a new note or a move keeps the length; a longer length needs the flag again.
        #expect(await world.run("log", "edit", "1", "--note", "forgot to stop") == 0)
        #expect(await world.run("log", "edit", "1", "--start", "2026-11-19 19:00") == 0)
        let longer = await world.output("log", "edit", "1", "--duration", "30h")
        #expect(longer.code == 64)
        #expect(longer.err.contains("pass --allow-long"))
        #expect(await world.run("log", "edit", "1", "--duration", "30h", "--allow-long") == 0)
        let entry = try #require(try world.database.session(id: 1))
        #expect(entry.log.endedAt.timeIntervalSince(entry.log.startedAt) == 30 * 3600)
        #expect(entry.log.note == "forgot to stop")
    }

    @Test func theTaskTotalsAndTheLogListCountItOnce() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("h.jsonl", Self.forgotten + "\n")
        #expect(await world.run("import", path) == 0)
        let list = await world.output("task", "list", "--json")
        #expect(list.out.contains(#""logged_seconds": 99000"#))
        let log = await world.output("log", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["focused_seconds"] as? Int == 99_000)
        // Listed once, under the day it started, saying on which day it ended.
        let text = await world.output("log", "--last", "7")
        #expect(text.out == "Thu 19 Nov 2026  ·  27h 30m\n  #1  20:00–23:30 (+1d)  27h 30m ✗  Thesis/Ch 2\n")
    }

    @Test func anEditThatKeepsTheLengthNeedsNoFlagEvenPastTheCap() async throws {
        let world = try TestWorld()
        await world.run("task", "add", "Thesis")
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-01 08:00", "--duration", "25m") == 0)
        // A database edited by hand: a session of 40 days.
        try world.database.writer.write { try $0.execute(sql: "UPDATE timeLog SET startedAt = endedAt - 40 * 86400, focusedSeconds = 40 * 86400") }
        #expect(await world.run("log", "edit", "1", "--note", "found it") == 0)
        let days = try await Self.days(world, "--from", "2026-10-01", "--to", "2026-10-03")
        #expect(days.map { $0[1] } == ["86400", "86400", "86400"])
    }
}
