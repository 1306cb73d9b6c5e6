import FocusCore
import FocusNotifications
import FocusServices
import FocusStorage
import FocusSystem
import FocusText
import FoundationEssentials
import Glibc

extension FocusEnvironment {
    /// The real world: terminal, wall and monotonic clocks, files under XDG directories.
    package static func live(global: GlobalOptions, environment: [String: String], console: (any Console)? = nil) throws(FocusError) -> FocusEnvironment {
        let console = console ?? StandardConsole(environment: environment)
        let now = try liveNow(environment: environment)
        let zone = try timeZone(option: global.tz, environment: environment, warn: { console.note(DisplayText($0)) })
        let calendar = LocalCalendar(zone: zone, database: ZoneDatabase(environment: environment))
        let configPath = configFilePath(environment: environment)
        let config = try loadConfig(path: configPath)
        let dbPath = databasePath(option: global.db, environment: environment)
        var env = FocusEnvironment(
            console: console, now: now, clock: ContinuousClock(), calendar: calendar,
            config: config, configPath: configPath, databasePath: dbPath,
            makeNotifier: { fallback, warn in
                guard config.notifications else { return SilentNotifier() }
                return LibNotifyNotifier.make(
                    iconPath: Resources.iconPath(), criticalWorkEnd: config.urgency == .critical,
                    expiryMilliseconds: config.expirySeconds * 1000, fallback: fallback,
                    environment: environment, warn: warn)
            },
            environment: environment,
            openDatabase: { () throws(FocusError) -> AppDatabase in
                var db = try AppDatabase.open(path: dbPath)
                db.dailyBackup = DailyBackup(
                    schedule: BackupSchedule(databasePath: dbPath), today: { calendar.day(of: now()) },
                    warn: { console.note("warning: \($0)") })
                try SessionRecovery.recoverStale(db, now: now(), calendar: calendar, console: console)
                return db
            },
            makeHooks: { warn in
                ProcessHookRunner(directory: ProcessHookRunner.directory(configPath: configPath),
                                  timeout: .seconds(config.hookTimeoutSeconds),
                                  logPath: ProcessHookRunner.logPath(environment: environment),
                                  environment: environment, now: now, warn: warn)
            },
            ask: terminalQuestion(console: console)
        )
        env.readsKeys = true
        env.makeAwayWatcher = { [now] in DBusAwayWatcher(environment: environment, now: now) }
        env.databaseExists = {
            // Anything at the path counts (a directory is then refused by the open, exit 66);
            // a dangling link does not, as the open would create the file it points to.
            var info = stat()
            return stat(dbPath, &info) == 0
        }
        return env
    }

    /// Yes-or-no questions on the terminal: asked on standard error (standard output stays the
    /// command's result), answered on standard input; nil unless both are terminals.
    static func terminalQuestion(console: any Console) -> (@Sendable (DisplayText) -> Bool)? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return nil }
        return { question in
            console.err(question.string + " ")
            guard let answer = TerminalMode.readLine() else {
                console.err("\n")
                return false
            }
            return Confirmation.isYes(answer)
        }
    }

    /// `FOCUS_NOW` (ISO 8601) pins the start instant; time then runs on from there.
    static func liveNow(environment: [String: String]) throws(FocusError) -> @Sendable () -> Date {
        guard let pinned = environment["FOCUS_NOW"], !pinned.isEmpty else { return { Date() } }
        let epoch = LocalDate(year: 1970, month: 1, day: 1)
        // Only an instant with an offset is accepted, and only that form is suggested.
        let refused = FocusError.invalidValue(what: "FOCUS_NOW", value: pinned, expected: "an ISO 8601 instant with an offset, like 2026-11-22T09:00:00Z or 2026-11-22T10:00:00+01:00")
        guard case let .instant(base)? = try? DateParser.dateTime(pinned, today: epoch, what: "FOCUS_NOW") else { throw refused }
        let start = ContinuousClock.now
        return {
            let elapsed = start.duration(to: ContinuousClock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return base.addingTimeInterval(seconds)
        }
    }

    /// `--tz` (an IANA name from the zone database), else `TZ` (a name, a zone file's path or
    /// a POSIX rule), else the system zone (`/etc/localtime`).
    /// A `TZ` that names no zone is not silent: `warn` says so once, naming the zone used instead.
    package static func timeZone(option: String?, environment: [String: String], warn: (String) -> Void = { _ in }) throws(FocusError) -> ZoneRules {
        let database = ZoneDatabase(environment: environment)
        if let option {
            guard let zone = database.zone(named: option) else {
                if !database.exists {
                    throw .unavailable("the zone database \(database.directory) is missing, so the time zone '\(option)' cannot be read. "
                        + "Install it (Debian: apt-get install tzdata)\(environment["TZDIR"] != nil ? ", or unset TZDIR" : "").")
                }
                throw .invalidValue(what: "time zone", value: option, expected: "an IANA zone name like Europe/Berlin or America/New_York")
            }
            return zone
        }
        let system = { database.system }
        if let tz = environment["TZ"], !tz.isEmpty {
            if let zone = database.zone(tz: tz) { return zone }
            let fallback = system()
            let why = database.exists ? "names no zone in \(database.directory) and is not a POSIX TZ rule"
                : "cannot be read: the zone database \(database.directory) is missing (Debian: tzdata)"
            warn("warning: TZ='\(tz)' \(why); using \(fallback.identifier). Set TZ to a name like Europe/Berlin, or pass --tz.")
            return fallback
        }
        return system()
    }

    static func configFilePath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/focus/config.toml" }
        return UserDirectories.home(environment) + "/.config/focus/config.toml"
    }

    static func databasePath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let env = environment["FOCUS_DB"], !env.isEmpty { return env }
        return AppDatabase.defaultPath(environment: environment)
    }

    /// The config file over the defaults; a missing file means the defaults. Anything else is
    /// read by the rule for input files: a directory, FIFO or device 66, unreadable 74.
    static func loadConfig(path: String) throws(FocusError) -> FocusConfig {
        var info = stat()
        // Missing (or behind a dangling link, or under a file): the defaults, as always.
        if stat(path, &info) != 0, errno == ENOENT || errno == ENOTDIR { return FocusConfig() }
        let data = try ChunkedFile.whole(path, limit: 1 << 20, what: "the config file")
        guard let text = String(data: data, encoding: .utf8) else {
            throw .badInput(file: path, line: nil, reason: "the config file is not UTF-8 text")
        }
        return try ConfigFile.parse(text, path: path)
    }
}
