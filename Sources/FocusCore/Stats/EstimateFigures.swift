import FoundationEssentials

/// Logged time against estimates, and the person's typical estimate error.
package enum EstimateFigures {
    /// Lines for subtasks with an estimate that are still open, or were finished with their
    /// last work inside the window; the ratio statistics come from the latter (those with an
    /// estimate and logged time above zero).
    package static func make(_ progress: [SubtaskProgress], window: StatsWindow, calendar: LocalCalendar) -> EstimateReport {
        var lines: [EstimateLine] = []
        var ratios: [Double] = []
        for p in progress {
            guard let estimate = p.estimateSeconds, estimate >= 0 else { continue }
            let finishedInWindow = p.done && p.lastWorkedAt.map { window.contains(calendar.day(of: $0)) } == true
            guard !p.done || finishedInWindow else { continue }
            var ratio: Double?
            if finishedInWindow, estimate > 0, p.loggedSeconds > 0 {
                let exact = Double(p.loggedSeconds) / Double(estimate)
                ratios.append(exact)
                ratio = StatsMath.rounded(exact, decimals: 2)
            }
            lines.append(EstimateLine(
                task: p.task, subtask: p.subtask, estimateSeconds: estimate, loggedSeconds: max(0, p.loggedSeconds),
                progressPercent: StatsMath.percent(max(0, p.loggedSeconds), of: estimate), done: p.done, actualRatio: ratio))
        }
        lines.sort { a, b in
            a.task != b.task ? StatsMath.titleOrder(a.task, b.task) : StatsMath.titleOrder(a.subtask, b.subtask)
        }
        let median = median(ratios)
        return EstimateReport(
            subtasks: lines, medianRatio: median.map { StatsMath.rounded($0, decimals: 2) },
            ratioSample: ratios.count, sentence: median.map(sentence(forRatio:)))
    }

    /// The middle value (the mean of the two middle values for an even count); nil when empty.
    package static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// "your estimates run 1.4× short" when work takes longer than estimated, "… 1.2× long"
    /// when it takes less (1.2 = estimate / actual), "your estimates are on target" when the
    /// factor rounds to 1.0.
    package static func sentence(forRatio ratio: Double) -> String {
        guard ratio > 0, ratio.isFinite else { return "your estimates are on target" }
        let factor = ratio >= 1 ? ratio : 1 / ratio
        let text = StatsMath.oneDecimal(factor)
        if text == "1.0" { return "your estimates are on target" }
        return "your estimates run \(text)× \(ratio >= 1 ? "short" : "long")"
    }
}
