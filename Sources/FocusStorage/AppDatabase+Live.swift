import FocusSystem
import FocusText
import FocusCore
import FoundationEssentials
import FocusSQLite

#if canImport(Glibc)
import Glibc
#endif

extension AppDatabase {
    /// The default database path: `$XDG_DATA_HOME/focus/focus.sqlite`, else `~/.local/share/focus/`.
    package static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/focus/focus.sqlite"
        }
        let home = UserDirectories.home(environment)
        return home + "/.local/share/focus/focus.sqlite"
    }

    /// Opens (creating when missing) the database file in WAL mode: its directory 0700, the file
    /// 0600. A file that is not a focus database is reported and left untouched.
    package static func open(path: String) throws(FocusError) -> AppDatabase {
        let fm = FileManager.default
        let directory = Paths.directory(of: path)
        let exists = try requireRegularOrMissing(path)
        if exists { try requireOneName(path) }
        var created: [String] = []
        if !exists {
            created = missingFolders(above: path)
            do {
                try PrivateDirectory.makeParent(of: path)
            } catch {
                throw .io(path: directory, reason: "cannot create the data directory (\(error.description))")
            }
            // Create the file ourselves so it is 0600 from its first byte.
            let fd = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if fd < 0 {
                let code = errno
                if code != EEXIST {
                    throw .io(path: path, reason: String(cString: strerror(code)))
                }
            } else {
                close(fd)
                created.insert(path, at: 0)
            }
        } else if !fm.isReadableFile(atPath: path) {
            throw .io(path: path, reason: "permission denied", access: .read)
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: sqliteName(path), configuration: configuration())
        } catch {
            throw map(error, path: path)
        }
        // Check what the file is before changing anything in it (the journal mode lives in its header).
        var database = try AppDatabase(queue, path: path)
        do {
            // Another opener may hold the write lock now (README, Files: commands started together
            // on a new file): the switch waits for it rather than fail at once.
            try queue.writeWithoutTransaction { db in try db.switchToWAL() }
        } catch {
            throw map(error, path: path)
        }
        if created.first == path { database.creation = (created, try database.dataVersion()) }
        return database
    }

    /// The folders `mkdir -p` would make for the file at `path`, innermost first.
    private static func missingFolders(above path: String) -> [String] {
        var folders: [String] = []
        var directory = Paths.directory(of: path)
        var info = stat()
        while !directory.isEmpty, directory != "/", stat(directory, &info) != 0 {
            folders.append(directory)
            directory = Paths.directory(of: directory)
        }
        return folders
    }

    /// What to remove of a database this process created, when a command fails before anything
    /// was recorded (README, Files: the first command that records something makes it): the
    /// file, and the folders made for it. Nil when the file was there before, when this command
    /// wrote, or when another connection has committed to it since (`data_version` moved).
    package func unusedCreation(wrote: Bool) -> [String]? {
        guard let creation, !wrote, (try? dataVersion()) == creation.dataVersion else { return nil }
        return creation.paths
    }

    /// Removes what `unusedCreation` named, once the connection is closed: the file with its
    /// `-wal` and `-shm`, then each folder that is empty.
    package static func remove(created paths: [String]) {
        guard let file = paths.first else { return }
        for suffix in ["-wal", "-shm", ""] { unlink(file + suffix) }
        for folder in paths.dropFirst() where rmdir(folder) != 0 { break }
    }

    /// Whether the database file exists; throws `noInputFile` (66) when `path` names a directory,
    /// FIFO, socket or device: SQLite would block reading a FIFO or write into a device, and a
    /// restore would move it aside.
    package static func requireRegularOrMissing(_ path: String) throws(FocusError) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else {
            throw .noInputFile(path: path, reason: "it is \(kind.phrase), not a regular file. Name a database file with --db or FOCUS_DB")
        }
        return true
    }

    /// Refuses a database file with more than one name (hard links, st_nlink > 1; exit 74):
    /// SQLite names its write-ahead log after the name it opened (`NAME-wal`, https://sqlite.org/wal.html),
    /// so two processes using two names of one file keep two logs, and changes written through
    /// one name are lost when the other checkpoints. A symbolic link is no second name: SQLite
    /// follows it to the file's own name.
    static func requireOneName(_ path: String) throws(FocusError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_nlink > 1 else { return }
        throw .io(path: path, reason: "the database file has \(info.st_nlink) names (hard links), and SQLite keeps a separate write-ahead log "
                  + "for each name, so sessions recorded through one name can vanish through another. Give it one name: remove the "
                  + "other links (`find DIR -samefile FILE` lists them), or use a symbolic link instead", access: .open)
    }

    /// `path` as SQLite must be given it to read it as a plain file name: a relative name is
    /// prefixed with `./`, so `file:x?mode=memory` (which Debian's SQLite, built with
    /// SQLITE_USE_URI, would read as a URI) and `:memory:` name files in the current directory.
    /// (README, Files: `--db` and `FOCUS_DB` are plain file paths.)
    package static func sqliteName(_ path: String) -> String {
        path.hasPrefix("/") || path.hasPrefix("./") ? path : "./" + path
    }

    /// What is wrong when the database's write-ahead log was deleted while a process had it
    /// open: the `-shm` index (https://sqlite.org/walformat.html) says the log holds frames, but
    /// `-wal` is missing or empty — reading then fails with "disk I/O error" in every other
    /// process. The frames live on only in the process that still has the deleted file open.
    static func lostWriteAheadLog(path: String) -> String? {
        guard path.hasPrefix("/") || !path.hasPrefix(":") else { return nil }
        var shm = stat(), wal = stat()
        guard stat(path + "-shm", &shm) == 0, shm.st_size >= 48 else { return nil }
        if stat(path + "-wal", &wal) == 0, wal.st_size > 0 { return nil }
        // The wal-index header's mxFrame (offset 16, native byte order): frames in the log.
        let fd = Glibc.open(path + "-shm", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var frames: UInt32 = 0
        guard pread(fd, &frames, 4, 16) == 4, frames > 0 else { return nil }
        let name = Paths.name(of: path)
        return "its write-ahead log (\(name)-wal) was deleted while a focus process had the database open, "
            + "and \(frames) recent change\(frames == 1 ? "" : "s") now live only in that process. Stop any `focus daemon` or "
            + "`status --follow`, then the running session with `focus stop` (it still reaches it): closing the database "
            + "with no other focus open, it writes the changes back. Never delete the -wal or -shm files of an open database"
    }

    /// Why SQLite could not write beside `path`, when the file system says: read-only, full, or a
    /// directory this user may not write (SQLite creates `-wal` and `-shm` files beside the
    /// database, even to read it). Nil when none of these is the cause.
    static func diagnosis(path: String) -> String? {
        guard path.hasPrefix("/") || !path.hasPrefix(":") else { return nil }
        if let limit = fileSizeLimit(reachedBy: path) {
            return "the file size limit (`ulimit -f`, \(limit / 1024) kB) leaves no room for the database to grow; raise it and try again (nothing was written)"
        }
        var directory = Paths.directory(of: path)
        if directory.isEmpty { directory = "." }
        var fs = statvfs()
        if statvfs(directory, &fs) == 0 {
            // proc(5), sysfs and the like have no blocks at all: not a full disk, no disk.
            if fs.f_blocks == 0 {
                return "\(directory) is not on a disk (a kernel file system such as /proc holds no files of its own); pass --db to use a file elsewhere"
            }
            if fs.f_flag & UInt(ST_RDONLY) != 0 {
                return "\(directory) is on a read-only file system; remount it read-write, or pass --db to use a file elsewhere"
            }
            // A few pages: the journal, the WAL index and one transaction need more than that.
            if UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < 64 * 1024 {
                return "the disk holding \(directory) is full; free some space and try again (nothing was written)"
            }
        }
        if access(directory, W_OK) != 0 {
            return "the directory \(directory) is not writable, and SQLite needs to create its -wal and -shm files there even to read; fix its permissions, or pass --db to use a file elsewhere"
        }
        return nil
    }

    /// The process's file size limit (getrlimit(2), RLIMIT_FSIZE: a write past it fails with
    /// EFBIG), in bytes, when the database or its write-ahead log is within a megabyte of it:
    /// what a write that failed ran into. Nil when there is no limit, or room to spare.
    static func fileSizeLimit(reachedBy path: String) -> UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        var largest: UInt64 = 0
        for file in [path, path + "-wal", path + "-journal"] {
            var info = stat()
            if stat(file, &info) == 0 { largest = max(largest, UInt64(info.st_size)) }
        }
        return largest + 1024 * 1024 >= UInt64(limit.rlim_cur) ? UInt64(limit.rlim_cur) : nil
    }
}


extension AppDatabase {
    /// Whether the file at `path` is a focus database another process has finished creating
    /// (its schema version is set, in the same read a reader of the WAL sees): a follower
    /// (`focus status --follow`) waits for that rather than open a file still being made, which
    /// would look like another program's database, or race its creator's migrations. Only
    /// read (a read-only connection could not make the -shm file a WAL database needs, and
    /// waits on a writer instead).
    package static func isInitialized(path: String) -> Bool {
        guard (try? requireRegularOrMissing(path)) == true else { return false }
        do {
            var config = plainConfiguration()
            config.busyMode = .timeout(0.5)
            let queue = try DatabaseQueue(path: sqliteName(path), configuration: config)
            let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            return version > 0
        } catch {
            return false
        }
    }
}

extension AppDatabase {
    /// SQLite's `PRAGMA data_version` on this connection: it changes when another connection
    /// commits to the database (https://sqlite.org/pragma.html#pragma_data_version), so a
    /// follower can tell in one cheap read whether anything is new.
    package func dataVersion() throws(FocusError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}
