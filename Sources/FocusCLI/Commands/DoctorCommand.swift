import ArgumentParser
import FocusCore
import FocusNotifications
import FocusRendering
import FocusServices
import FocusStorage
import FocusText
import FoundationEssentials

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

    package func run(in env: FocusEnvironment) async throws {
        var lines = [DoctorFinding(label: "version", value: FocusVersion.text)]
        lines += DoctorCommand.databaseLines(env)
        lines += environmentLines(env)
        if notify {
            let console = env.console
            let notifier = env.makeNotifier(TerminalNotifier(console: console, bell: true), { console.note(DisplayText($0)) })
            await notifier.post(Notice(kind: .test, summary: "focus test notification", body: "If you can read this, notifications work.", urgency: .normal, expiresAfterMilliseconds: 5000))
            lines.append(DoctorFinding(label: "test notice", value: "sent"))
        }
        env.console.show(DoctorRenderer.text(lines))
        if lines.contains(where: \.problem) { throw ExitCode(1) }
    }

    /// The database: where it is, its schema, stored values out of range, live calendars,
    /// stored settings and sync.
    static func databaseLines(_ env: FocusEnvironment) -> [DoctorFinding] {
        guard env.databaseExists() else {
            return [DoctorFinding(label: "database", value: "\(env.databasePath) (not created yet: the first command that records something makes it)")]
        }
        do {
            let db = try env.openDatabase()
            let facts = try db.schemaAndJournalMode()
            var lines = [DoctorFinding(label: "database", value: "\(env.databasePath) (schema \(facts.schema), \(facts.journalMode))")]
            let found = try db.outOfRangeValues(limit: listedValues)
            lines += DoctorRenderer.values(total: found.total, listed: found.values.map(\.description))
            let calendars = try db.calendars()
            lines += DoctorRenderer.calendars(calendars, refreshSeconds: env.config.calendarRefreshSeconds, calendar: env.calendar, now: env.now())
            lines += DoctorRenderer.keptAside(calendars, calendar: env.calendar, now: env.now())
            lines += try db.publishTargets().compactMap { t in t.lastError.map { DoctorRenderer.publishWaiting(calendar: t.name, lastError: $0) } }
            let trusted = try TrustStore(env: env.services).trusted()
            lines += try TrustStore.settings(db).map { DoctorRenderer.storedSetting($0.summary, trusted: trusted.contains($0.digest)) }
            if let target = try db.syncTarget() {
                lines.append(DoctorRenderer.sync(calendar: target.name, syncedAt: target.syncedAt, lastError: target.lastError, lastErrorAt: target.lastErrorAt,
                                                 zone: env.calendar, now: env.now()))
            }
            return lines
        } catch {
            return [.problem("database", "\(env.databasePath): \(error.description)")]
        }
    }

    /// Backups, the config file, the time zone and the notification server.
    func environmentLines(_ env: FocusEnvironment) -> [DoctorFinding] {
        var lines = [DoctorFinding(label: "backups", value: DoctorCommand.backups(databasePath: env.databasePath))]
        let configExists = FileManager.default.fileExists(atPath: env.configPath)
        lines.append(DoctorFinding(label: "config", value: env.configPath + (configExists ? "" : " (not created yet: defaults in use)")))
        let zone = env.calendar.identifier + " (now \(env.calendar.wallClockText(env.now())))"
        if let unread = DoctorCommand.unreadableTZ(global: global, environment: env.environment) {
            lines.append(.problem("time zone", "TZ=\(unread) could not be read (not a zone name, zone file or POSIX rule); using \(zone) instead"))
        } else {
            lines.append(DoctorFinding(label: "time zone", value: zone))
        }
        if !env.config.notifications {
            lines.append(DoctorFinding(label: "notifications", value: "off (`focus config set notifications true` turns them on)"))
        } else if let info = LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1500, environment: env.environment) {
            lines.append(DoctorFinding(label: "notifications", value: "\(info.name) \(info.version) by \(info.vendor) (spec \(info.specVersion))"))
        } else {
            // No desktop (a server, a container, ssh) is a normal machine for a terminal tool:
            // reminders ring the terminal bell there. A warning, never the exit status 1.
            lines.append(.warning("notifications", "no notification server reachable on the D-Bus session bus (normal without a desktop); focus rings the terminal bell instead"))
        }
        lines.append(DoctorFinding(label: "idle detection", value: DoctorCommand.idleDetection(env: env)))
        return lines
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
