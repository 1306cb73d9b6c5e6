import FocusCoreTestSupport
import FocusRendering
import Foundation
import Testing
import FocusCore

@Suite struct HTMLReportRendererTests {
    @Test(arguments: [
        ("Mon 16 Nov · 2h 05m", "Mon 16 Nov · 2h 05m"),
        ("Plain title 42", "Plain title 42"),
        ("R&D <draft> \"one\" it's", "R&amp;D &lt;draft&gt; &quot;one&quot; it&#39;s"),
        ("tab\there\u{7}bell", "tab here\u{FFFD}bell"),
        ("", ""),
    ])
    func escapesMarkupAndControlCharacters(_ text: String, _ expected: String) {
        #expect(HTMLReportRenderer.escape(text) == expected)
    }

    typealias F = StatsFixtures

    static let generatedAt = F.local(F.berlin, 2026, 11, 22, 18, 0)

    static func html(_ r: StatsReport) -> String { HTMLReportRenderer(generatedAt: generatedAt).render(r) }

    /// The text of the embedded `focus-stats` element.
    static func embedded(_ html: String) -> String? {
        let open = #"<script type="application/json" id="focus-stats">"#
        guard let start = html.range(of: open), let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    @Test func theHeatmapFillsThePageAndItsLastMonthNameFitsInside() throws {
        let html = Self.html(StatsRendererTests.week)
        #expect(html.contains(".heatmap { width: 100%; }"))
        #expect(!html.contains("max-width: 30rem"))
        let svg = try #require(html.range(of: #"<svg class="heatmap" viewBox="0 0 "#))
        let width = try #require(Double(html[svg.upperBound...].prefix { $0 != " " }))
        // Month names sit on the top row (y="12"); the last one needs about 3 characters of room.
        let labels = html.components(separatedBy: #"<text class="tick" x=""#).dropFirst()
            .filter { $0.contains(#"" y="12">"#) }
            .compactMap { Double($0.prefix { $0 != "\"" }) }
        let last = try #require(labels.max())
        #expect(last + 3 * 7 <= width, "the last month label at x=\(last) is clipped by the width \(width)")
    }

    @Test func embedsTheSameFiguresAsStatsJSON() throws {
        let r = StatsRendererTests.week
        let text = try #require(Self.embedded(Self.html(r)))
        #expect(text == r.json().rendered())
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["from"] as? String == "2026-11-16")
        #expect((parsed?["totals"] as? [String: Any])?["focused_seconds"] as? Int == 11_400)
    }

    @Test func taskNamesCannotOpenOrCloseElements() throws {
        let name = #"<script>alert("x")</script> & 'co'"#
        let r = F.week([F.nov(16, 9, 0, minutes: 25, name, "</script><!--")])
        let html = Self.html(r)
        let text = try #require(Self.embedded(html))
        // Outside the JSON element the name is escaped text; inside it `</` cannot end the element.
        let markup = html.replacingOccurrences(of: text, with: "")
        #expect(!markup.contains("<script>alert"))
        #expect(markup.components(separatedBy: "<script").count == 2)  // only the JSON element
        #expect(html.components(separatedBy: "</script").count == 2)
        #expect(!html.contains("<!--"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"))
        #expect(text.contains(#""task": "<script>alert(\"x\")<\/script> & 'co'""#))
        #expect(text.contains(#""subtask": "<\/script><\u0021--""#))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let task = (parsed?["tasks"] as? [[String: Any]])?.first
        #expect(task?["task"] as? String == name)
        #expect((task?["subtasks"] as? [[String: Any]])?.first?["subtask"] as? String == "</script><!--")
    }

    @Test func isSelfContained() {
        for r in [StatsRendererTests.week, StatsRendererTests.crowded, F.week([])] {
            let html = Self.html(r).lowercased()
            #expect(!html.contains("http"))
            #expect(!html.contains("src="))
            #expect(!html.contains("<link"))
            #expect(!html.contains("url("))
            #expect(!html.contains("@import"))
            #expect(!html.contains("<script>"))
        }
    }

    @Test func readableInDarkModeAndInPrint() {
        let html = Self.html(StatsRendererTests.week)
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        #expect(html.contains("@media print"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<title>Focus · 2026-11-16 → 2026-11-22</title>"))
        #expect(html.contains("Generated 2026-11-22 18:00"))
    }

    @Test func chartsTablesAndHeatmap() {
        let html = Self.html(StatsRendererTests.week)
        #expect(html.contains(#"<svg class="bars""#))
        #expect(html.contains(#"<svg class="donut-chart""#))
        #expect(html.contains(#"<svg class="heatmap""#))
        #expect(html.components(separatedBy: #" rx="2"><title>"#).count - 1 == 84)
        #expect(html.components(separatedBy: #"<rect class="nd""#).count - 1 == 70)
        #expect(html.contains("<title>2026-11-16 · 1h 30m</title>"))
        #expect(html.contains(#"<tr><td>2026-11-16</td><td>Mon</td><td class="num">1h 30m</td><td class="num">5400</td><td class="num">1</td><td class="num">0</td></tr>"#))
        #expect(html.contains(#"<tr class="sub"><td>Chapter 2</td><td class="num">1h 55m</td><td class="num">61%</td>"#))
        #expect(html.contains("<th colspan=\"2\">Total</th><td class=\"num\">3h 10m</td><td class=\"num\">11400</td>"))
        #expect(html.contains("Your estimates run 1.3× short"))
        #expect(html.contains("Suggested attention span: <strong>1h 30m</strong>"))
    }

    @Test func barsAreStackedInEachTasksColour() {
        let r = F.week([F.nov(16, 9, 0, minutes: 50, "Thesis"), F.nov(16, 11, 0, minutes: 25, "Groceries")])
        let colors = TaskColors(titles: ["Thesis", "Groceries"])
        let html = Self.html(r)
        let thesis = #"fill="\#(colors.color(for: "Thesis"))"><title>2026-11-16 · Thesis · 50m</title>"#
        let groceries = #"fill="\#(colors.color(for: "Groceries"))"><title>2026-11-16 · Groceries · 25m</title>"#
        #expect(html.contains(thesis))
        #expect(html.contains(groceries))
        #expect(colors.color(for: "Thesis") != colors.color(for: "Groceries"))
    }

    @Test func taskColoursAreStableAndDistinctForTheTopTasks() {
        let titles = (1...12).map { "Task \($0)" }
        let colors = TaskColors(titles: titles)
        #expect(Set(titles.prefix(10).map(colors.color(for:))).count == 10)
        #expect(colors.color(for: "Task 11") == TaskColors.other)
        #expect(TaskColors(titles: titles) == colors)
        // The most important task always gets the colour its title names.
        let first = TaskColors.palette[Int(TaskColors.hash("Thesis") % 10)]
        #expect(TaskColors(titles: ["Thesis", "Groceries"]).color(for: "Thesis") == first)
        #expect(TaskColors(titles: ["Thesis"]).color(for: "Thesis") == first)
        #expect(TaskColors.hash("Thesis") == TaskColors.hash("thesis"))
        #expect(TaskColors.hash("") == 2_166_136_261)
    }

    @Test func emptyReportStillRendersTheHeatmapAndTheFigures() throws {
        let r = F.week([])
        let html = Self.html(r)
        #expect(html.contains("No focus sessions between 2026-11-16 and 2026-11-22."))
        #expect(!html.contains(#"<svg class="bars""#))
        #expect(try #require(Self.embedded(html)) == r.json().rendered())
    }
}
