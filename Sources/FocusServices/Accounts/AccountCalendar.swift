import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

/// A calendar of the connected CalDAV accounts that focus writes into (`calendar publish`,
/// `sync setup`), found by name in the accounts, else made (MKCALENDAR) in the home of the first
/// one asked.
package struct AccountCalendar {
    package var account: StoredAccount
    package var endpoint: CalDAVEndpoint
    package var url: String
    package var name: String
    /// Whether focus just made the calendar (MKCALENDAR): the command says so.
    package var made = false

    /// - Parameters:
    ///   - components: what the calendar must be able to hold (and what a new one is made for).
    ///   - purpose: the end of the refusal of one that cannot ("focus publishes events").
    ///   - again: what to run once the person made it by hand ("publish again").
    ///   - accept: further checks of a calendar that exists (throws to refuse it).
    package static func findOrMake(_ calendar: String, components: [String], purpose: String, again: String, db: AppDatabase,
                                   env: ServiceContext, login: CalDAVLogin, client: any CalDAVClient,
                           accept: (RemoteCalendar, CalDAVEndpoint) throws -> Void = { _, _ in }) throws -> AccountCalendar {
        let accounts = try db.accounts()
        guard !accounts.isEmpty else {
            throw FocusError.usage("no CalDAV account is connected. Connect one first: `focus calendar connect URL --user USER`.")
        }
        // The account that has a calendar of this name, else the one connected last.
        var fallback: (account: StoredAccount, endpoint: CalDAVEndpoint)?
        for account in accounts {
            let endpoint = try login.endpoint(account, env: env)
            let home = account.discovered
            if let match = CalDAVChoice.calendar(named: calendar, in: CalDAVChoice.usable(try client.calendars(home, endpoint))) {
                return try use(match, account: account, endpoint: endpoint, components: components, purpose: purpose, accept: accept)
            }
            if fallback == nil { fallback = (account, endpoint) }
            if login.passwordFromStandardInput { break }  // standard input gives one password
        }
        guard let (account, endpoint) = fallback, let home = account.homeURLs.first else {
            throw FocusError.unavailable("the account at \(CalendarFeed.shownAddress(accounts[0].url)) has no calendar home to make '\(DisplayText(calendar).string)' in.")
        }
        let url = CalDAVChoice.newCalendarURL(home: home, name: calendar)
        switch try client.makeCalendar(url, displayName: calendar, components: components, endpoint) {
        case .written:
            return AccountCalendar(account: account, endpoint: endpoint, url: url, name: calendar, made: true)
        case .changedOnServer, .missing:
            // Refused because something is there (RFC 4791 section 5.3.1). The calendar asked
            // for, made meanwhile (another machine setting up at the same moment), is used.
            let found = try? client.calendar(at: url, endpoint)
            if let found, let match = CalDAVChoice.calendar(named: calendar, in: CalDAVChoice.usable([found])) {
                return try use(match, account: account, endpoint: endpoint, components: components, purpose: purpose, accept: accept)
            }
            // Else say what is there.
            let there: String
            if let found {
                let name = CalDAVChoice.decodingReferences(found.displayName)
                there = "a calendar named '\(DisplayText(name).string)' is at \(DisplayText(url).string); name it to use it"
            } else {
                there = "something that is not a calendar is at \(DisplayText(url).string)"
            }
            throw FocusError.unavailable("the server would not make calendar '\(DisplayText(calendar).string)': \(there). Or make '\(DisplayText(calendar).string)' in your calendar app, then \(again).")
        }
    }

    /// `match`, when it holds `components` and this login may write to it.
    private static func use(_ match: RemoteCalendar, account: StoredAccount, endpoint: CalDAVEndpoint, components: [String], purpose: String,
                            accept: (RemoteCalendar, CalDAVEndpoint) throws -> Void) throws -> AccountCalendar {
        let name = DisplayText(match.displayName).string
        guard match.components.isEmpty || components.allSatisfy(match.components.contains) else {
            throw FocusError.usage("calendar '\(name)' holds only \(match.components.joined(separator: ", ")): \(purpose). Name another calendar, or a new one.")
        }
        if match.writable == false {
            throw FocusError.unavailable("calendar '\(name)' is read-only for this login. Name another calendar, or a new one.")
        }
        try accept(match, endpoint)
        return AccountCalendar(account: account, endpoint: endpoint, url: match.url, name: match.displayName)
    }
}
