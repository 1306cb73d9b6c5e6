import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FocusText
import FoundationEssentials

/// `focus restore FILE`: bring back a backup, keeping the current database aside.
package struct RestoreCommand: FocusRunnable {
    /// The database file is replaced: the handle opened before would re-plan the file set aside.
    package static var replansAfterChanges: Bool { false }
    package static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup, keeping the current one aside.",
        discussion: """
            FILE must be an intact focus database:
            a daily backup, or one written by `focus backup`. The current database is kept as \
            focus.sqlite.before-restore-TIME beside it. Not while a session or the reminder \
            daemon runs. Stored numbers out of range (a hand edit) are listed as \
            warnings; focus reads them clamped.
            """)

    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file"), completion: .file()) var file: String
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
    package init() {}

    /// What the restored file brings in that makes focus run a program or contact an address
    /// (README, "What focus promises"): each account and feed, and whether this user set it up.
    static func nameSettings(path: String, trust: TrustStore, console: any Console) throws {
        guard let restored = try? AppDatabase.open(path: path) else { return }
        let settings = try TrustStore.settings(restored)
        let said = RestoreRenderer.settings(settings, trusted: try trust.load() ?? [])
        console.show(said.lines)
        if let warning = said.warning { console.note(warning) }
    }

    /// What was restored, the settings the file brings in, and its stored numbers out of range:
    /// restored all the same (focus reads such values clamped), and said (README, "Backups").
    static func say(_ restored: AppDatabase.Restored, path: String, from file: String, trust: TrustStore, console: any Console) throws {
        let facts = restored.facts
        console.show(RestoreRenderer.restored(path: path, from: file, sessions: facts.sessions, schema: facts.schemaVersion, aside: restored.aside))
        try nameSettings(path: path, trust: trust, console: console)
        for warning in RestoreRenderer.outOfRange(total: facts.outOfRangeTotal, listed: facts.outOfRange.map(\.description)) { console.note(warning) }
    }

    package func run(in env: FocusEnvironment) async throws {
        let path = env.databasePath
        let fm = FileManager.default
        if fm.fileExists(atPath: path), fm.fileExists(atPath: file),
           URL(fileURLWithPath: file).resolvingSymlinksInPath().path == URL(fileURLWithPath: path).resolvingSymlinksInPath().path {
            throw FocusError.usage("\(file) is the database itself. Name a backup, e.g. \(BackupSchedule(databasePath: path).fileName(for: env.today)).")
        }
        // Check the backup, and that the database is a file (or missing), before touching anything.
        _ = try AppDatabase.inspect(backup: file)
        _ = try AppDatabase.requireRegularOrMissing(path)
        // No daemon may run (or start) while the file changes under it; one that never ran left no lock file.
        let lockPath = DaemonLock.lockPath(forDatabase: path)
        let lock = fm.fileExists(atPath: lockPath) ? try DaemonLock.acquire(path: lockPath) : nil
        defer { lock?.release() }
        // A session runs while its process holds the session lock (whatever the row says); this
        // one holds it itself while it works, so none can start meanwhile.
        func running(_ owner: SessionOwner) -> FocusError {
            let who = owner.provenPID.map { " (pid \($0))" } ?? ""
            return FocusError.unavailable("a session is running\(who). Stop it with `focus stop`, then restore.")
        }
        let owner = SessionLock.owner(database: path)
        if owner.isRunning { throw running(owner) }
        var sessionLock: SessionLock?
        if fm.fileExists(atPath: path) {
            do {
                sessionLock = try SessionLock.acquire(database: path)
            } catch FocusError.unavailable {
                throw running(SessionLock.owner(database: path))
            }
        }
        defer { sessionLock?.release() }
        // The settings this user had before the file changes are theirs (the upgrade of
        // README's stored-settings rule); the restored file's are named below.
        let trust = TrustStore(env: env.services)
        try trust.settleBeforeRestore()
        let aside = BackupSchedule(databasePath: path).asidePath(at: env.now())
        let progress = ProgressMeter(verb: "Restoring", unit: .bytes, total: nil, quiet: quiet, environment: env.environment, checkEvery: 1)
        let restored = try AppDatabase.restore(from: file, into: path, aside: aside, progress: progress.copyProgress)
        progress.finish()
        try Self.say(restored, path: path, from: file, trust: trust, console: env.console)
    }
}
