import FocusCore
import FocusText
import FoundationEssentials

/// The terminal view of `focus stats`: header, a bar per day in segments by task with its
/// legend, the share-by-task chart (`StatsTaskChart`), the task table, the by-tag table, the summary,
/// then estimates and insights when there are any. Pure: a string for a width.
/// Every line fits `width` display columns (at least 40); colour escapes only with `color`.
package struct StatsRenderer: Sendable {
    package let width: Int
    package let color: Bool
    package let today: LocalDate

    package init(width: Int, color: Bool, today: LocalDate) {
        self.width = max(width, 40)
        self.color = color
        self.today = today
    }

    package func render(_ r: StatsReport) -> DisplayText {
        var lines: [StyledLine] = [header(r), StyledLine()]
        if r.isEmpty {
            let scope = (r.taskFilter.map { " for \($0)" } ?? "") + (r.tagFilter.map { " tagged \($0)" } ?? "")
            lines.append(StyledLine("No focus sessions\(scope) between \(r.window.from) and \(r.window.to)."))
            lines.append(StyledLine("Start one with `focus start \"Thesis/Chapter 2\"`.", .dim))
        } else {
            let chart = StatsTaskChart(r, color: color)
            lines += dayChart(r, chart)
            let share = chart.shareChart(total: r.totals.focusedSeconds, width: width)
            if !share.isEmpty {
                lines.append(StyledLine())
                lines += share
            }
            lines.append(StyledLine())
            lines += taskTable(r)
            if !r.tags.isEmpty {
                lines.append(StyledLine())
                lines += tagTable(r)
            }
            lines.append(StyledLine())
            lines += summary(r)
            if !r.estimates.subtasks.isEmpty {
                lines.append(StyledLine())
                lines += estimates(r.estimates)
            }
            if !r.insights.isEmpty {
                lines.append(StyledLine())
                lines += insights(r.insights)
            }
        }
        var text = DisplayText.joined(lines.map { $0.rendered(width: width, color: color) }, separator: "\n")
        text += "\n"
        return text
    }

    // MARK: Sections

    private func header(_ r: StatsReport) -> StyledLine {
        var text: DisplayText = "Focus · \(r.window.from) → \(r.window.to) · \(r.timeZone.identifier)"
        if let filter = r.taskFilter { text += " · \(filter)" }
        if let tag = r.tagFilter { text += " · +\(tag)" }
        return StyledLine(text, .bold)
    }

    private func dayChart(_ r: StatsReport, _ chart: StatsTaskChart) -> [StyledLine] {
        let durations = StatsMath.shownMinutes(r.days.map(\.focusedSeconds), whole: r.totals.focusedSeconds).map(TerminalText.duration)
        let durationWidth = durations.map(TerminalText.width).max() ?? 2
        let completedWidth = r.days.map { $0.completed > 0 ? 1 + digits($0.completed) : 0 }.max() ?? 0
        let interruptedWidth = r.days.map { $0.interrupted > 0 ? 1 + digits($0.interrupted) : 0 }.max() ?? 0
        let countsWidth = completedWidth + interruptedWidth + (completedWidth > 0 && interruptedWidth > 0 ? 1 : 0)
        let showsToday = r.window.contains(today)

        func barWidth(labelWidth: Int, markerWidth: Int) -> Int {
            var fixed = labelWidth + 2 + 2 + durationWidth
            if countsWidth > 0 { fixed += 2 + countsWidth }
            if showsToday { fixed += 2 + markerWidth }
            return width - fixed
        }
        var compact = false
        var bar = barWidth(labelWidth: 10, markerWidth: 7)
        if bar < 10 {
            compact = true
            bar = max(1, barWidth(labelWidth: 6, markerWidth: 1))
        }
        let longest = r.days.map(\.focusedSeconds).max() ?? 0

        let days = r.days.enumerated().map { i, day in
            var line = StyledLine()
            let full = StatsDateText.dayLabel(day.date)
            let label = compact ? String(full.prefix(6)) : full
            line.add(DisplayText(label), day.date == today ? .bold : .plain)
            line.add("  ")
            if day.focusedSeconds > 0, longest > 0 {
                // Whole cells, cut into the day's tasks (README, "Stats").
                let count = max(1, min(bar, Int((Double(day.focusedSeconds) / Double(longest) * Double(bar)).rounded())))
                let segments = chart.dayBar(day, cells: count)
                let cells = segments.runs.isEmpty ? StyledLine(DisplayText(String(repeating: "█", count: count)), .cyan) : segments
                line.add(cells)
                line.add(.spaces(bar - count))
            } else {
                line.add("·", .dim)
                line.add(.spaces(bar - 1))
            }
            line.add("  ")
            line.add(DisplayText(TerminalText.padLeft(durations[i], durationWidth)), day.focusedSeconds > 0 ? .plain : .dim)
            if countsWidth > 0 {
                line.add("  ")
                let done = day.completed > 0 ? "✓\(day.completed)" : ""
                let broken = day.interrupted > 0 ? "✗\(day.interrupted)" : ""
                line.add(DisplayText(TerminalText.padRight(done, completedWidth)), .green)
                if completedWidth > 0 && interruptedWidth > 0 { line.add(" ") }
                line.add(DisplayText(TerminalText.padRight(broken, interruptedWidth)), .red)
            }
            if showsToday, day.date == today {
                line.add("  ")
                line.add(compact ? "◂" : "◂ today", .yellow)
            }
            return line
        }
        return days + chart.legend(width: width, indent: (compact ? 6 : 10) + 2)
    }

    private struct Row {
        var name: DisplayText
        var indent: Bool
        var seconds: Int
        /// The time shown: `seconds` rounded so that the rows add up to what they are part of.
        var shown: Int
        var completed: Int
        var interrupted: Int
    }

    /// The task table; the times shown add up (the tasks' to the total, a task's subtasks' to
    /// the task when its sessions all have one: `StatsMath.shownMinutes`), the shares are of the
    /// exact seconds.
    private func taskTable(_ r: StatsReport) -> [StyledLine] {
        var rows: [Row] = []
        let shownTasks = StatsMath.shownMinutes(r.tasks.map(\.focusedSeconds), whole: r.totals.focusedSeconds)
        for (t, shown) in zip(r.tasks, shownTasks) {
            rows.append(Row(name: DisplayText(t.task), indent: false, seconds: t.focusedSeconds, shown: shown,
                            completed: t.completed, interrupted: t.interrupted))
            let shownSubtasks = StatsMath.shownMinutes(t.subtasks.map(\.focusedSeconds), whole: t.focusedSeconds, shownWhole: shown)
            for (s, shownSubtask) in zip(t.subtasks, shownSubtasks) {
                rows.append(Row(name: DisplayText(s.subtask), indent: true, seconds: s.focusedSeconds, shown: shownSubtask,
                                completed: s.completed, interrupted: s.interrupted))
            }
        }
        return table("Task", rows, total: r.totals.focusedSeconds)
    }

    /// The "by tag" table (README, "Tags"): the task table's columns, one row a tag. A session
    /// with two tags counts under each, so the shares may add up to more than 100%.
    private func tagTable(_ r: StatsReport) -> [StyledLine] {
        let rows = r.tags.map {
            Row(name: "+\($0.tag)", indent: false, seconds: $0.focusedSeconds, shown: $0.focusedSeconds, completed: $0.completed,
                interrupted: $0.interrupted)
        }
        return [StyledLine("By tag", .bold)] + table("Tag", rows, total: r.totals.focusedSeconds)
    }

    private func table(_ title: DisplayText, _ rows: [Row], total: Int) -> [StyledLine] {
        let timeWidth = max(4, rows.map { TerminalText.width(TerminalText.duration($0.shown)) }.max() ?? 0)
        let shareWidth = 5
        let completedWidth = max(1, rows.map { digits($0.completed) }.max() ?? 1)
        let interruptedWidth = max(1, rows.map { digits($0.interrupted) }.max() ?? 1)
        let rateWidth = 4
        let nameWidth = max(4, width - (2 + timeWidth + 2 + shareWidth + 2 + completedWidth + 2 + interruptedWidth + 2 + rateWidth))

        var head = StyledLine()
        head.add(title.paddedRight(nameWidth), .bold)
        head.add("  \(TerminalText.padLeft("Time", timeWidth))", .bold)
        head.add("  \(TerminalText.padLeft("Share", shareWidth))", .bold)
        head.add("  \(TerminalText.padLeft("✓", completedWidth))", .bold)
        head.add("  \(TerminalText.padLeft("✗", interruptedWidth))", .bold)
        head.add("  \(TerminalText.padLeft("Rate", rateWidth))", .bold)
        var lines = [head]
        for row in rows {
            var line = StyledLine()
            let name: DisplayText = row.indent ? "  \(row.name.truncated(to: nameWidth - 2))" : row.name
            line.add(name.paddedRight(nameWidth), row.indent ? .plain : .bold)
            line.add("  \(TerminalText.padLeft(TerminalText.duration(row.shown), timeWidth))")
            let share = StatsMath.percent(row.seconds, of: total).map { "\($0)%" } ?? "–"
            line.add("  \(TerminalText.padLeft(share, shareWidth))")
            line.add("  \(TerminalText.padLeft(String(row.completed), completedWidth))", .green)
            line.add("  \(TerminalText.padLeft(String(row.interrupted), interruptedWidth))", .red)
            let rate = StatsMath.percent(row.completed, of: row.completed + row.interrupted).map { "\($0)%" } ?? "–"
            line.add("  \(TerminalText.padLeft(rate, rateWidth))")
            lines.append(line)
        }
        return lines
    }

    private func summary(_ r: StatsReport) -> [StyledLine] {
        let s = r.summary
        func row(_ label: DisplayText, _ value: DisplayText, _ style: StyledLine.Style = .plain) -> StyledLine {
            var line = StyledLine()
            line.add(label.paddedRight(13), .bold)
            line.add(value, style)
            return line
        }
        var total: DisplayText = "\(TerminalText.duration(s.focusedSeconds)) · ✓\(r.totals.completed) ✗\(r.totals.interrupted)"
        if let p = s.completionPercent { total += " · \(p)% completed" }
        var lines = [row("Total", total)]
        let dayWord = r.window.dayCount == 1 ? "day" : "days"
        lines.append(row("Daily avg", "\(TerminalText.duration(s.dailyAverageSeconds)) over \(r.window.dayCount) \(dayWord) (\(s.daysWithFocus) with focus)"))
        if let best = s.bestDay {
            lines.append(row("Best day", "\(StatsDateText.dayLabel(best.date).replacing("  ", with: " ")) · \(TerminalText.duration(best.focusedSeconds))"))
        }
        lines.append(row("Streak", s.streakDays == 1 ? "1 day" : "\(s.streakDays) days"))
        var previous = StyledLine()
        previous.add(DisplayText("Previous").paddedRight(13), .bold)
        previous.add("\(TerminalText.duration(s.previousFocusedSeconds)) · \(rangeLabel(s.previous))")
        if let change = s.changePercent {
            let rounded = Int(change.rounded(.toNearestOrAwayFromZero))
            let arrow = rounded > 0 ? "▲" : (rounded < 0 ? "▼" : "=")
            previous.add(" · ")
            previous.add("\(arrow) \(abs(rounded))%", rounded > 0 ? .green : (rounded < 0 ? .red : .plain))
        }
        lines.append(previous)
        return lines
    }

    private func estimates(_ e: EstimateReport) -> [StyledLine] {
        var lines = [StyledLine("Estimates", .bold)]
        let amounts = e.subtasks.map { "\(TerminalText.duration($0.loggedSeconds)) of \(TerminalText.duration($0.estimateSeconds))" }
        let amountWidth = amounts.map(TerminalText.width).max() ?? 0
        let percents = e.subtasks.map { line in line.progressPercent.map { "\($0)%" } ?? "–" }
        let percentWidth = max(4, percents.map(TerminalText.width).max() ?? 0)
        let nameWidth = max(4, width - (2 + 2 + amountWidth + 2 + percentWidth + 2))
        for (i, item) in e.subtasks.enumerated() {
            var line = StyledLine()
            let name: DisplayText = "\(item.task)/\(item.subtask)"
            line.add("  \(name.paddedRight(nameWidth))")
            line.add("  \(TerminalText.padLeft(amounts[i], amountWidth))")
            line.add("  \(TerminalText.padLeft(percents[i], percentWidth))")
            if item.done { line.add(" ✓", .green) }
            lines.append(line)
        }
        if let sentence = e.sentence {
            let capitalised = sentence.prefix(1).uppercased() + sentence.dropFirst()
            let noun = e.ratioSample == 1 ? "subtask" : "subtasks"
            lines.append(StyledLine("  \(capitalised) (\(e.ratioSample) finished \(noun)).", .dim))
        }
        return lines
    }

    private func insights(_ i: StatsInsights) -> [StyledLine] {
        var lines = [StyledLine("Insights", .bold)]
        func row(_ label: DisplayText, _ value: DisplayText) -> StyledLine {
            var line = StyledLine("  \(label.paddedRight(16))")
            line.add(value)
            return line
        }
        func hourText(_ hour: Int) -> DisplayText {
            guard let b = i.byHour.first(where: { $0.hour == hour }) else { return "" }
            let noun = b.sessions == 1 ? "session" : "sessions"
            return "\(twoDigits(hour)):00–\(twoDigits((hour + 1) % 24)):00 · \(b.completionPercent)% of \(b.sessions) \(noun) completed"
        }
        if let best = i.bestHour { lines.append(row("Best hour", hourText(best))) }
        if let worst = i.worstHour { lines.append(row("Worst hour", hourText(worst))) }
        if i.byHour.count == 1, let only = i.byHour.first { lines.append(row("Hour", hourText(only.hour))) }
        if !i.byPlannedLength.isEmpty {
            let text = i.byPlannedLength.map { "\($0.bucket.label) \($0.completionPercent)%" }.joined(separator: " · ")
            lines.append(row("By length", DisplayText(text)))
            if let span = i.suggestedSpanSeconds, let bucket = i.suggestedSpanBucket {
                lines.append(row("Suggested span", "\(TerminalText.duration(span)) (\(bucket.label) sessions finish ≥ 80%)"))
            } else {
                lines.append(row("Suggested span", "none yet (no length finishes 80% of the time)"))
            }
        }
        return lines
    }

    // MARK: Helpers

    private func digits(_ n: Int) -> Int { String(n).count }

    private func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    /// `9–15 Nov`, `26 Oct–1 Nov`, or `29 Dec 2025–4 Jan 2026` across a year.
    private func rangeLabel(_ w: StatsWindow) -> String {
        let a = w.from
        let b = w.to
        if a == b { return "\(a.day) \(StatsDateText.monthShort(a))" }
        if a.year != b.year { return "\(StatsDateText.longDate(a))–\(StatsDateText.longDate(b))" }
        if a.month != b.month { return "\(a.day) \(StatsDateText.monthShort(a))–\(b.day) \(StatsDateText.monthShort(b))" }
        return "\(a.day)–\(b.day) \(StatsDateText.monthShort(b))"
    }
}
