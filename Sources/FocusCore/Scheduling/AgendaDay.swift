import FoundationEssentials

/// Everything on one local day: what `focus agenda` and the full-screen view show
/// (FocusRendering's `AgendaRenderer` shows it).
package struct AgendaDay {
    package var day: LocalDate
    package var events: [BusyEvent]
    /// Meetings the person declined: free time, shown marked.
    package var declined: [BusyEvent] = []
    package var blocks: [BlockView]
    package var sessions: [SessionEntry]
    package var freeSeconds: Int
    /// The day's working hours; nil on a day off.
    package var hours: DayHours?
    package var due: [DueView]

    package init(day: LocalDate, events: [BusyEvent], declined: [BusyEvent] = [], blocks: [BlockView], sessions: [SessionEntry],
                 freeSeconds: Int, hours: DayHours?, due: [DueView]) {
        self.day = day
        self.events = events
        self.declined = declined
        self.blocks = blocks
        self.sessions = sessions
        self.freeSeconds = freeSeconds
        self.hours = hours
        self.due = due
    }
}
