import ArgumentParser
import FocusCore
import FocusNotifications
import FocusServices
import FocusStorage
import FocusText
import FoundationEssentials
import FocusSQLite

/// `focus doctor [--notify]`: where things are, and whether notifications can be shown. Each
/// problem line is marked ✗, and any problem makes the exit status 1.
package struct DoctorCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the database, config, time zone and desktop notifications.",
        discussion: """
            Each problem line is marked ✗ and the exit status is 1 when there is one: a \
            database that cannot be opened, stored numbers out of range (listed by table, id, \
            column and value), a TZ that cannot be read, no notification server. It also \
            says whether a locked screen is noticed (config `idle`).
            """)

    @Flag(help: "Also send a test notification.") var notify = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    /// One line of the report: a label, what was found, and whether it is a problem (marked ✗,
    /// counted: any makes the exit status 1). A warning (marked !) is something to know that is
    /// normal somewhere, a machine with no desktop for one: it is shown and not counted.
    struct Line {
        var label: String
        var value: String
        var problem = false

        static func problem(_ label: String, _ value: String) -> Line { Line(label: label, value: "✗ " + value, problem: true) }
        static func warning(_ label: String, _ value: String) -> Line { Line(label: label, value: "! " + value) }
    }

    package func run(in env: FocusEnvironment) async throws {
        var lines = [Line(label: "version", value: FocusVersion.text)]
        lines += DoctorCommand.databaseLines(env)
        lines += environmentLines(env)
        if notify {
            let console = env.console
            let notifier = env.makeNotifier(TerminalNotifier(console: console, bell: true), { console.note(DisplayText($0)) })
            await notifier.post(Notice(kind: .test, summary: "focus test notification", body: "If you can read this, notifications work.", urgency: .normal, expiresAfterMilliseconds: 5000))
            lines.append(Line(label: "test notice", value: "sent"))
        }
        for line in lines { env.console.line("\(TerminalText.pad(line.label, 15))\(line.value)") }
        let problems = lines.filter(\.problem).count
        if problems > 0 {
            env.console.line("\n\(problems) problem\(problems == 1 ? "" : "s") found.")
            throw ExitCode(1)
        }
    }

    /// The database: where it is, its schema, stored values out of range, live calendars,
    /// stored settings and sync.
    static func databaseLines(_ env: FocusEnvironment) -> [Line] {
        guard env.databaseExists() else {
            return [Line(label: "database", value: "\(env.databasePath) (not created yet: the first command that records something makes it)")]
        }
        do {
            let db = try env.openDatabase()
            let version = try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
            let mode = try db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "?" }
            var lines = [Line(label: "database", value: "\(env.databasePath) (schema \(version), \(mode))")]
            lines += try valueLines(db)
            lines += try calendarLines(db, env: env)
            lines += try waiting(db, env: env).map { Line.problem($0.label, $0.text) }
            // Stored commands, CA files and addresses (README, "What focus promises"): one not set
            // up by this user on this machine is a problem until they say yes to it.
            for (line, trusted) in try storedSettings(db, env: env) {
                lines.append(trusted ? Line(label: "stored", value: line) : .problem("stored", line))
            }
            return lines + (try syncLines(db, env: env))
        } catch {
            return [.problem("database", "\(env.databasePath): \(error.description)")]
        }
    }

    /// Stored numbers out of range, listed.
    static func valueLines(_ db: AppDatabase) throws(FocusError) -> [Line] {
        let found = try db.outOfRangeValues(limit: listedValues)
        guard found.total > 0 else { return [Line(label: "values", value: "every stored number is within its range")] }
        let n = found.total
        var lines = [Line.problem("values", "\(n) stored value\(n == 1 ? " is" : "s are") out of range (focus reads \(n == 1 ? "it" : "them") clamped; fix with sqlite3 or `focus restore` a backup):")]
        // One problem however many values are listed.
        for value in found.values { lines.append(Line(label: "", value: "✗ " + value.description)) }
        if n > found.values.count { lines.append(Line(label: "", value: "✗ ... and \(n - found.values.count) more")) }
        return lines
    }

    /// Live calendars: how old each copy is; a failed last refresh is a problem, a copy that is
    /// only old is said, not counted (without `focus daemon`, calendars are as fresh as the last
    /// refresh by hand).
    static func calendarLines(_ db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> [Line] {
        var lines: [Line] = []
        for feed in try db.calendars() where feed.connected || CalendarFeed.isFeed(source: feed.source) {
            let state = FeedState.decode(feed.feedState)
            let fetched = state.fetchedAt ?? feed.importedAt
            let kind = feed.connected ? "caldav" : "feed"
            if let stale = CalendarStaleness.note(name: feed.name, state: state, importedAt: feed.importedAt,
                                                  refreshSeconds: env.config.calendarRefreshSeconds, now: env.now()) {
                let failed = state.lastError != nil && (state.lastErrorAt ?? .distantPast) >= fetched
                lines.append(failed ? .problem(kind, stale) : Line(label: kind, value: stale))
            } else {
                lines.append(Line(label: kind, value: "'\(feed.name)' fetched \(RelativeTime.moment(fetched, calendar: env.calendar, now: env.now())) (\(CalendarListCommand.age(env.now().timeIntervalSince(fetched))) ago)"))
            }
        }
        return lines
    }

    /// Sync (README, "Two machines"): a failed last sync is a problem; otherwise when it last ran.
    static func syncLines(_ db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> [Line] {
        guard let target = try db.syncTarget() else { return [] }
        let name = DisplayText(target.name).string
        if let error = target.lastError, let at = target.lastErrorAt, at >= (target.syncedAt ?? .distantPast) {
            return [.problem("sync", "the last sync with '\(name)' failed \(CalendarListCommand.age(env.now().timeIntervalSince(at))) ago: \(DisplayText(error).string)")]
        } else if let synced = target.syncedAt {
            return [Line(label: "sync", value: "'\(name)' synced \(RelativeTime.moment(synced, calendar: env.calendar, now: env.now())) (\(CalendarListCommand.age(env.now().timeIntervalSince(synced))) ago)")]
        }
        return [Line(label: "sync", value: "'\(name)' not synced yet (`focus sync`)")]
    }

    /// Backups, the config file, the time zone and the notification server.
    func environmentLines(_ env: FocusEnvironment) -> [Line] {
        var lines = [Line(label: "backups", value: DoctorCommand.backups(databasePath: env.databasePath))]
        let configExists = FileManager.default.fileExists(atPath: env.configPath)
        lines.append(Line(label: "config", value: env.configPath + (configExists ? "" : " (not created yet: defaults in use)")))
        let zone = env.calendar.identifier + " (now \(env.calendar.wallClockText(env.now())))"
        if let unread = DoctorCommand.unreadableTZ(global: global, environment: env.environment) {
            lines.append(.problem("time zone", "TZ=\(unread) could not be read (not a zone name, zone file or POSIX rule); using \(zone) instead"))
        } else {
            lines.append(Line(label: "time zone", value: zone))
        }
        if !env.config.notifications {
            lines.append(Line(label: "notifications", value: "off (`focus config set notifications true` turns them on)"))
        } else if let info = LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1500, environment: env.environment) {
            lines.append(Line(label: "notifications", value: "\(info.name) \(info.version) by \(info.vendor) (spec \(info.specVersion))"))
        } else {
            // No desktop (a server, a container, ssh) is a normal machine for a terminal tool:
            // reminders ring the terminal bell there. A warning, never the exit status 1.
            lines.append(.warning("notifications", "no notification server reachable on the D-Bus session bus (normal without a desktop); focus rings the terminal bell instead"))
        }
        lines.append(Line(label: "idle detection", value: DoctorCommand.idleDetection(env: env)))
        return lines
    }

    /// Each account and feed of the database, and whether this user set it up on this machine.
    static func storedSettings(_ db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> [(String, Bool)] {
        let trusted = try TrustStore(env: env.services).trusted()
        return try TrustStore.settings(db).map { setting in
            trusted.contains(setting.digest) ? (setting.summary + " (set up on this machine)", true)
                : (setting.summary + ": not set up by you on this machine; focus asks before using it (`focus calendar refresh` at a terminal)", false)
        }
    }

    /// Out-of-range values listed one per line, at most.
    static let listedValues = 50

    /// `TZ` when it names no zone focus can read and no `--tz` overrides it (focus then uses the
    /// system zone, as `FocusEnvironment.timeZone` does).
    static func unreadableTZ(global: GlobalOptions, environment: [String: String]) -> String? {
        guard global.tz == nil, let tz = environment["TZ"], !tz.isEmpty else { return nil }
        return ZoneRules.fromTZ(tz, environment: environment) == nil ? tz : nil
    }

    /// `3 daily, newest 2026-11-22 (1.2 MB), in /home/me/.local/share/focus`.
    static func backups(databasePath: String) -> String {
        let schedule = BackupSchedule(databasePath: databasePath)
        let files = AppDatabase.dailyBackups(schedule)
        guard let newest = files.first else {
            return "none yet (focus makes one each day it writes; `focus backup` makes one now)"
        }
        return "\(files.count) daily, newest \(newest.day) (\(BackupCommand.size(newest.bytes))), in \(schedule.directory)"
    }
}
