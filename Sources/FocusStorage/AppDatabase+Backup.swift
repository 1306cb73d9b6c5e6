import FocusSystem
import FocusText
import FocusCore
import FoundationEssentials
import FocusSQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The daily backup: after the first write of each local day, a copy of the database beside it
/// (`focus.sqlite.backup-2026-11-22`), the newest seven kept. Checking costs one `stat` on the
/// first write a process makes each day; read-only commands and failing writes never make one.
package final class DailyBackup: Sendable {
    package let schedule: BackupSchedule
    private let today: @Sendable () -> LocalDate
    private let warn: @Sendable (String) -> Void
    private let checked = Mutex<LocalDate?>(nil)

    package init(schedule: BackupSchedule, today: @escaping @Sendable () -> LocalDate, warn: @escaping @Sendable (String) -> Void) {
        self.schedule = schedule
        self.today = today
        self.warn = warn
    }

    /// Called after each committed write transaction.
    func afterWrite(_ database: AppDatabase) {
        let day = today()
        let fresh = checked.withLock { last -> Bool in
            defer { last = day }
            return last != day
        }
        guard fresh else { return }
        let target = schedule.path(for: day)
        var info = stat()
        if stat(target, &info) == 0 { return }
        do {
            _ = try database.backup(to: target)
            AppDatabase.prune(schedule)
        } catch {
            // The person's write is done; a backup that cannot be made must not undo it.
            warn("today's backup \(target) could not be made: \(error.description)")
        }
    }
}

/// A backup file that was checked: what `focus restore` says about it.
package struct BackupFacts: Sendable, Equatable {
    package var schemaVersion: Int
    package var sessions: Int
    package var bytes: Int64
    /// Stored numbers outside their columns' domains (the first few; `focus restore` checks).
    package var outOfRange: [OutOfRangeValue] = []
    /// How many there are in all.
    package var outOfRangeTotal = 0
}

/// A daily backup found beside the database.
package struct BackupFile: Sendable, Equatable {
    package var path: String
    package var day: LocalDate
    package var bytes: Int64
}

