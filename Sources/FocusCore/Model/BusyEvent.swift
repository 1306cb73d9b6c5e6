import FoundationEssentials

/// One busy stretch of an imported calendar, as `calendar busy`, the planner and the agenda see it.
package struct BusyEvent: Sendable, Equatable, Hashable {
    package var start: Date
    package var end: Date
    package var summary: String
    package var allDay: Bool
    /// The calendar's name.
    package var calendar: String

    package init(start: Date, end: Date, summary: String, allDay: Bool, calendar: String) {
        self.start = start
        self.end = end
        self.summary = summary
        self.allDay = allDay
        self.calendar = calendar
    }

    /// Sorted by start, then end (the contract's order), then summary and calendar so the
    /// order is total.
    package static func ordered(_ a: BusyEvent, _ b: BusyEvent) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        if a.summary != b.summary { return a.summary < b.summary }
        if a.calendar != b.calendar { return a.calendar < b.calendar }
        return !a.allDay && b.allDay
    }
}
