import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FocusSystem
import FocusText
import FoundationEssentials

/// `focus backup [FILE] [--force]`: a consistent copy of the database, now.
package struct BackupCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a backup of the database now.",
        discussion: """
            Without FILE, today's daily backup beside the database (focus.sqlite.backup-DATE). \
            focus also makes one itself the first time it writes on a day, and keeps the \
            newest 7. Bring one back with focus restore and its name.
            """)

    @Argument(help: ArgumentHelp("Where to write it (default: the dated name beside the database).", valueName: "file"), completion: .file())
    var file: String?
    @Flag(help: "Replace FILE if it exists.") var force = false
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let schedule = BackupSchedule(databasePath: env.databasePath)
        let target = file ?? schedule.path(for: env.today)
        // A directory, FIFO or device is refused (74) before asking for --force: it is never replaced.
        try OutputFile.checkReplaceable(target)
        if file != nil, !force, FileManager.default.fileExists(atPath: target) {
            throw FocusError.usage("\(target) already exists. Pick another name, or add --force to replace it.")
        }
        let db = try env.openDatabase()
        let progress = ProgressMeter(verb: "Backing up", unit: .bytes, total: nil, quiet: quiet, environment: env.environment, checkEvery: 1)
        let facts = try db.backup(to: target, progress: progress.copyProgress)
        progress.finish()
        if file == nil { AppDatabase.prune(schedule) }
        let sessions = "\(facts.sessions) session\(facts.sessions == 1 ? "" : "s")"
        env.console.line("Backed up \(env.databasePath) to \(target) (\(sessions), \(BackupCommand.size(facts.bytes))).")
    }

    /// `512 B`, `48 kB`, `1.2 MB` (decimal units, like `ls -h --si`).
    package static func size(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return "\((bytes + 500) / 1000) kB" }
        let tenths = (bytes + 50_000) / 100_000
        if tenths < 100 { return "\(tenths / 10).\(tenths % 10) MB" }
        return "\((bytes + 500_000) / 1_000_000) MB"
    }
}
