import FocusCoreTestSupport
import FocusRendering
import FocusText
import Foundation
import Testing
import FocusCore

@Suite struct StatsRendererTests {
    typealias F = StatsFixtures

    static let today = F.day(2026, 11, 22)

    static let week = F.week([
        F.nov(16, 9, 0, minutes: 90, "Thesis", "Chapter 2", focused: 5400, planned: 5400),
        F.nov(17, 23, 30, minutes: 50, "Thesis", "Chapter 3"),
        F.nov(19, 14, 0, minutes: 25, "Groceries", status: .interrupted),
        F.nov(22, 9, 0, minutes: 25, "Thesis", "Chapter 2"),
        F.nov(10, 9, 0, minutes: 60, "Thesis", "Chapter 2"),
    ], progress: [
        SubtaskProgress(task: "Thesis", subtask: "Chapter 2", estimateSeconds: 14_400, loggedSeconds: 7800, done: false, lastWorkedAt: nil),
        SubtaskProgress(task: "Thesis", subtask: "Chapter 3", estimateSeconds: 2400, loggedSeconds: 3000, done: true, lastWorkedAt: F.local(F.berlin, 2026, 11, 18, 0, 20)),
    ])

    @Test func weekAtEightyColumnsWithoutColour() {
        let expected = """
        Focus · 2026-11-16 → 2026-11-22 · Europe/Berlin

        Mon 16 Nov  AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA  1h 30m  ✓1
        Tue 17 Nov  AAAAAAAAAAAAAAA                                  30m  ✓1
        Wed 18 Nov  AAAAAAAAAA                                       20m
        Thu 19 Nov  BBBBBBBBBBBB                                     25m     ✗1
        Fri 20 Nov  ·                                                 0m
        Sat 21 Nov  ·                                                 0m
        Sun 22 Nov  AAAAAAAAAAAA                                     25m  ✓1     ◂ today
                    A Thesis · B Groceries

        Share by task
        A Thesis     █████████████████████████████████████████████████████████████   87%
        B Groceries  █████████▎                                                      13%

        Task                                                     Time  Share  ✓  ✗  Rate
        Thesis                                                 2h 45m    87%  3  0  100%
          Chapter 2                                            1h 55m    61%  2  0  100%
          Chapter 3                                               50m    26%  1  0  100%
        Groceries                                                 25m    13%  0  1    0%

        Total        3h 10m · ✓3 ✗1 · 75% completed
        Daily avg    27m over 7 days (5 with focus)
        Best day     Mon 16 Nov · 1h 30m
        Streak       1 day
        Previous     1h · 9–15 Nov · ▲ 217%

        Estimates
          Thesis/Chapter 2                                          2h 10m of 4h   54%
          Thesis/Chapter 3                                            50m of 40m  125% ✓
          Your estimates run 1.3× short (1 finished subtask).

        Insights
          Best hour       09:00–10:00 · 100% of 2 sessions completed
          Worst hour      14:00–15:00 · 0% of 1 session completed
          By length       16–25m 67% · >60m 100%
          Suggested span  1h 30m (>60m sessions finish ≥ 80%)

        """
        let text = StatsRenderer(width: 80, color: false, today: Self.today).render(Self.week).string
        #expect(text == expected)
    }

    static let crowded = F.week([
        F.nov(16, 9, 0, minutes: 25, "A task with a very long title that goes on and on past any terminal", "and a subtask with an equally long title, too long to fit"),
        F.nov(17, 9, 0, minutes: 1500, "日本語のタスク名はとても長いです日本語のタスク名", "絵文字 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉"),
        F.nov(18, 9, 0, minutes: 45, "Short", status: .interrupted),
    ] + (0..<120).map { F.nov(19, 0, $0 % 50, minutes: 1, "Many") }, progress: [
        SubtaskProgress(task: "A task with a very long title that goes on and on", subtask: "and a subtask with an equally long title", estimateSeconds: 360_000, loggedSeconds: 300_000, done: false, lastWorkedAt: nil),
    ], taskFilter: "A very long task filter path/with a subtask name that is long")

