import FocusCore
import FocusCoreTestSupport
import FocusServices
import FocusStorage
import Foundation
import Testing

// The stored-settings rule (README, "What focus promises") and the password's sources (README,
// "Your real calendar"), decided in FocusServices with the person and the password sources as
// fakes: what a refused trust does, what a yes does, who is asked and when.

@Suite("Trusting a stored account, through the Prompter port")
struct TrustStoreTests {
    @Test("An account this user did not set up is refused when the person says no: no password command runs, nothing is remembered")
    func aRefusedTrustRunsNothing() throws {
        let world = try ServiceWorld()
        let account = try world.saveAccount(passwordCommand: "pass show caldav")
        let person = ScriptedPrompter(answers: [false])
        let credentials = FixedCredentials()
        let env = world.context(prompter: person, credentials: credentials)
        #expect {
            try CalDAVLogin().endpoint(account, env: env)
        } throws: { error in
            let message = (error as? FocusError)?.description ?? ""
            return message.contains("not set up by you on this machine") && message.contains("Run `focus calendar refresh` at a terminal")
        }
        #expect(person.asked == ["Run its password command and connect? [y/N]"])
        #expect(world.console.stderr.contains("was not set up by you on this machine"))
        #expect(credentials.asked.isEmpty)
        #expect(try TrustStore(env: env).trusted().isEmpty)
    }

    @Test("A yes is remembered: the password command runs, and the next time nobody is asked")
    func aYesIsRemembered() throws {
        let world = try ServiceWorld()
        let account = try world.saveAccount(passwordCommand: "pass show caldav")
        let credentials = FixedCredentials(commandOutput: "s3cret")
        let endpoint = try CalDAVLogin().endpoint(account, env: world.context(prompter: ScriptedPrompter(answers: [true]), credentials: credentials))
        #expect(endpoint.password == "s3cret")
        let later = ScriptedPrompter()
        #expect(try CalDAVLogin().endpoint(account, env: world.context(prompter: later, credentials: credentials)).password == "s3cret")
        #expect(later.asked.isEmpty)
        #expect(credentials.asked == ["run pass show caldav", "run pass show caldav"])
    }

    @Test("Without a terminal, or where asking is not allowed (the daemon), nobody is asked and the account is refused")
    func noQuestionWithoutATerminal() throws {
        let world = try ServiceWorld()
        let account = try world.saveAccount()
        #expect(throws: FocusError.self) { try CalDAVLogin().endpoint(account, env: world.context(prompter: nil)) }
        let person = ScriptedPrompter(answers: [true])
        #expect(throws: FocusError.self) { try CalDAVLogin(mayPrompt: false).endpoint(account, env: world.context(prompter: person)) }
        #expect(person.asked.isEmpty)
    }

    @Test("An account connected by this user on this machine is used without a question")
    func connectedHereIsTrusted() throws {
        let world = try ServiceWorld()
        let account = try world.saveAccount()
        try TrustStore(env: world.context()).trustAccount(account.id, in: world.db)
        let person = ScriptedPrompter()
        let endpoint = try CalDAVLogin().endpoint(account, env: world.context(prompter: person))
        #expect(endpoint.url == world.address && endpoint.user == "alice")
        #expect(person.asked == ["Password for alice at https://dav.example.org/: "])
    }
}

@Suite("Where an account's password comes from, through the CredentialSource port")
struct CalDAVLoginTests {
    @Test("Standard input first, then the password command, then the person; none of them: no password")
    func theOrderOfSources() throws {
        let world = try ServiceWorld()
        let credentials = FixedCredentials(standardInput: "from-stdin", commandOutput: "from-command")
        let person = ScriptedPrompter(passwords: ["typed"])
        let env = world.context(prompter: person, credentials: credentials)
        let host = "dav.example.org"
        #expect(try CalDAVLogin(passwordFromStandardInput: true).password(user: "alice", command: "pass x", host: host, env: env) == "from-stdin")
        #expect(try CalDAVLogin().password(user: "alice", command: "pass x", host: host, env: env) == "from-command")
        #expect(try CalDAVLogin().password(user: "alice", command: nil, host: host, env: env) == "typed")
        #expect(try CalDAVLogin(mayPrompt: false).password(user: "alice", command: nil, host: host, env: env) == nil)
        #expect(try CalDAVLogin().password(user: nil, command: nil, host: host, env: env) == nil)
        #expect(person.asked == ["Password for alice at dav.example.org: "])
        #expect(credentials.asked == ["standard input", "run pass x"])
    }

    @Test("Standard input that holds no password is the usage error, not a request without one")
    func emptyStandardInput() throws {
        let world = try ServiceWorld()
        let env = world.context(credentials: FixedCredentials(standardInput: nil))
        #expect(throws: FocusError.self) {
            try CalDAVLogin(passwordFromStandardInput: true).password(user: "alice", command: nil, host: "dav.example.org", env: env)
        }
    }
}