extension AppDatabase {
    /// SQLite's 16-byte file header.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Writes a consistent copy of the database to `path` with SQLite's online backup, atomically
    /// (a temporary file in the same directory, checked, then renamed), mode 0600 and in rollback
    /// journal mode so the copy is one self-contained file. A copy that fails SQLite's
    /// `quick_check` is removed and reported: the database itself is damaged.
    @discardableResult
    package func backup(to path: String, progress: CopyProgress? = nil) throws(FocusError) -> BackupFacts {
        // Only a regular file (or a new name) is replaced: never a device, FIFO or directory.
        let file = try AtomicFileWriter(path: path, access: .privateToUser)
        let temporary = file.temporaryPath ?? path
        do {
            let copy = try DatabaseQueue(path: AppDatabase.sqliteName(temporary), configuration: AppDatabase.plainConfiguration())
            try AppDatabase.copy(writer, to: copy, progress: progress)
            let facts = try copy.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                return try AppDatabase.check(db, quick: true)
            }
            try copy.close()
            guard case let .success(version, sessions) = facts else {
                if case let .failure(reason) = facts {
                    throw FocusError.corruptDatabase(path: self.path, reason: "its backup copy fails SQLite's check: \(reason)")
                }
                throw FocusError.corruptDatabase(path: self.path, reason: "its backup copy is not a focus database")
            }
            try file.commit()
            return BackupFacts(schemaVersion: version, sessions: sessions, bytes: AppDatabase.size(of: path))
        } catch let e as FocusError {
            throw e
        } catch {
            throw AppDatabase.mapBackup(error, path: path)
        }
    }

    /// The daily backups beside the database, newest first.
    package static func dailyBackups(_ schedule: BackupSchedule) -> [BackupFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: schedule.directory)) ?? []
        return schedule.backups(among: names).map { b in
            let path = schedule.directory + "/" + b.name
            return BackupFile(path: path, day: b.day, bytes: size(of: path))
        }
    }

    /// Removes daily backups beyond the newest seven, and temporary copies a killed process left.
    package static func prune(_ schedule: BackupSchedule) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: schedule.directory)) ?? []
        for name in schedule.expired(among: names) { unlink(schedule.directory + "/" + name) }
        let hourAgo = time(nil) - 3600
        for name in names where name.hasPrefix(".") && name.contains(".focus-tmp-") {
            let path = schedule.directory + "/" + name
            var info = stat()
            if stat(path, &info) == 0, info.st_mtim.tv_sec < hourAgo { unlink(path) }
        }
    }

    // MARK: Restore

    /// Checks that `source` is an intact focus database this focus understands: the SQLite header,
    /// `integrity_check`, focus's tables and a schema version no newer than this binary's.
    /// Throws `badInput` (exit 65) saying what is wrong with it. Stored numbers outside their
    /// columns' domains do not make it unusable (focus reads them clamped): they are listed in
    /// the facts for the caller to report.
    package static func inspect(backup source: String) throws(FocusError) -> BackupFacts {
        // The rule for every input file: missing or not a regular file 66, unreadable 74.
        let fd = try InputFile.open(source)
        var head = [UInt8](repeating: 0, count: 16)
        var n = -1
        repeat { n = pread(fd, &head, head.count, 0) } while n < 0 && errno == EINTR
        let code = errno
        close(fd)
        if n < 0 { throw InputFile.readFailure(source, code) }
        guard n == head.count, head == sqliteHeader else {
            throw .badInput(file: source, line: nil, reason: "not an SQLite database (it does not start with the SQLite header); pick a focus backup such as focus.sqlite.backup-DATE")
        }
        do {
            let queue = try DatabaseQueue(path: sqliteName(source), configuration: plainConfiguration(readOnly: true))
            defer { try? queue.close() }
            let facts = try queue.read { db in try check(db, quick: false) }
            switch facts {
            case let .success(version, sessions):
                let values = try queue.read { db in try outOfRangeValues(db, limit: 5) }
                return BackupFacts(schemaVersion: version, sessions: sessions, bytes: size(of: source),
                                   outOfRange: values.values, outOfRangeTotal: values.total)
            case let .failure(reason):
                throw FocusError.badInput(file: source, line: nil, reason: reason)
            }
        } catch let e as FocusError {
            throw e
        } catch let e as DatabaseError {
            throw .badInput(file: source, line: nil, reason: "SQLite cannot read it: \(e.message ?? "error \(e.resultCode.rawValue)")")
        } catch {
            throw .badInput(file: source, line: nil, reason: String(describing: error))
        }
    }

    /// How a restore went.
    package struct Restored: Sendable, Equatable {
        package var facts: BackupFacts
        /// Where the replaced database was kept (nil when there was none).
        package var aside: String?
    }

    /// Replaces the database at `path` with the checked backup `source`, keeping the current one at
    /// `aside` first. A database that opens is replaced in place by SQLite's backup API in one
    /// transaction (so every process sees the old or the new one, never a mix, and a kill leaves
    /// the old); one that does not open (damaged) is moved aside and the copy renamed over it.
    package static func restore(from source: String, into path: String, aside: String, progress: CopyProgress? = nil) throws(FocusError) -> Restored {
        let facts = try inspect(backup: source)
        _ = try requireRegularOrMissing(path)
        do {
            try PrivateDirectory.makeParent(of: path)
        } catch {
            throw .io(path: Paths.directory(of: path), reason: "cannot create the data directory")
        }
        // The checked copy, in the database's directory so the last step can be a rename.
        let file = try AtomicFileWriter(path: path, access: .privateToUser)
        let staging = file.temporaryPath ?? path
        do {
            let from = try DatabaseQueue(path: sqliteName(source), configuration: plainConfiguration(readOnly: true))
            let copy = try DatabaseQueue(path: sqliteName(staging), configuration: plainConfiguration())
            try AppDatabase.copy(from, to: copy, progress: progress)
            try from.close()
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch {
            throw mapBackup(error, path: staging)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            try file.commit()
            return Restored(facts: facts, aside: nil)
        }
        let asidePath = OutputFile.firstUnused(aside)
        if let current = try? DatabaseQueue(path: sqliteName(path), configuration: configuration()),
           (try? current.read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") })) != nil {
            defer { try? current.close() }
            // Keep the current database first: a consistent copy, WAL included.
            try createPrivateFile(asidePath)
            do {
                let keep = try DatabaseQueue(path: sqliteName(asidePath), configuration: plainConfiguration())
                try current.backup(to: keep)
                try keep.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                try keep.close()
            } catch {
                unlink(asidePath)
                throw mapBackup(error, path: asidePath)
            }
            do {
                let copy = try DatabaseQueue(path: sqliteName(staging), configuration: plainConfiguration(readOnly: true))
                try copy.backup(to: current)
                try copy.close()
                return Restored(facts: facts, aside: asidePath)
            } catch {
                // SQLite refuses to copy between page sizes into a WAL database: fall through to the
                // rename, which needs no cooperation from the old file. Anything else is an error.
                guard let e = error as? DatabaseError, e.resultCode == .SQLITE_READONLY else {
                    throw mapBackup(error, path: path)
                }
            }
            try? current.close()
            unlink(asidePath)
            try moveAsideFiles(path, to: asidePath)
        } else {
            try moveAsideFiles(path, to: asidePath)
        }
        try file.commit()
        return Restored(facts: facts, aside: asidePath)
    }

    /// Renames the database and its `-wal` and `-shm` companions (a WAL left beside the new file
    /// would be replayed into it).
    private static func moveAsideFiles(_ path: String, to aside: String) throws(FocusError) {
        for suffix in ["-wal", "-shm", ""] {
            let from = path + suffix
            guard FileManager.default.fileExists(atPath: from) else { continue }
            if rename(from, aside + suffix) != 0 {
                throw .io(path: from, reason: "cannot move it aside (\(String(cString: strerror(errno))))")
            }
        }
    }

    // MARK: Helpers

    /// What a database file holds, or why it is not a usable focus database.
    enum Check {
        case success(version: Int, sessions: Int)
        case failure(String)
    }

    static func check(_ db: Database, quick: Bool) throws -> Check {
        // A row that breaks a CHECK constraint (a hand edit) is not damage: focus reads its values
        // within their ranges, and `outOfRangeValues` lists them. Without this, SQLite reports it
        // as damage on a writable connection (a read-only one never checks), and no daily backup
        // would be made again.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        let rows = try String.fetchAll(db, sql: quick ? "PRAGMA quick_check(3)" : "PRAGMA integrity_check(3)")
        guard rows == ["ok"] else {
            return .failure("SQLite's integrity check found damage (\(rows.first ?? "no answer"))")
        }
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        guard version > 0, tables.isSuperset(of: ["task", "subtask", "timeLog", "activeSession"]) else {
            return .failure("it is an SQLite database but not one of focus's")
        }
        guard version <= schemaVersion else {
            return .failure("it was written by a newer focus (schema \(version); this one understands up to \(schemaVersion)); upgrade focus to restore it")
        }
        let sessions = try Int.fetchOne(db, sql: "SELECT count(*) FROM timeLog") ?? 0
        return .success(version: version, sessions: sessions)
    }

    /// Told how far a copy has gone: bytes copied and bytes in all.
    package typealias CopyProgress = (_ doneBytes: Int, _ totalBytes: Int) -> Void

    /// SQLite's online backup from `source` to `destination`: in one step without `progress`;
    /// with it, in steps of 4 MiB or so, telling it after each (https://sqlite.org/backup.html).
    static func copy(_ source: any DatabaseReader, to destination: any DatabaseWriter, progress: CopyProgress?) throws {
        guard let progress else {
            try source.backup(to: destination)
            return
        }
        let pageSize = try source.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? 4096
        let pagesPerStep = CInt(max(1, (4 << 20) / max(512, pageSize)))
        try source.backup(to: destination, pagesPerStep: pagesPerStep) { step in
            progress(step.completedPageCount * pageSize, step.totalPageCount * pageSize)
        }
    }

    /// For copies: no mmap or hooks, a busy timeout like the store's.
    static func plainConfiguration(readOnly: Bool = false) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(6)
        config.label = "focus-backup"
        return config
    }

    /// A new empty file, 0600 from its first byte.
    static func createPrivateFile(_ path: String) throws(FocusError) {
        let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
    }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func mapBackup(_ error: any Error, path: String) -> FocusError {
        if let e = error as? FocusError { return e }
        return map(error, path: path)
    }
}
