import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusText
import Foundation
import Testing

/// The built `focus` binary, run as a person would: a database in a temporary directory, the
/// sample history imported, then the HTML report opened in headless Chromium (Debian's
/// `chromium`). Skipped, with a message, when no `chromium` is on PATH.
@Suite struct ReportInChromiumTests {
    static let chromium = findOnPath("chromium")

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium); the report was not rendered"),
          .timeLimit(.minutes(3)))
    func theRenderedReportShowsTheFiguresOfStatsJSON() throws {
        let chromium = try #require(Self.chromium)
        let focus = Sandbox.binary
        let dir = NSTemporaryDirectory() + "focus-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/focus.sqlite"
        let env = ["FOCUS_NOW": "2026-11-22T20:00:00Z", "TZ": "Europe/Berlin", "NO_COLOR": "1", "HOME": dir, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

        let imported = try Self.run(focus, ["import", "--db", db, TestRepository.data("sample-history.jsonl")], env: env)
        #expect(imported.code == 0, "\(imported.err)")
        let stats = try Self.run(focus, ["stats", "--db", db, "--last", "30", "--json"], env: env)
        #expect(stats.code == 0)
        let report = try Self.run(focus, ["report", "--db", db, "--last", "30", "--html", dir + "/report.html"], env: env)
        #expect(report.code == 0, "\(report.err)")

        let url = URL(fileURLWithPath: dir + "/report.html").absoluteString
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                      "--user-data-dir=\(dir)/profile", "--hide-scrollbars"]
        let dom = try Self.run(chromium, common + ["--dump-dom", url], env: env)
        #expect(dom.code == 0, "\(dom.err)")

        // The page Chromium built carries the same figures as `stats --json`: in its embedded
        // JSON, in every row of the day table and in the totals.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any])
        let open = #"<script type="application/json" id="focus-stats">"#
        let start = try #require(dom.out.range(of: open))
        let end = try #require(dom.out.range(of: "</script>", range: start.upperBound..<dom.out.endIndex))
        #expect(String(dom.out[start.upperBound..<end.lowerBound]) + "\n" == stats.out)
        let days = try #require(json["days"] as? [[String: Any]])
        #expect(days.count == 30)
        for day in days {
            let date = try #require(day["date"] as? String)
            let seconds = try #require(day["focused_seconds"] as? Int)
            let completed = try #require(day["completed"] as? Int)
            let interrupted = try #require(day["interrupted"] as? Int)
            let row = "<tr><td>\(date)</td><td>\(StatsDateText.weekdayShort(Self.date(date)))</td><td class=\"num\">\(TerminalText.duration(seconds))</td>"
                + "<td class=\"num\">\(seconds)</td><td class=\"num\">\(completed)</td><td class=\"num\">\(interrupted)</td></tr>"
            #expect(dom.out.contains(row), "no row for \(date)")
        }
        let totals = try #require(json["totals"] as? [String: Int])
        let focused = try #require(totals["focused_seconds"])
        #expect(dom.out.contains("<td class=\"num\">\(TerminalText.duration(focused))</td><td class=\"num\">\(focused)</td>"))
        for task in try #require(json["tasks"] as? [[String: Any]]) {
            let name = try #require(task["task"] as? String)
            let seconds = try #require(task["focused_seconds"] as? Int)
            #expect(dom.out.contains("<td>\(name)</td><td class=\"num\">\(TerminalText.duration(seconds))</td>"), "no row for \(name)")
        }

        // A screenshot of the page as a person sees it.
        let shot = dir + "/report.png"
        let png = try Self.run(chromium, common + ["--window-size=1280,2400", "--screenshot=\(shot)", url], env: env)
        #expect(png.code == 0, "\(png.err)")
        let image = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16–23.
        let width = image[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1280)
        // A blank page compresses to a few kilobytes; charts and tables do not.
        #expect(image.count > 40_000, "screenshot of \(image.count) bytes")
        if let keep = ProcessInfo.processInfo.environment["FOCUS_E2E_KEEP"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }

    // MARK: Helpers

    static func date(_ text: String) -> LocalDate {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return LocalDate(year: parts[0], month: parts[1], day: parts[2])
    }

    static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func run(_ executable: String, _ arguments: [String], env: [String: String]) throws -> (code: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = env
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs (a full pipe would block it).
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