@Suite("Refreshing a connected account's calendars, without the command line")
struct CalendarRefresherTests {
    @Test("A calendar added on the server starts counting as busy time, one deleted there stops")
    func theAccountsCalendarsFollowTheServer() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("work", "Work")
        let account = try world.saveAccount()
        let env = world.context()
        try TrustStore(env: env).trustAccount(account.id, in: world.db)
        let refresher = CalendarRefresher(env: env, db: world.db, login: CalDAVLogin(mayPrompt: false))
        let said = SaidReports()
        let first = refresher.refreshAccounts(report: said.take)
        #expect(first.added == [world.server.home + "work/"])
        #expect(try world.db.connectedCalendars().map(\.name) == ["Work"])

        world.server.deleteCalendar(world.server.home + "work/")
        try world.makeCalendar("travel", "Travel")
        let before = said.all.count
        let second = refresher.refreshAccounts(report: said.take)
        #expect(second.added == [world.server.home + "travel/"] && second.changed)
        #expect(try world.db.connectedCalendars().map(\.name) == ["Travel"])
        // Said in the order it happened: the account's change, then the first copy it read.
        let said2 = Array(said.all[before...])
        guard said2.count == 2, case .accountChanged(_, ["Travel"], ["Work"]) = said2[0], case let .stored(copy) = said2[1] else {
            Issue.record("\(said2)")
            return
        }
        #expect(copy.verb == .stored && copy.name == "Travel")
        #expect(try world.db.accounts().first?.lastChange == ["+ Travel", "- Work"])
        #expect(said.warnings.isEmpty)
    }

    /// Issue #39: a refresh added the calendar another machine syncs focus's history through
    /// (which connect leaves out), and downloaded it whole at every refresh.
    @Test("A calendar made since that holds another machine's focus history is not busy time, and is read once")
    func anotherMachinesHistoryCalendarIsLeftOutAndReadOnce() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("work", "Work")
        _ = try world.db.saveAccount(url: world.address, principalURL: "https://dav.example.org/principals/alice/", homeURLs: [world.server.home],
                                     user: "alice", passwordCommand: nil, caFile: nil, insecure: false, calendarNames: [], at: world.now)
        let account = try #require(try world.db.accounts().first)
        let env = world.context()
        try TrustStore(env: env).trustAccount(account.id, in: world.db)
        let refresher = CalendarRefresher(env: env, db: world.db, login: CalDAVLogin(mayPrompt: false))
        let said = SaidReports()
        _ = refresher.refreshAccounts(report: said.take)
        let endpoint = CalDAVEndpoint(url: world.address, user: "alice", password: nil, caFile: nil, insecure: false)
        let history = world.server.home + "history/"
        _ = try world.server.makeCalendar(history, displayName: "History", components: ["VEVENT", "VTODO"], endpoint)
        world.server.store(history + "t.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//focus//sync//EN\r\nBEGIN:VTODO\r\nUID:focus-task-1@focus\r\n"
                           + "SUMMARY:Thesis\r\nX-FOCUS-KIND:task\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        let second = refresher.refreshAccounts(report: said.take)
        #expect(second.added.isEmpty)
        #expect(try world.db.connectedCalendars().map(\.name) == ["Work"])
        let before = world.server.requests
        _ = refresher.refreshAccounts(report: said.take)
        #expect(world.server.requests - before == 1, "only the listing of calendars: the history calendar is not read again")
        #expect(said.warnings.isEmpty, "\(said.warnings)")
    }

    /// Issue #39: a calendar of the account named as a calendar here replaced it (a feed, an
    /// imported file, its busy time with it). It takes a free name instead, also when renamed
    /// on the server later.
    @Test("A calendar of the account never replaces a calendar here of its name")
    func anAccountsCalendarNamedAsOneHereTakesAFreeName() throws {
        let world = try ServiceWorld()
        var mine = CalendarImport(name: "work", source: "/home/me/work.ics", content: Data(), timeZone: "UTC",
                                  horizon: DateInterval(start: world.now, duration: 0), eventCount: 0, importedAt: world.now)
        mine.feedState = ""
        _ = try world.db.importCalendar(mine, occurrences: [(Date, Date, String, Bool, String)](), occurrence: { $0 })
        try world.makeCalendar("work", "Work")
        let account = try world.saveAccount()
        let env = world.context()
        try TrustStore(env: env).trustAccount(account.id, in: world.db)
        let refresher = CalendarRefresher(env: env, db: world.db, login: CalDAVLogin(mayPrompt: false))
        let said = SaidReports()
        _ = refresher.refreshAccounts(report: said.take)
        #expect(try world.db.calendars().map(\.name).sorted() == ["Work (dav.example.org)", "work"])
        _ = refresher.refreshAccounts(report: said.take)
        #expect(try world.db.calendars().map(\.name).sorted() == ["Work (dav.example.org)", "work"], "stable at the next refresh")
        #expect(said.warnings.isEmpty, "\(said.warnings)")
    }

    @Test("An account the person refuses is never contacted; one warning says why, and nothing changes")
    func aRefusedAccountIsNotContacted() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("work", "Work")
        try world.saveAccount()
        let requests = world.server.requests
        let refresher = CalendarRefresher(env: world.context(prompter: ScriptedPrompter(answers: [false])), db: world.db, login: CalDAVLogin())
        let said = SaidReports()
        let result = refresher.refreshAccounts(report: said.take)
        #expect(result.added.isEmpty && !result.changed)
        #expect(world.server.requests == requests)
        #expect(said.warnings.count == 1)
        guard case let .accountNotListed(_, reason)? = said.warnings.first else { Issue.record("\(said.warnings)"); return }
        #expect(reason.contains("not set up by you"), "\(reason)")
        #expect(try world.db.connectedCalendars().isEmpty)
    }

    @Test("The daemon fetches a calendar again only once its refresh interval has passed")
    func theDaemonFetchesWhatIsDue() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("work", "Work")
        let account = try world.saveAccount()
        let env = world.context()
        try TrustStore(env: env).trustAccount(account.id, in: world.db)
        _ = CalendarRefresher(env: env, db: world.db, login: CalDAVLogin(mayPrompt: false)).refreshAccounts { _ in }
        let calendars = try world.db.calendars()
        #expect(calendars.map(\.name) == ["Work"])
        #expect(DaemonCalendars.due(calendars, now: world.now.addingTimeInterval(600), refreshSeconds: 900).isEmpty)
        #expect(DaemonCalendars.due(calendars, now: world.now.addingTimeInterval(900), refreshSeconds: 900).map(\.name) == ["Work"])
    }
}

