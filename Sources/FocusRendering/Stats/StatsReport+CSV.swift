import FocusCore
import FoundationEssentials

extension StatsReport {
    /// `focus stats --csv`: a header line, then one row per day of the window, ascending:
    /// `date,weekday,focused_seconds,completed,interrupted`. Fields are quoted per RFC 4180
    /// when they need it; lines end with `\n`.
    package func csv() -> String {
        var out = "date,weekday,focused_seconds,completed,interrupted\n"
        for day in days {
            let fields = [
                day.date.description, StatsDateText.weekdayShort(day.date), String(day.focusedSeconds),
                String(day.completed), String(day.interrupted),
            ]
            out += fields.map(StatsReport.csvField).joined(separator: ",")
            out += "\n"
        }
        return out
    }
}

extension StatsReport {
    /// The field as is, or in double quotes (inner quotes doubled) when it holds a comma,
    /// a quote, a line break or leading/trailing spaces.
    package static func csvField(_ field: String) -> String {
        let needsQuotes = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }
}

/// English day and month names, by hand (no formatter, no locale data needed).
package enum StatsDateText {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Mon`.
    package static func weekdayShort(_ d: LocalDate) -> String { weekdays[d.weekday] }

    /// `Nov`.
    package static func monthShort(_ d: LocalDate) -> String { months[min(max(d.month, 1), 12) - 1] }

    /// `Mon 16 Nov`.
    package static func dayLabel(_ d: LocalDate) -> String {
        "\(weekdayShort(d)) \(d.day < 10 ? " " : "")\(d.day) \(monthShort(d))"
    }

    /// `16 Nov 2026`.
    package static func longDate(_ d: LocalDate) -> String { "\(d.day) \(monthShort(d)) \(d.year)" }
}
