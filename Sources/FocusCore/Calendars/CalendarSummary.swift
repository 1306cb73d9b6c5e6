import FoundationEssentials

/// One stored calendar, as `calendar list` shows it.
package struct CalendarSummary: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var source: String
    package var timeZone: String
    package var eventCount: Int
    package var occurrenceCount: Int
    package var horizon: DateInterval
    package var importedAt: Date
    /// A feed's `FeedState` as JSON; empty for a file.
    package var feedState = ""
    /// Read from a connected CalDAV account (`calendar connect`), not a file or a feed.
    package var connected = false

    package init(id: Int64, name: String, source: String, timeZone: String, eventCount: Int, occurrenceCount: Int,
                 horizon: DateInterval, importedAt: Date, feedState: String = "", connected: Bool = false) {
        self.id = id
        self.name = name
        self.source = source
        self.timeZone = timeZone
        self.eventCount = eventCount
        self.occurrenceCount = occurrenceCount
        self.horizon = horizon
        self.importedAt = importedAt
        self.feedState = feedState
        self.connected = connected
    }
}
