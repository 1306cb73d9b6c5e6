import FoundationEssentials

/// A run of whole local days, both ends included: what `--last N` and `--from … --to …` name.
package struct StatsWindow: Sendable, Equatable, Hashable {
    /// The first day.
    package var from: LocalDate
    /// The last day (included).
    package var to: LocalDate

    /// A window from `from` to `to`; when `to` is before `from` the two are swapped.
    package init(from: LocalDate, to: LocalDate) {
        if to < from {
            self.from = to
            self.to = from
        } else {
            self.from = from
            self.to = to
        }
    }

    /// The `n` local calendar days ending `today`, today included. `n` below 1 is taken as 1
    /// (the command validates `--last` before it gets here).
    package static func last(_ n: Int, today: LocalDate) -> StatsWindow {
        StatsWindow(from: today.adding(days: -(max(n, 1) - 1)), to: today)
    }

    /// How many days the window holds (at least 1).
    package var dayCount: Int { to.dayNumber - from.dayNumber + 1 }

    /// Every day of the window, ascending.
    package var days: [LocalDate] {
        let first = from.dayNumber
        return (0..<dayCount).map { LocalDate(dayNumber: first + $0) }
    }

    /// The window of the same length that ends the day before this one starts.
    package var previous: StatsWindow {
        StatsWindow(from: from.adding(days: -dayCount), to: from.adding(days: -1))
    }

    /// Whether a day lies inside the window.
    package func contains(_ day: LocalDate) -> Bool { from <= day && day <= to }

    /// The first day of the 12-week calendar heatmap the HTML report draws (84 days ending `to`).
    package var heatmapFrom: LocalDate { to.adding(days: -(StatsWindow.heatmapDayCount - 1)) }

    /// The first day whose sessions a caller should load so that the previous period, the
    /// streak and the 12-week heatmap are all complete: the earlier of `previous.from` and
    /// `heatmapFrom`. Pass it as `StatsInput.historyFrom`.
    package var historyFrom: LocalDate { min(previous.from, heatmapFrom) }

    /// Days in the HTML heatmap: 12 weeks.
    package static let heatmapDayCount = 84
}