@Suite("The calendar publish and sync write to, found or made")
struct AccountCalendarTests {
    /// Alice's account, trusted, and a context for it.
    private func trusted(_ world: ServiceWorld) throws -> ServiceContext {
        let account = try world.saveAccount()
        let env = world.context()
        try TrustStore(env: env).trustAccount(account.id, in: world.db)
        return env
    }

    private func findOrMake(_ name: String, _ world: ServiceWorld, _ env: ServiceContext) throws -> AccountCalendar {
        try AccountCalendar.findOrMake(name, components: ["VEVENT"], purpose: "focus publishes events", again: "publish again",
                                       db: world.db, env: env, login: CalDAVLogin(mayPrompt: false), client: world.server)
    }

    @Test("A calendar of that name is used as it is; another name is made in the account, and said")
    func foundOrMade() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("plan", "Plan")
        let env = try trusted(world)
        let found = try findOrMake("plan", world, env)
        #expect(found.url == world.server.home + "plan/" && !found.made)
        let made = try findOrMake("Focus blocks", world, env)
        #expect(made.url == world.server.home + "focus-blocks/" && made.name == "Focus blocks")
        // The command says it (`CalendarFetchRenderer.made`); the service prints nothing.
        #expect(made.made && made.account.url == world.address)
        #expect(world.console.stdout.isEmpty)
    }

    @Test("A calendar that cannot hold events is refused by name, and nothing is made")
    func wrongKindRefused() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("tasks", "Tasks", components: ["VTODO"])
        let env = try trusted(world)
        #expect {
            try findOrMake("Tasks", world, env)
        } throws: { error in
            (error as? FocusError)?.description == "calendar 'Tasks' holds only VTODO: focus publishes events. Name another calendar, or a new one."
        }
        let home = CalDAVAccount(contextURL: world.address, principalURL: "", homeURLs: [world.server.home])
        #expect(try world.server.calendars(home, CalDAVEndpoint(url: world.address)).map(\.displayName) == ["Tasks"])
        #expect(world.console.stdout.isEmpty)
    }

    @Test("Where the new calendar would go another one is, the refusal names it and says what to run after")
    func addressTakenNamesWhatIsThere() throws {
        let world = try ServiceWorld()
        try world.makeCalendar("focus-blocks", "Something else")
        let env = try trusted(world)
        #expect {
            try findOrMake("Focus blocks", world, env)
        } throws: { error in
            let message = (error as? FocusError)?.description ?? ""
            return message.contains("a calendar named 'Something else' is at \(world.server.home)focus-blocks/; name it to use it")
                && message.hasSuffix("then publish again.")
        }
    }
}

/// What a refresh reported, in order.
private final class SaidReports {
    var all: [CalendarFetchReport] = []
    var warnings: [CalendarFetchReport] { all.filter(\.isWarning) }
    func take(_ report: CalendarFetchReport) { all.append(report) }
}
