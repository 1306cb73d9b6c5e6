import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

extension DoctorCommand {
    /// What waits for the person or for the server, each a problem line: a live calendar whose
    /// empty answer was kept aside (README, "Your real calendar"), and a publication of the plan
    /// that failed and waits to be tried again (README, "Publishing"), as a failed sync is.
    static func waiting(_ db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> [(label: String, text: String)] {
        var lines: [(label: String, text: String)] = []
        for calendar in try db.calendars() where calendar.connected || CalendarFeed.isFeed(source: calendar.source) {
            let state = FeedState.decode(calendar.feedState)
            guard let aside = state.emptyKeptAsideAt, aside >= (state.fetchedAt ?? calendar.importedAt) else { continue }
            let name = DisplayText(calendar.name).string
            lines.append((calendar.connected ? "caldav" : "feed",
                          "'\(name)' came back with no events \(RelativeTime.moment(aside, calendar: env.calendar, now: env.now())); the copy of "
                          + "\(calendar.eventCount) event\(calendar.eventCount == 1 ? "" : "s") is kept and used "
                          + "(`focus calendar refresh '\(name)' --accept-empty` takes the empty one)"))
        }
        for target in try db.publishTargets() {
            guard let error = target.lastError else { continue }
            lines.append(("publish", "the plan waits to be published to '\(DisplayText(target.name).string)': the last try failed: "
                          + "\(DisplayText(error).string) (the next command that changes the plan, or `focus daemon`, tries again)"))
        }
        return lines
    }
}
