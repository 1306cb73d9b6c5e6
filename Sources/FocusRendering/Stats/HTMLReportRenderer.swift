import FocusCore
import FocusText
import FoundationEssentials

/// `focus report --html`: one self-contained page (inline CSS and SVG, no scripts, nothing
/// fetched) with the daily bars stacked by task, a task-share donut, a 12-week heatmap,
/// the day and task tables, the summary, estimates and insights. Light, dark and print
/// styles. The same figures as `focus stats --json` are embedded in
/// `<script type="application/json" id="focus-stats">`.
package struct HTMLReportRenderer: Sendable {
    package let generatedAt: Date

    package init(generatedAt: Date) { self.generatedAt = generatedAt }

    package func render(_ r: StatsReport) -> String {
        let colors = TaskColors(titles: r.tasks.map(\.task))
        var h = ""
        h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>Focus · \(r.window.from) → \(r.window.to)</title>\n"
        h += "<style>\n\(HTMLReportRenderer.css)</style>\n</head>\n<body>\n"
        h += header(r)
        if r.isEmpty {
            h += "<p class=\"empty\">No focus sessions between \(r.window.from) and \(r.window.to).</p>\n"
        } else {
            h += cards(r)
            h += "<section>\n<h2>Daily focus</h2>\n\(dailyBars(r, colors))\(legend(r, colors))</section>\n"
            h += "<section>\n<h2>Share by task</h2>\n<div class=\"donut\">\(donut(r, colors))\(shareList(r, colors))</div>\n</section>\n"
        }
        h += "<section>\n<h2>Last 12 weeks</h2>\n\(heatmap(r))</section>\n"
        h += dayTable(r)
        if !r.isEmpty { h += taskTable(r) }
        if !r.tags.isEmpty { h += tagTable(r) }
        if !r.estimates.subtasks.isEmpty { h += estimates(r.estimates) }
        if !r.insights.isEmpty { h += insights(r.insights) }
        h += "<script type=\"application/json\" id=\"focus-stats\">\(HTMLReportRenderer.embeddedJSON(r.json()))</script>\n"
        h += "</body>\n</html>\n"
        return h
    }

    // MARK: Escaping

    /// Text for HTML content or a quoted attribute: `&`, `<`, `>`, `"` and `'` escaped,
    /// controls neutralised by `DisplayText`'s rule.
    package static func escape(_ s: String) -> String {
        // Most text (dates, durations, plain titles) is printable ASCII with nothing to escape:
        // returned as it is, without a walk through its characters.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }) {
            return s
        }
        var out = ""
        for c in DisplayText(s).string {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// JSON text safe inside a `<script>` element: `</` becomes `<\/` and `<!--` becomes
    /// `<\u0021--` (both only ever occur inside JSON strings, where the escapes are valid).
    package static func embeddedJSON(_ json: JSON) -> String {
        json.rendered()
            .replacing("</", with: "<\\/")
            .replacing("<!--", with: "<\\u0021--")
    }

    private func esc(_ s: String) -> String { HTMLReportRenderer.escape(s) }

    // MARK: Sections

    private func header(_ r: StatsReport) -> String {
        var meta = "\(r.window.from) → \(r.window.to) · \(esc(r.timeZone.identifier))"
        if let filter = r.taskFilter { meta += " · \(esc(filter))" }
        if let tag = r.tagFilter { meta += " · +\(esc(tag))" }
        let stamp = Timestamp.local(generatedAt, in: r.timeZone)
        let generated = String(stamp.prefix(16)).replacing("T", with: " ")
        return "<header>\n<h1>Focus report</h1>\n<p class=\"meta\">\(meta)</p>\n<p class=\"meta\">Generated \(generated)</p>\n</header>\n"
    }

    private func cards(_ r: StatsReport) -> String {
        let s = r.summary
        var items: [(String, String, String)] = [
            ("Total", dur(s.focusedSeconds), "✓\(r.totals.completed) ✗\(r.totals.interrupted)" + (s.completionPercent.map { " · \($0)% completed" } ?? "")),
            ("Daily average", dur(s.dailyAverageSeconds), "over \(r.window.dayCount) \(r.window.dayCount == 1 ? "day" : "days"), \(s.daysWithFocus) with focus"),
        ]
        if let best = s.bestDay {
            items.append(("Best day", dur(best.focusedSeconds), "\(StatsDateText.weekdayShort(best.date)) \(StatsDateText.longDate(best.date))"))
        }
        items.append(("Streak", s.streakDays == 1 ? "1 day" : "\(s.streakDays) days", s.streakEnd.map { "ending \($0)" } ?? "no current streak"))
        let change: String
        if let c = s.changePercent {
            let n = Int(c.rounded(.toNearestOrAwayFromZero))
            change = n > 0 ? "▲ \(n)%" : (n < 0 ? "▼ \(-n)%" : "= 0%")
        } else {
            change = "–"
        }
        items.append(("vs previous period", change, "\(dur(s.previousFocusedSeconds)) from \(s.previous.from) to \(s.previous.to)"))
        var h = "<section class=\"cards\">\n"
        for (label, value, note) in items {
            h += "<div class=\"card\"><div class=\"label\">\(esc(label))</div><div class=\"value\">\(esc(value))</div><div class=\"note\">\(esc(note))</div></div>\n"
        }
        return h + "</section>\n"
    }

    /// Bars per day, stacked by task (tasks past the top colours merged into "Other").
    private func dailyBars(_ r: StatsReport, _ colors: TaskColors) -> String {
        let width = 720.0, height = 240.0
        let left = 48.0, right = 8.0, top = 10.0, bottom = 30.0
        let plotW = width - left - right, plotH = height - top - bottom
        let longest = max(r.days.map(\.focusedSeconds).max() ?? 0, 1)
        let step = HTMLReportRenderer.gridStep(longest)
        let scaleMax = Double(max(step, ((longest + step - 1) / step) * step))
        let n = Double(r.days.count)
        let slot = plotW / n
        let barW = max(1, slot * 0.72)
        let labelEvery = max(1, Int((n / 14).rounded(.up)))

        var s = "<svg class=\"bars\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Focused time per day\">\n"
        var g = step
        s += "<line class=\"axis\" x1=\"\(f(left))\" y1=\"\(f(top + plotH))\" x2=\"\(f(width - right))\" y2=\"\(f(top + plotH))\"/>\n"
        while Double(g) <= scaleMax {
            let y = top + plotH - Double(g) / scaleMax * plotH
            s += "<line class=\"grid\" x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(width - right))\" y2=\"\(f(y))\"/>"
            s += "<text class=\"tick\" x=\"\(f(left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(esc(dur(g)))</text>\n"
            g += step
        }
        for (i, day) in r.days.enumerated() {
            let x = left + Double(i) * slot + (slot - barW) / 2
            var y = top + plotH
            var parts: [(String, Int, String)] = []
            var other = 0
            for slice in day.taskSeconds {
                if colors.byTask[slice.task] != nil {
                    parts.append((slice.task, slice.focusedSeconds, colors.color(for: slice.task)))
                } else {
                    other += slice.focusedSeconds
                }
            }
            if other > 0 { parts.append(("Other", other, TaskColors.other)) }
            for (name, seconds, color) in parts {
                let hgt = Double(seconds) / scaleMax * plotH
                y -= hgt
                s += "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barW))\" height=\"\(f(hgt))\" fill=\"\(color)\">"
                s += "<title>\(day.date) · \(esc(name)) · \(esc(dur(seconds)))</title></rect>\n"
            }
            if i % labelEvery == 0 {
                let cx = left + Double(i) * slot + slot / 2
                s += "<text class=\"tick\" x=\"\(f(cx))\" y=\"\(f(top + plotH + 14))\" text-anchor=\"middle\">\(StatsDateText.weekdayShort(day.date))</text>"
                s += "<text class=\"tick\" x=\"\(f(cx))\" y=\"\(f(top + plotH + 26))\" text-anchor=\"middle\">\(day.date.day) \(StatsDateText.monthShort(day.date))</text>\n"
            }
        }
        return s + "</svg>\n"
    }

    private func legend(_ r: StatsReport, _ colors: TaskColors) -> String {
        var h = "<ul class=\"legend\">"
        for title in colors.top {
            h += "<li><span class=\"swatch\" style=\"background:\(colors.color(for: title))\"></span>\(esc(title))</li>"
        }
        if r.tasks.count > colors.top.count {
            h += "<li><span class=\"swatch\" style=\"background:\(TaskColors.other)\"></span>Other</li>"
        }
        return h + "</ul>\n"
    }

    private func donut(_ r: StatsReport, _ colors: TaskColors) -> String {
        let radius = 70.0, stroke = 28.0, c = 90.0
        let circumference = 2 * Double.pi * radius
        let total = max(r.totals.focusedSeconds, 0)
        var s = "<svg class=\"donut-chart\" viewBox=\"0 0 180 180\" role=\"img\" aria-label=\"Share of focused time by task\">\n"
        s += "<circle class=\"ring\" cx=\"\(f(c))\" cy=\"\(f(c))\" r=\"\(f(radius))\" fill=\"none\" stroke-width=\"\(f(stroke))\"/>\n"
        if total > 0 {
            var offset = 0.0
            for (name, seconds, color) in shares(r, colors) where seconds > 0 {
                let length = Double(seconds) / Double(total) * circumference
                s += "<circle cx=\"\(f(c))\" cy=\"\(f(c))\" r=\"\(f(radius))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(f(stroke))\" "
                s += "stroke-dasharray=\"\(f(length)) \(f(circumference - length))\" stroke-dashoffset=\"\(f(-offset))\" transform=\"rotate(-90 \(f(c)) \(f(c)))\">"
                s += "<title>\(esc(name)) · \(esc(dur(seconds)))</title></circle>\n"
                offset += length
            }
        }
        s += "<text class=\"center\" x=\"\(f(c))\" y=\"\(f(c + 6))\" text-anchor=\"middle\">\(esc(dur(total)))</text>\n"
        return s + "</svg>\n"
    }

    /// Task shares for the donut and its list: the top tasks, then "Other".
    private func shares(_ r: StatsReport, _ colors: TaskColors) -> [(String, Int, String)] {
        var out: [(String, Int, String)] = []
        var other = 0
        for t in r.tasks {
            if colors.byTask[t.task] != nil {
                out.append((t.task, t.focusedSeconds, colors.color(for: t.task)))
            } else {
                other += t.focusedSeconds
            }
        }
        if other > 0 { out.append(("Other", other, TaskColors.other)) }
        return out
    }

    private func shareList(_ r: StatsReport, _ colors: TaskColors) -> String {
        var h = "<ul class=\"legend shares\">"
        for (name, seconds, color) in shares(r, colors) {
            let share = StatsMath.percent(seconds, of: r.totals.focusedSeconds).map { "\($0)%" } ?? "–"
            h += "<li><span class=\"swatch\" style=\"background:\(color)\"></span>\(esc(name)) <span class=\"muted\">\(esc(dur(seconds))) · \(share)</span></li>"
        }
        return h + "</ul>\n"
    }

    /// The heatmap's drawing width in SVG units: about the page's width in pixels, so it fills
    /// the page as the other charts do and its 11-unit labels read as 11 px.
    static let heatmapWidth = 900.0

    /// Weeks as columns (Monday first), weekdays as rows, the 84 days ending `window.to`; each
    /// column as wide as the page allows, so the last month's name has a column of room.
    private func heatmap(_ r: StatsReport) -> String {
        guard let first = r.heatmap.first else { return "" }
        let cellHeight = 14.0, gap = 3.0, left = 30.0, top = 18.0
        let mondayFirst = { (d: LocalDate) in (d.weekday + 6) % 7 }
        let origin = first.date.dayNumber - mondayFirst(first.date)
        let columns = (r.heatmap.last.map { $0.date.dayNumber - origin } ?? 0) / 7 + 1
        let longest = max(r.heatmap.compactMap(\.focusedSeconds).max() ?? 0, 1)
        let width = HTMLReportRenderer.heatmapWidth
        let step = (width - left) / Double(columns)
        let cell = step - gap
        let height = top + 7 * (cellHeight + gap)
        var s = "<svg class=\"heatmap\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" aria-label=\"Focused time per day, last 12 weeks\">\n"
        for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri")] {
            s += "<text class=\"tick\" x=\"0\" y=\"\(f(top + Double(row) * (cellHeight + gap) + cellHeight - 3))\">\(name)</text>\n"
        }
        var lastMonth = 0
        for day in r.heatmap {
            let offset = day.date.dayNumber - origin
            let col = offset / 7
            let row = offset % 7
            let x = left + Double(col) * step
            let y = top + Double(row) * (cellHeight + gap)
            // A month's name above the first column whose top day falls in it (not above the
            // first column when its month ends within days: the next label would overlap it).
            let opensColumn = row == 0 || day.date == first.date
            if opensColumn, day.date.month != lastMonth, col > 0 || day.date.day <= 21 {
                s += "<text class=\"tick\" x=\"\(f(x))\" y=\"12\">\(StatsDateText.monthShort(day.date))</text>\n"
                lastMonth = day.date.month
            }
            let level: String
            let tip: String
            if let seconds = day.focusedSeconds {
                let fraction = Double(seconds) / Double(longest)
                level = seconds == 0 ? "l0" : (fraction <= 0.25 ? "l1" : (fraction <= 0.5 ? "l2" : (fraction <= 0.75 ? "l3" : "l4")))
                tip = "\(day.date) · \(dur(seconds))"
            } else {
                level = "nd"
                tip = "\(day.date) · no data"
            }
            let inWindow = r.window.contains(day.date) ? " in" : ""
            s += "<rect class=\"\(level)\(inWindow)\" x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(cell))\" height=\"\(f(cellHeight))\" rx=\"2\"><title>\(esc(tip))</title></rect>\n"
        }
        return s + "</svg>\n"
    }

    private func dayTable(_ r: StatsReport) -> String {
        var h = "<section>\n<h2>Days</h2>\n<table>\n<thead><tr><th>Date</th><th>Day</th><th class=\"num\">Focused</th><th class=\"num\">Seconds</th><th class=\"num\">Completed</th><th class=\"num\">Interrupted</th></tr></thead>\n<tbody>\n"
        for d in r.days {
            h += "<tr><td>\(d.date)</td><td>\(StatsDateText.weekdayShort(d.date))</td><td class=\"num\">\(esc(dur(d.focusedSeconds)))</td><td class=\"num\">\(d.focusedSeconds)</td><td class=\"num\">\(d.completed)</td><td class=\"num\">\(d.interrupted)</td></tr>\n"
        }
        h += "</tbody>\n<tfoot><tr><th colspan=\"2\">Total</th><td class=\"num\">\(esc(dur(r.totals.focusedSeconds)))</td><td class=\"num\">\(r.totals.focusedSeconds)</td><td class=\"num\">\(r.totals.completed)</td><td class=\"num\">\(r.totals.interrupted)</td></tr></tfoot>\n"
        return h + "</table>\n</section>\n"
    }

    private static let outcomeHead = "<th class=\"num\">Focused</th><th class=\"num\">Share</th><th class=\"num\">Completed</th><th class=\"num\">Interrupted</th><th class=\"num\">Completion</th></tr></thead>\n<tbody>\n"

    /// One row of the task and tag tables: time, share of the total, outcomes, completion rate.
    private func outcomeRow(_ name: String, _ cls: String, _ seconds: Int, _ completed: Int, _ interrupted: Int, total: Int) -> String {
        let share = StatsMath.percent(seconds, of: total).map { "\($0)%" } ?? "–"
        let rate = StatsMath.percent(completed, of: completed + interrupted).map { "\($0)%" } ?? "–"
        return "<tr class=\"\(cls)\"><td>\(esc(name))</td><td class=\"num\">\(esc(dur(seconds)))</td><td class=\"num\">\(share)</td><td class=\"num\">\(completed)</td><td class=\"num\">\(interrupted)</td><td class=\"num\">\(rate)</td></tr>\n"
    }

    private func taskTable(_ r: StatsReport) -> String {
        var h = "<section>\n<h2>Tasks</h2>\n<table>\n<thead><tr><th>Task</th>" + HTMLReportRenderer.outcomeHead
        let total = r.totals.focusedSeconds
        for t in r.tasks {
            h += outcomeRow(t.task, "task", t.focusedSeconds, t.completed, t.interrupted, total: total)
            for s in t.subtasks { h += outcomeRow(s.subtask, "sub", s.focusedSeconds, s.completed, s.interrupted, total: total) }
        }
        h += "</tbody>\n<tfoot>" + outcomeRow("Total", "total", total, r.totals.completed, r.totals.interrupted, total: total).replacing("\n", with: "") + "</tfoot>\n"
        return h + "</table>\n</section>\n"
    }

    /// The "By tag" table, as `focus stats` shows it (README, "Tags"): one row a tag; a session
    /// with two tags counts under each, so the shares may add up to more than 100%. An open
    /// session counts in the time and in neither outcome.
    private func tagTable(_ r: StatsReport) -> String {
        var h = "<section>\n<h2>By tag</h2>\n<table>\n<thead><tr><th>Tag</th>" + HTMLReportRenderer.outcomeHead
        for t in r.tags {
            h += outcomeRow("+" + t.tag, "tag", t.focusedSeconds, t.completed, t.interrupted, total: r.totals.focusedSeconds)
        }
        h += "</tbody>\n</table>\n"
        if r.tags.count > 1 { h += "<p class=\"note\">A session with several tags counts under each.</p>\n" }
        return h + "</section>\n"
    }

    private func estimates(_ e: EstimateReport) -> String {
        var h = "<section>\n<h2>Estimates</h2>\n<table>\n<thead><tr><th>Subtask</th><th class=\"num\">Logged</th><th class=\"num\">Estimate</th><th class=\"num\">Progress</th><th class=\"num\">Actual / estimate</th></tr></thead>\n<tbody>\n"
        for line in e.subtasks {
            let progress = line.progressPercent.map { "\($0)%" } ?? "–"
            let ratio = line.actualRatio.map { "\(StatsMath.oneDecimal($0))×" } ?? ""
            let done = line.done ? " <span class=\"done\">✓ done</span>" : ""
            h += "<tr><td>\(esc(line.task))/\(esc(line.subtask))\(done)</td><td class=\"num\">\(esc(dur(line.loggedSeconds)))</td><td class=\"num\">\(esc(dur(line.estimateSeconds)))</td><td class=\"num\">\(progress)</td><td class=\"num\">\(ratio)</td></tr>\n"
        }
        h += "</tbody>\n</table>\n"
        if let sentence = e.sentence {
            let capitalised = sentence.prefix(1).uppercased() + sentence.dropFirst()
            h += "<p>\(esc(capitalised)) (median over \(e.ratioSample) finished \(e.ratioSample == 1 ? "subtask" : "subtasks")).</p>\n"
        }
        return h + "</section>\n"
    }

    private func insights(_ i: StatsInsights) -> String {
        var h = "<section>\n<h2>Insights</h2>\n"
        if !i.byHour.isEmpty {
            h += "<h3>Completion by hour started</h3>\n<table>\n<thead><tr><th>Hour</th><th class=\"num\">Sessions</th><th class=\"num\">Completed</th><th>Rate</th></tr></thead>\n<tbody>\n"
            for b in i.byHour {
                let mark = b.hour == i.bestHour ? " <span class=\"muted\">best</span>" : (b.hour == i.worstHour ? " <span class=\"muted\">worst</span>" : "")
                h += "<tr><td>\(two(b.hour)):00–\(two((b.hour + 1) % 24)):00\(mark)</td><td class=\"num\">\(b.sessions)</td><td class=\"num\">\(b.completed)</td><td>\(meter(b.completionPercent))</td></tr>\n"
            }
            h += "</tbody>\n</table>\n"
        }
        if !i.byPlannedLength.isEmpty {
            h += "<h3>Completion by planned length</h3>\n<table>\n<thead><tr><th>Planned</th><th class=\"num\">Sessions</th><th class=\"num\">Completed</th><th>Rate</th></tr></thead>\n<tbody>\n"
            for b in i.byPlannedLength {
                h += "<tr><td>\(esc(b.bucket.label))</td><td class=\"num\">\(b.sessions)</td><td class=\"num\">\(b.completed)</td><td>\(meter(b.completionPercent))</td></tr>\n"
            }
            h += "</tbody>\n</table>\n"
            if let span = i.suggestedSpanSeconds, let bucket = i.suggestedSpanBucket {
                h += "<p>Suggested attention span: <strong>\(esc(dur(span)))</strong> (sessions planned \(esc(bucket.label)) finish at least 80% of the time).</p>\n"
            } else {
                h += "<p>No planned length is finished 80% of the time yet, so no attention span is suggested.</p>\n"
            }
        }
        return h + "</section>\n"
    }

    /// A percentage with a small inline bar.
    private func meter(_ percent: Int) -> String {
        let p = min(max(percent, 0), 100)
        return "<span class=\"meter\"><span style=\"width:\(p)%\"></span></span> \(p)%"
    }

    // MARK: Helpers

    private func dur(_ seconds: Int) -> String { TerminalText.duration(seconds) }

    private func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    /// A number with at most one decimal, by hand (no locale).
    private func f(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded(.toNearestOrAwayFromZero))
        if tenths % 10 == 0 { return String(tenths / 10) }
        let sign = tenths < 0 ? "-" : ""
        let a = abs(tenths)
        return "\(sign)\(a / 10).\(a % 10)"
    }

    /// Gridline spacing in seconds: a round step giving at most five lines up to `longest`.
    static func gridStep(_ longest: Int) -> Int {
        let steps = [300, 600, 900, 1800, 3600, 7200, 10_800, 14_400, 21_600, 28_800, 43_200, 86_400]
        return steps.first { longest / $0 <= 5 } ?? 86_400
    }

    static let css = """
    :root { color-scheme: light dark; --bg: #ffffff; --fg: #1d2330; --muted: #5b6472; --line: #dfe3e8;
      --card: #f4f6f8; --l0: #ebedf0; --l1: #c6dbef; --l2: #8fb8de; --l3: #4f8fc9; --l4: #25609e; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #14161a; --fg: #e4e7eb; --muted: #9aa3ad; --line: #2d3139; --card: #1d2026;
        --l0: #23272e; --l1: #1f3a55; --l2: #2a5a86; --l3: #3b7fbf; --l4: #6aaee8; }
    }
    * { box-sizing: border-box; }
    body { margin: 2rem auto; max-width: 60rem; padding: 0 1rem; background: var(--bg); color: var(--fg);
      font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
    h2 { margin: 2rem 0 .75rem; font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
    h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
    .meta, .muted, .note, .label { color: var(--muted); }
    .meta { margin: 0; }
    .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: .75rem; margin-top: 1.5rem; }
    .card { background: var(--card); border-radius: 8px; padding: .75rem 1rem; }
    .card .label { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
    .card .value { font-size: 1.4rem; font-weight: 600; }
    .card .note { font-size: .85rem; }
    svg { display: block; max-width: 100%; height: auto; }
    svg text { fill: var(--fg); font-size: 11px; }
    svg .tick { fill: var(--muted); }
    svg .grid { stroke: var(--line); stroke-width: 1; }
    svg .axis { stroke: var(--muted); stroke-width: 1; }
    svg .ring { stroke: var(--l0); }
    svg .center { font-size: 16px; font-weight: 600; }
    .heatmap { width: 100%; }
    .heatmap .l0 { fill: var(--l0); } .heatmap .l1 { fill: var(--l1); } .heatmap .l2 { fill: var(--l2); }
    .heatmap .l3 { fill: var(--l3); } .heatmap .l4 { fill: var(--l4); }
    .heatmap .nd { fill: none; stroke: var(--line); stroke-dasharray: 2 2; }
    .heatmap .in { stroke: var(--fg); stroke-width: 1; }
    .donut { display: flex; flex-wrap: wrap; align-items: center; gap: 1.5rem; }
    .donut-chart { width: 180px; }
    .legend { list-style: none; padding: 0; margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
    .legend.shares { flex-direction: column; }
    .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .4rem; vertical-align: -1px; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    tr.sub td:first-child { padding-left: 1.75rem; color: var(--muted); }
    tr.task td:first-child { font-weight: 600; }
    tfoot th, tfoot td { font-weight: 600; border-bottom: none; }
    .meter { display: inline-block; width: 6rem; height: .55rem; background: var(--l0); border-radius: 3px; vertical-align: middle; }
    .meter span { display: block; height: 100%; background: var(--l3); border-radius: 3px; }
    .done { color: #3aa57a; font-size: .85rem; }
    .empty { margin: 2rem 0; font-size: 1.1rem; }
    @media print {
      :root { --bg: #ffffff; --fg: #000000; --muted: #444444; --line: #bbbbbb; --card: #ffffff;
        --l0: #eeeeee; --l1: #c6dbef; --l2: #8fb8de; --l3: #4f8fc9; --l4: #25609e; }
      body { margin: 0; max-width: none; font-size: 11pt; }
      .card { border: 1px solid var(--line); }
      section, table, svg { break-inside: avoid; }
      h2 { break-after: avoid; }
      * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    }

    """
}
