import ArgumentParser
import FocusCore
import FocusNotifications
import FocusStorage
import Foundation

/// `focus doctor [--notify]`: where things are, and whether notifications can be shown.
package struct DoctorCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the database, config, time zone and desktop notifications.")

    @Flag(help: "Also send a test notification.") var notify = false
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        var problems = 0
        func row(_ label: String, _ value: String) { env.console.line(pad(label, 15) + Sanitized.terminal(value)) }
        row("version", FocusVersion.text)
        if !env.databaseExists() {
            row("database", "\(env.databasePath) (not created yet: the first command that records something makes it)")
        } else { do {
            let db = try env.openDatabase()
            let version = try db.read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
            let mode = try db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "?" }
            row("database", "\(env.databasePath) (schema \(version), \(mode))")
        } catch {
            problems += 1
            row("database", "\(env.databasePath): \(error.description)")
        } }
        row("backups", DoctorCommand.backups(databasePath: env.databasePath))
        let configExists = FileManager.default.fileExists(atPath: env.configPath)
        row("config", env.configPath + (configExists ? "" : " (not created yet: defaults in use)"))
        row("time zone", env.calendar.identifier + " (now \(env.calendar.wallClockText(env.now())))")
        if !env.config.notifications {
            row("notifications", "off (`focus config set notifications true` turns them on)")
        } else if let info = LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1500, environment: env.environment) {
            row("notifications", "\(info.name) \(info.version) by \(info.vendor) (spec \(info.specVersion))")
        } else {
            problems += 1
            row("notifications", "no notification server reachable on the D-Bus session bus; focus falls back to the terminal bell")
        }
        if notify {
            let console = env.console
            let notifier = env.makeNotifier(TerminalNotifier(console: console, bell: true), { console.note($0) })
            await notifier.post(Notice(kind: .test, summary: "focus test notification", body: "If you can read this, notifications work.", urgency: .normal, expiresAfterMilliseconds: 5000))
            row("test notice", "sent")
        }
        if problems > 0 { env.console.line("\n\(problems) problem\(problems == 1 ? "" : "s") found.") }
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
