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
        guard !settings.isEmpty else { return }
        let trusted = try trust.load() ?? []
        let foreign = settings.filter { !trusted.contains($0.digest) }
        console.line("It brings in \(settings.count) calendar setting\(settings.count == 1 ? "" : "s") that contact a server\(settings.contains { $0.passwordCommand != nil } ? " or run a password command" : ""):")
        for setting in settings {
            let known = trusted.contains(setting.digest)
            console.line("  \(known ? "✓" : "!") \(setting.summary)\(known ? " (set up by you on this machine)" : ": not set up by you on this machine")")
        }
        if !foreign.isEmpty {
            console.note("warning: focus will not use \(foreign.count == 1 ? "that one" : "those \(foreign.count)") marked ! until you say yes: `focus calendar refresh` at a terminal asks (`focus doctor` lists them).")
        }
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
        let n = restored.facts.sessions
        env.console.line("Restored \(path) from \(file) (\(n) session\(n == 1 ? "" : "s"), schema \(restored.facts.schemaVersion)).")
        if let kept = restored.aside {
            env.console.line("The database it replaced is kept as \(kept).")
        }
        try Self.nameSettings(path: path, trust: trust, console: env.console)
        // Restored all the same (focus reads such values clamped), and said: README, "Backups".
        let facts = restored.facts
        if facts.outOfRangeTotal > 0 {
            let n = facts.outOfRangeTotal
            env.console.note("warning: \(n) stored value\(n == 1 ? " is" : "s are") out of range and read clamped; `focus doctor` lists \(n == 1 ? "it" : "them"):")
            for value in facts.outOfRange { env.console.note("warning:   \(value.description)") }
            if n > facts.outOfRange.count { env.console.note("warning:   ... and \(n - facts.outOfRange.count) more") }
        }
    }
}
