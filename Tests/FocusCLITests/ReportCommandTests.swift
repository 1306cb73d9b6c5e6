import FocusCore
import FocusTestSupport
import FocusText
import Foundation
import Testing

@Suite struct ReportCommandTests {
    typealias F = CLIFixtures

    /// The text of the page's embedded `focus-stats` element.
    static func embedded(_ html: String) -> String? {
        let open = #"<script type="application/json" id="focus-stats">"#
        guard let start = html.range(of: open), let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    @Test(arguments: [["--last", "7"], ["--last", "30"], ["--from", "2026-10-20", "--to", "2026-11-03"], ["--last", "14", "--task", "Teaching"]])
    func theReportEmbedsExactlyWhatStatsJSONPrints(window: [String]) async throws {
        let world = try TestWorld(now: "2026-11-22T20:00:00Z")
        #expect(await world.run("import", F.dataDirectory + "/sample-history.jsonl") == 0)
        let dir = try TempDir()
        let path = dir.path + "/report.html"
        let r = await world.output(["report", "--html", path] + window)
        #expect(r.code == 0)
        let stats = await world.output(["stats", "--json"] + window)
        let html = try dir.read("report.html")
        #expect(Self.embedded(html).map { $0 + "\n" } == stats.out)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
        let totals = try #require(json["totals"] as? [String: Int])
        let seconds = try #require(totals["focused_seconds"])
        #expect(r.out == "\(path)\n\(json["from"] as? String ?? "?") → \(json["to"] as? String ?? "?")"
            + (window.contains("--task") ? " (Teaching)" : "")
            + ": \(TerminalText.duration(seconds)) focused, \(totals["completed"] ?? -1) completed, \(totals["interrupted"] ?? -1) interrupted.\n")
        // The day table shows the same seconds for every day of the window.
        for day in try #require(json["days"] as? [[String: Any]]) {
            let date = try #require(day["date"] as? String)
            let secs = try #require(day["focused_seconds"] as? Int)
            #expect(html.contains("<tr><td>\(date)</td>"))
            #expect(html.contains("<td class=\"num\">\(secs)</td>"))
        }
    }

    @Test func theReportShowsTagsAsStatsDoesAndTakesTag() async throws {
        let world = try TestWorld(now: "2026-11-22T20:00:00Z")
        #expect(await world.run("task", "add", "Thesis") == 0)
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-20 09:00", "--duration", "25m", "--tag", "deep") == 0)
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-21 09:00", "--duration", "10m", "--interrupted", "--tag", "admin") == 0)
        let dir = try TempDir()
        let all = await world.output("report", "--html", dir.path + "/all.html", "--last", "7")
        #expect(all.code == 0, "\(all.err)")
        let html = try dir.read("all.html")
        #expect(html.contains("<h2>By tag</h2>"))
        #expect(html.contains("<td>+deep</td><td class=\"num\">25m</td>"), "\(html)")
        #expect(html.contains("<td>+admin</td><td class=\"num\">10m</td>"))
        let tagged = await world.output("report", "--html", dir.path + "/deep.html", "--last", "7", "--tag", "deep")
        #expect(tagged.code == 0, "\(tagged.err)")
        #expect(tagged.out.hasSuffix(" (+deep): 25m focused, 1 completed, 0 interrupted.\n"), "\(tagged.out)")
        let stats = await world.output("stats", "--json", "--last", "7", "--tag", "deep")
        #expect(Self.embedded(try dir.read("deep.html")).map { $0 + "\n" } == stats.out)
        #expect(try dir.read("deep.html").contains("· +deep</p>"))
    }

    @Test func theReportReplacesAnOldFileKeepingItsPermissions() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        let dir = try TempDir()
        let path = try dir.file("r.html", "old")
        chmod(path, 0o600)
        let r = await world.output("report", "--html", path, "--last", "3")
        #expect(r.out == "\(path)\n2026-11-20 → 2026-11-22: 1h 55m focused, 2 completed, 1 interrupted.\n")
        let html = try dir.read("r.html")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["r.html"])
    }

    @Test func aReportIntoAPipeIsRefusedAndLeavesItAPipe() async throws {
        let world = try TestWorld()
        try F.seed(world, F.smallHistory)
        let dir = try TempDir()
        let fifo = dir.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = await world.output("report", "--html", fifo, "--last", "3")
        #expect(r.code == 74)
        #expect(r.err.hasPrefix("focus: error: cannot write \(fifo): it is a FIFO (named pipe), not a regular file"))
        #expect(r.out == "")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aReportThatCannotBeWrittenIsAnIOError() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        // A path under a regular file cannot be created, not even by root.
        let file = try dir.file("plain", "x")
        let r = await world.output("report", "--html", file + "/r.html")
        #expect(r.code == 74)
        #expect(r.err.hasPrefix("focus: error: cannot write \(file)"))
        #expect(r.out == "")
    }
}

@Suite struct SampleHistoryTests {
    /// `data/sample-history.jsonl` is what the README shows: six weeks ending Sunday 22
    /// November 2026 in Berlin, with the features it promises.
    @Test func theSampleHistoryHasWhatTheREADMEShows() throws {
        let text = try String(decoding: Data(contentsOf: URL(fileURLWithPath: CLIFixtures.dataDirectory + "/sample-history.jsonl")), as: UTF8.self)
        let records = try InterchangeParser.parse(text, format: .jsonl, file: "sample-history.jsonl")
        let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
        let days = Set(records.map { berlin.day(of: Date(timeIntervalSince1970: Double($0.start))) })
        #expect(days.min() == LocalDate(year: 2026, month: 10, day: 12))
        #expect(days.max() == LocalDate(year: 2026, month: 11, day: 22))
        #expect(days.contains(LocalDate(year: 2026, month: 10, day: 25)))
        let paths = Set(records.map { r in r.subtask.map { "\(r.task)/\($0)" } ?? r.task })
        #expect(paths == ["Thesis/Chapter 2", "Thesis/Chapter 3", "Thesis/Bibliography", "Teaching/Grading", "Teaching/Slides", "Side project", "Reading"])
        let interrupted = records.filter { $0.status == .interrupted }.count
        #expect((10...20).contains(interrupted * 100 / records.count))
        #expect(records.contains { $0.note != nil })
        #expect(records.contains { berlin.day(of: Date(timeIntervalSince1970: Double($0.start))) != berlin.day(of: Date(timeIntervalSince1970: Double($0.end - 1))) })
        #expect(records.filter { $0.plannedSeconds == 1500 }.count > records.count / 2)
        #expect(records.contains { $0.plannedSeconds == 3000 })
        // Offsets as a person in Berlin writes them: +02:00 before the clocks go back, +01:00 after.
        for line in text.split(separator: "\n") {
            #expect(line.contains("+02:00") != line.contains("+01:00"))
            if line.contains("\"start\": \"2026-10-2") && !line.contains("2026-10-25") && !line.contains("2026-10-26")
                && !line.contains("2026-10-27") && !line.contains("2026-10-28") && !line.contains("2026-10-29") {
                #expect(line.contains("+02:00"))
            }
            if line.contains("\"start\": \"2026-11-") { #expect(line.contains("+01:00")) }
        }
    }
}
