import FocusCore
import FoundationEssentials

/// When on its day a due instant falls, as a view of that day says it.
package enum DueText {
    /// `end of day` for a due date at the end of `day` (a due date given as a day is stored as
    /// the midnight that ends it), else the local time, `17:00`. `due` is on `day`: after its
    /// start and at or before its end, as `focus agenda` lists them.
    package static func time(of due: Date, on day: LocalDate, calendar: LocalCalendar) -> String {
        due >= calendar.startOfDay(day.adding(days: 1)) ? "end of day" : calendar.timeOfDay(of: due).description
    }
}
