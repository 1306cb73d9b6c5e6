import Foundation

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

    /// `Fri 27 Nov`.
    package static func shortDay(_ day: LocalDate) -> String {
        weekdays[day.weekday] + " " + Digits.text(day.day) + " " + months[day.month - 1]
    }

    /// `Fri 27 Nov 17:00`, or `Fri 27 Nov` at midnight (a due date given as a day).
    package static func shortDateTime(_ date: Date, calendar: LocalCalendar) -> String {
        let t = calendar.timeOfDay(of: date)
        if t.minutes == 0 {
            // Midnight means "by the end of the previous day" for due dates given as days.
            return shortDay(calendar.day(of: date).adding(days: -1)) + " (end of day)"
        }
        return shortDay(calendar.day(of: date)) + " " + t.description
    }
}
