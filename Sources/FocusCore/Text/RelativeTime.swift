import FoundationEssentials

/// "in 3 days", "tomorrow", "today", "overdue by 2 days": how far a due date is, in local days.
package enum RelativeTime {
    package static func due(_ due: Date, now: Date, calendar: LocalCalendar) -> String {
        // A due instant at midnight belongs to the day that ends there.
        let dueDay = calendar.day(of: due.addingTimeInterval(-1))
        if due <= now {
            let days = calendar.day(of: now).dayNumber - dueDay.dayNumber
            switch days {
            case ..<1:
                let hours = Int(now.timeIntervalSince(due) / 3600)
                return hours < 1 ? "overdue" : "overdue by \(hours)h"
            case 1: return "overdue since yesterday"
            default: return "overdue by \(days) days"
            }
        }
        let days = dueDay.dayNumber - calendar.day(of: now).dayNumber
        switch days {
        case ..<1:
            let minutes = Int(due.timeIntervalSince(now) / 60)
            return minutes < 60 ? "in \(max(1, minutes)) min" : "today"
        case 1: return "tomorrow"
        default: return "in \(days) days"
        }
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Fri 27 Nov`; with `today`, `Fri 31 Dec 9999` when the day is in another year than today
    /// or more than about six months (182 days) away, where the weekday and month alone mislead.
    package static func shortDay(_ day: LocalDate, today: LocalDate? = nil) -> String {
        let text = weekdays[day.weekday] + " " + Digits.text(day.day) + " " + months[day.month - 1]
        guard let today, needsYear(day, today: today) else { return text }
        return text + " " + String(day.year)
    }

    /// Whether a day is far enough from today that its year must be shown.
    package static func needsYear(_ day: LocalDate, today: LocalDate) -> Bool {
        day.year != today.year || abs(day.dayNumber - today.dayNumber) > 182
    }

    /// A moment as every message of focus says it: `Fri 4 Dec 16:00` (no seconds; the year too
    /// when the day is far from `now`, as `shortDay(_:today:)`). Midnight stays `00:00`: this is
    /// an instant, not a due date.
    package static func moment(_ date: Date, calendar: LocalCalendar, now: Date? = nil) -> String {
        shortDay(calendar.day(of: date), today: now.map { calendar.day(of: $0) }) + " " + calendar.timeOfDay(of: date).description
    }

    /// `Fri 27 Nov 17:00`, or `Fri 27 Nov` at midnight (a due date given as a day); with `now`,
    /// the year too when the day is far (`shortDay(_:today:)`).
    package static func shortDateTime(_ date: Date, calendar: LocalCalendar, now: Date? = nil) -> String {
        let t = calendar.timeOfDay(of: date)
        let today = now.map { calendar.day(of: $0) }
        if t.minutes == 0 {
            // Midnight means "by the end of the previous day" for due dates given as days.
            return shortDay(calendar.day(of: date).adding(days: -1), today: today) + " (end of day)"
        }
        return shortDay(calendar.day(of: date), today: today) + " " + t.description
    }
}