    @Test(arguments: [40, 60, 80, 132])
    func everyLineFitsTheWidth(width: Int) {
        for report in [Self.week, Self.crowded, F.week([])] {
            let text = StatsRenderer(width: width, color: false, today: Self.today).render(report).string
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(TerminalText.width(String(line)) <= width, "\(line)")
            }
        }
    }

    @Test func colouredLinesFitTheWidthOnceEscapesAreRemoved() throws {
        let text = StatsRenderer(width: 60, color: true, today: Self.today).render(Self.crowded).string
        #expect(text.contains("\u{1B}[36m█"))
        let stripped = try Regex("\u{1B}\\[[0-9;]*m")
        for line in text.split(separator: "\n") {
            #expect(TerminalText.width(String(line).replacing(stripped, with: "")) <= 60)
        }
    }

    /// A day of two tasks is cut in proportion to their time; past six tasks the rest share `+`.
    static let mixed = F.week([
        F.nov(16, 9, 0, minutes: 60, "Thesis"), F.nov(16, 11, 0, minutes: 30, "Reading"),
        F.nov(17, 9, 0, minutes: 30, "Thesis"),
    ] + ["Admin", "Email", "Gym", "Music", "Cooking"].enumerated().map { k, task in F.nov(18, 9 + k, 0, minutes: 10, task) })

    @Test func dayBarsAreCutByTaskWithALetterLegendWithoutColourAt40Columns() {
        let text = StatsRenderer(width: 40, color: false, today: Self.today).render(Self.mixed).string
        let head = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(22).joined(separator: "\n")
        #expect(head == """
        Focus · 2026-11-16 → 2026-11-22 · Europ…

        Mon 16  AAAAAAAAAAABBBBBB  1h 30m  ✓2
        Tue 17  AAAAAA                30m  ✓1
        Wed 18  CCDDEEFF+             50m  ✓5
        Thu 19  ·                      0m
        Fri 20  ·                      0m
        Sat 21  ·                      0m
        Sun 22  ·                      0m      ◂
                A Thesis · B Reading · C Admin
                D Cooking · E Email · F Gym
                + other

        Share by task
        A Thesis   ███████████████████████   53%
        B Reading  ███████▋                  18%
        C Admin    ██▌                        6%
        D Cooking  ██▌                        6%
        E Email    ██▌                        6%
        F Gym      ██▌                        6%
        + other    ██▌                        6%

        """, "\(text)")
    }

    @Test func inColourEachTaskHasAColourAndTheLegendShowsIt() {
        let text = StatsRenderer(width: 80, color: true, today: Self.today).render(Self.mixed).string
        let monday = text.split(separator: "\n").first { $0.hasPrefix("Mon 16 Nov") }.map(String.init) ?? ""
        #expect(monday.contains("Mon 16 Nov  \u{1B}[36m██████"), "\(monday)")
        #expect(monday.contains("█\u{1B}[0m\u{1B}[35m█"), "\(monday)")
        #expect(text.contains("\u{1B}[36m█\u{1B}[0m Thesis   \u{1B}[35m█\u{1B}[0m Reading"), "\(text)")
        #expect(!text.contains("AAAA"))
    }

    /// Three tasks of 1m40s each: each alone would round to 2m, 6m against a total of 5m. What
    /// is shown adds up (2m + 2m + 1m), the days too, and the exact figures stay in --json.
    @Test func theTimesShownAddUpToTheTotalShown() {
        let report = F.week([
            F.nov(18, 9, 0, minutes: 2, "Alpha", focused: 100, planned: 100),
            F.nov(18, 10, 0, minutes: 2, "Beta", focused: 100, planned: 100),
            F.nov(19, 9, 0, minutes: 2, "Gamma", focused: 100, planned: 100),
        ])
        let text = StatsRenderer(width: 80, color: false, today: Self.today).render(report).string
        let lines = text.split(separator: "\n").map(String.init)
        func time(_ row: String) -> String? { lines.first { $0.hasPrefix(row) }?.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(["Alpha", "Beta", "Gamma"].map(time) == ["2m", "2m", "1m"], "\(text)")
        #expect(lines.contains { $0.hasPrefix("Total        5m") }, "\(text)")
        let days = lines.filter { $0.hasPrefix("Wed 18 Nov") || $0.hasPrefix("Thu 19 Nov") }
        // 3m20s and 1m40s: 3m and 2m, as the total's 5m.
        #expect(days.map { $0.split(separator: " ").contains("3m") } == [true, false], "\(days)")
        #expect(days.map { $0.split(separator: " ").contains("2m") } == [false, true], "\(days)")
    }

    /// Shown parts add up to the shown whole for any split (seeded), each within a minute of its
    /// exact value.
    @Test func shownMinutesAddUpForAnySplit() {
        var random = SeededRandom(seed: 42)
        for _ in 0..<2000 {
            let parts = (0..<Int.random(in: 1...8, using: &random)).map { _ in Int.random(in: 0...20_000, using: &random) }
            let whole = parts.reduce(0, +)
            let shown = StatsMath.shownMinutes(parts, whole: whole)
            guard whole >= 60 else {
                #expect(shown == parts)
                continue
            }
            #expect(shown.reduce(0, +) == (whole + 30) / 60 * 60, "\(parts) → \(shown)")
            #expect(zip(parts, shown).allSatisfy { abs($0 - $1) < 60 }, "\(parts) → \(shown)")
        }
    }

    @Test func noEscapesWithoutColour() {
        let text = StatsRenderer(width: 80, color: false, today: Self.today).render(Self.crowded).string
        #expect(!text.contains("\u{1B}"))
    }

    @Test func controlCharactersInNamesNeverReachTheTerminal() {
        let evil = "Evil\u{1B}[2J\u{7}\u{9B}31m\u{202E}name\u{2066}\u{2069}\u{200F}\ttab"
        let r = F.week([F.nov(16, 9, 0, minutes: 25, evil, "sub\u{1B}]0;title\u{7}")], taskFilter: evil)
        let text = StatsRenderer(width: 80, color: false, today: Self.today).render(r).string
        for scalar in ["\u{1B}", "\u{7}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{2069}", "\u{200F}", "\t"] {
            #expect(!text.contains(scalar))
        }
        // Neutralised visibly (U+FFFD), a tab kept as a space: `DisplayText`'s rule.
        #expect(text.contains("Evil\u{FFFD}[2J\u{FFFD}\u{FFFD}31m\u{FFFD}name\u{FFFD}\u{FFFD}\u{FFFD} tab"))
        #expect(text.contains("  sub\u{FFFD}]0;title\u{FFFD}"))
    }

    @Test func emptyWindowSaysSoAndHowToStart() {
        let text = StatsRenderer(width: 80, color: false, today: Self.today).render(F.week([])).string
        #expect(text == """
        Focus · 2026-11-16 → 2026-11-22 · Europe/Berlin

        No focus sessions between 2026-11-16 and 2026-11-22.
        Start one with `focus start "Thesis/Chapter 2"`.

        """)
        let filtered = StatsRenderer(width: 80, color: false, today: Self.today).render(F.week([], taskFilter: "Thesis")).string
        #expect(filtered.contains("Focus · 2026-11-16 → 2026-11-22 · Europe/Berlin · Thesis\n"))
        #expect(filtered.contains("No focus sessions for Thesis between 2026-11-16 and 2026-11-22."))
    }

    @Test func todayIsMarkedOnlyInsideTheWindow() {
        let inside = StatsRenderer(width: 80, color: false, today: Self.today).render(Self.week).string
        #expect(inside.contains("Sun 22 Nov  AAAAAAAAAAAA                                     25m  ✓1     ◂ today\n"))
        let outside = StatsRenderer(width: 80, color: false, today: F.day(2026, 12, 1)).render(Self.week).string
        #expect(!outside.contains("today"))
    }

    @Test(arguments: [(0, "0m"), (42, "42s"), (59, "59s"), (60, "1m"), (89, "1m"), (90, "2m"), (2700, "45m"), (5399, "1h 30m"), (5400, "1h 30m"), (7200, "2h"), (90_000, "25h")])
    func durationsReadLikePeopleWriteThem(seconds: Int, text: String) {
        #expect(TerminalText.duration(seconds) == text)
    }

    @Test(arguments: [("✓✗█▏◂·", 6), ("日本", 4), ("e\u{301}", 1), ("🎉", 2), ("abc", 3)])
    func displayWidthCountsColumns(text: String, columns: Int) {
        #expect(TerminalText.width(text) == columns)
    }

    @Test func truncationKeepsWideCharactersWhole() {
        #expect(TerminalText.truncated("日本語のタスク", to: 6) == "日本…")
        #expect(TerminalText.truncated("short", to: 10) == "short")
    }
}
