import ArgumentParser
import FocusCore

/// `--last N | --from DATE --to DATE`: the whole local days a report covers. The commands that
/// take a window declare the three options themselves, with the help below (as `FocusRunnable`
/// explains for `--db`), and make this value of them:
///
///     @Option(help: WindowOptions.lastHelp) var last: Int?
///     @Option(help: WindowOptions.fromHelp) var from: String?
///     @Option(help: WindowOptions.toHelp) var to: String?
package struct WindowOptions: Sendable {
    package static let lastHelp = ArgumentHelp("The N local days ending today, today included (default 7).", valueName: "n")
    package static let fromHelp = ArgumentHelp("First day (2026-11-01, 'last mon', '2 weeks ago'); needs --to.", valueName: "date")
    package static let toHelp = ArgumentHelp("Last day, included; needs --from.", valueName: "date")

    package var last: Int?
    package var from: String?
    package var to: String?

    package init(last: Int? = nil, from: String? = nil, to: String? = nil) {
        self.last = last
        self.from = from
        self.to = to
    }

    /// The longest window accepted: a century of days.
    package static let maximumDays = 36_600

    /// The window asked for; `--last 7` when nothing was given.
    package func window(today: LocalDate, defaultLast: Int = 7) throws(FocusError) -> StatsWindow {
        if let last {
            if from != nil || to != nil {
                throw .usage("use either --last or --from/--to, not both.")
            }
            guard last >= 1, last <= WindowOptions.maximumDays else {
                throw .invalidValue(what: "--last", value: String(last), expected: "a number of days from 1 to \(WindowOptions.maximumDays)")
            }
            return StatsWindow.last(last, today: today)
        }
        return try WindowOptions.range(from: from, to: to, today: today) ?? StatsWindow.last(defaultLast, today: today)
    }

    /// `--from` and `--to` together, or neither (nil). Either alone, or `--to` before
    /// `--from`, is a usage error.
    package static func range(from: String?, to: String?, today: LocalDate) throws(FocusError) -> StatsWindow? {
        switch (from, to) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw .usage("--from needs --to: give both, e.g. --from 2026-11-01 --to 2026-11-30 (whole local days, --to included).")
        case (nil, _?):
            throw .usage("--to needs --from: give both, e.g. --from 2026-11-01 --to 2026-11-30 (whole local days, --to included).")
        case let (f?, t?):
            let first = try DateParser.date(f, today: today, what: "--from date")
            let last = try DateParser.date(t, today: today, what: "--to date")
            guard last >= first else {
                throw .invalidValue(what: "--to date", value: t, expected: "a day on or after --from (\(first))")
            }
            guard last.dayNumber - first.dayNumber < maximumDays else {
                throw .invalidValue(what: "--to date", value: t, expected: "at most \(maximumDays) days after --from")
            }
            return StatsWindow(from: first, to: last)
        }
    }
}
