import ArgumentParser
import FocusCore
import FocusNotifications
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
            column and value), a TZ that cannot be read, no notification server.
            """)

    @Flag(help: "Also send a test notification.") var notify = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        var problems = 0
        func row(_ label: String, _ value: String) { env.console.line(TerminalText.pad(label, 15) + Sanitized.terminal(value)) }
        /// A problem line: marked ✗ (and counted: the command then exits 1).
        func problem(_ label: String, _ value: String) {
            problems += 1
            row(label, "✗ " + value)
        }
        row("version", FocusVersion.text)
        if !env.databaseExists() {
            row("database", "\(env.databasePath) (not created yet: the first command that records something makes it)")
        } else { do {
            let db = try env.openDatabase()
            let version = try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
            let mode = try db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "?" }
            row("database", "\(env.databasePath) (schema \(version), \(mode))")
            let found = try db.outOfRangeValues(limit: DoctorCommand.listedValues)
            if found.total == 0 {
                row("values", "every stored number is within its range")
            } else {
                let n = found.total
                problem("values", "\(n) stored value\(n == 1 ? " is" : "s are") out of range (focus reads \(n == 1 ? "it" : "them") clamped; fix with sqlite3 or `focus restore` a backup):")
                for value in found.values { row("", "✗ " + value.description) }
                if n > found.values.count { row("", "✗ ... and \(n - found.values.count) more") }
            }
            // Live calendars: how old each copy is; a failed last refresh, or a copy older than
            // twice `calendar_refresh`, is a problem.
            for feed in try db.calendars() where feed.connected || CalendarFeed.isFeed(source: feed.source) {
                let state = FeedState.decode(feed.feedState)
                let fetched = state.fetchedAt ?? feed.importedAt
                let kind = feed.connected ? "caldav" : "feed"
                if let stale = CalendarStaleness.note(name: feed.name, state: state, importedAt: feed.importedAt,
                                                      refreshSeconds: env.config.calendarRefreshSeconds, now: env.now()) {
                    // A failed refresh is a problem; a copy that is only old is said, not counted
                    // (without `focus daemon`, calendars are as fresh as the last refresh by hand).
                    if state.lastError != nil, (state.lastErrorAt ?? .distantPast) >= fetched { problem(kind, stale) } else { row(kind, stale) }
                } else {
                    row(kind, "'\(feed.name)' fetched \(env.calendar.wallClockText(fetched).prefix(16)) (\(CalendarListCommand.age(env.now().timeIntervalSince(fetched))) ago)")
                }
            }
            // Stored commands, CA files and addresses (README, "What focus promises"): one not set
            // up by this user on this machine is a problem until they say yes to it.
            for (line, trusted) in try DoctorCommand.storedSettings(db, env: env) {
                if trusted { row("stored", line) } else { problem("stored", line) }
            }
            // Sync (README, "Two machines"): a failed last sync is a problem; otherwise when it last ran.
            if let target = try db.syncTarget() {
                let name = Sanitized.terminal(target.name)
                if let error = target.lastError, let at = target.lastErrorAt, at >= (target.syncedAt ?? .distantPast) {
                    problem("sync", "the last sync with '\(name)' failed \(CalendarListCommand.age(env.now().timeIntervalSince(at))) ago: \(Sanitized.terminal(error))")
                } else if let synced = target.syncedAt {
                    row("sync", "'\(name)' synced \(env.calendar.wallClockText(synced).prefix(16)) (\(CalendarListCommand.age(env.now().timeIntervalSince(synced))) ago)")
                } else {
                    row("sync", "'\(name)' not synced yet (`focus sync`)")
                }
            }
        } catch {
            problem("database", "\(env.databasePath): \(error.description)")
        } }
        row("backups", DoctorCommand.backups(databasePath: env.databasePath))
        let configExists = FileManager.default.fileExists(atPath: env.configPath)
        row("config", env.configPath + (configExists ? "" : " (not created yet: defaults in use)"))
        let zone = env.calendar.identifier + " (now \(env.calendar.wallClockText(env.now())))"
        if let unread = DoctorCommand.unreadableTZ(global: global, environment: env.environment) {
            problem("time zone", "TZ=\(unread) could not be read (not a zone name, zone file or POSIX rule); using \(zone) instead")
        } else {
            row("time zone", zone)
        }
        if !env.config.notifications {
            row("notifications", "off (`focus config set notifications true` turns them on)")
        } else if let info = LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1500, environment: env.environment) {
            row("notifications", "\(info.name) \(info.version) by \(info.vendor) (spec \(info.specVersion))")
        } else {
            problem("notifications", "no notification server reachable on the D-Bus session bus; focus falls back to the terminal bell")
        }
        if notify {
            let console = env.console
            let notifier = env.makeNotifier(TerminalNotifier(console: console, bell: true), { console.note($0) })
            await notifier.post(Notice(kind: .test, summary: "focus test notification", body: "If you can read this, notifications work.", urgency: .normal, expiresAfterMilliseconds: 5000))
            row("test notice", "sent")
        }
        if problems > 0 {
            env.console.line("\n\(problems) problem\(problems == 1 ? "" : "s") found.")
            throw ExitCode(1)
        }
    }

    /// Each account and feed of the database, and whether this user set it up on this machine.
    static func storedSettings(_ db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> [(String, Bool)] {
        let trusted = try TrustStore(env: env).trusted()
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
