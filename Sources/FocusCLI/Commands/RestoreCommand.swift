import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// `focus restore FILE`: bring back a backup, keeping the current database aside.
package struct RestoreCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup, keeping the current one aside.",
        discussion: """
            FILE must be an intact focus database (a daily backup, or one from `focus backup`). \
            The current database is kept as focus.sqlite.before-restore-TIME beside it. Not \
            while a session or `focus daemon` runs.
            """)

    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file")) var file: String
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let path = env.databasePath
        let fm = FileManager.default
        if fm.fileExists(atPath: path), fm.fileExists(atPath: file),
           URL(fileURLWithPath: file).resolvingSymlinksInPath().path == URL(fileURLWithPath: path).resolvingSymlinksInPath().path {
            throw FocusError.usage("\(file) is the database itself. Name a backup, e.g. \(BackupSchedule(databasePath: path).fileName(for: env.today)).")
        }
        // Check the backup before touching anything.
        _ = try AppDatabase.inspect(backup: file)
        // No daemon may run (or start) while the file changes under it; one that never ran left no lock file.
        let lockPath = path + ".daemon.lock"
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
        let aside = BackupSchedule(databasePath: path).asidePath(at: env.now())
        let restored = try AppDatabase.restore(from: file, into: path, aside: aside)
        let n = restored.facts.sessions
        env.console.line("Restored \(path) from \(file) (\(n) session\(n == 1 ? "" : "s"), schema \(restored.facts.schemaVersion)).")
        if let kept = restored.aside {
            env.console.line("The database it replaced is kept as \(kept).")
        }
    }
}
