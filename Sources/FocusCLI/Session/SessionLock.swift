import FocusCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The running session's proof of life. `focus start` holds a POSIX record lock (fcntl(2),
/// F_SETLK, the whole file) on `<database>.session.lock` for as long as it runs. The kernel drops
/// the lock when the process ends, however it ends (a process killed with `kill -9` holds no
/// lock even while it lingers as a zombie), and F_GETLK names the process holding it — so every
/// other command learns whether the session lives, and which process it may signal, from the
/// kernel rather than from a pid written in the database.
///
/// The file is opened with O_NOFOLLOW and O_CLOEXEC (a hook never inherits it), created 0600,
/// and never written, truncated or deleted: its existence carries no meaning, only the lock.
/// A POSIX lock belongs to its process and goes when that process closes *any* descriptor of
/// the file (fcntl(2)), so the holder never opens the file a second time: it answers for
/// itself from `held`.
package final class SessionLock: @unchecked Sendable {
    /// The locks this process holds: lock path → descriptor.
    private static let held = Mutex<[String: Int32]>([:])
    /// Database path → lock path, worked out once per process.
    private static let resolved = Mutex<[String: String]>([:])

    package let path: String
    /// The descriptor the lock is held through (another once the file was put back), and
    /// whether it was let go of.
    private let state: Mutex<(fd: Int32, released: Bool)>

    private init(path: String, fd: Int32) {
        self.path = path
        state = Mutex((fd, false))
    }

    /// `<database>.session.lock` beside the database's real file — symbolic links in the path
    /// resolved (realpath(3)), so that every name of one database leads to one lock. Nil for an
    /// in-memory database. (`focus daemon`'s lock beside the database could share this helper.)
    package static func path(forDatabase database: String) -> String? {
        guard !database.isEmpty, database != ":memory:" else { return nil }
        if let known = resolved.withLock({ $0[database] }) { return known }
        let real: String
        if let p = realpath(database, nil) {
            real = String(cString: p)
            free(p)
        } else {
            // Not there (yet): resolve its directory, keep its name.
            let url = URL(fileURLWithPath: database)
            let dir = url.deletingLastPathComponent().path
            if let p = realpath(dir, nil) {
                real = String(cString: p) + "/" + url.lastPathComponent
                free(p)
            } else {
                real = url.path
            }
        }
        let lock = real + ".session.lock"
        resolved.withLock { $0[database] = lock }
        return lock
    }

    /// Who holds the session lock of this database (nobody for an in-memory one).
    package static func owner(database: String) -> SessionOwner {
        guard let path = path(forDatabase: database) else { return .nobody }
        return owner(lockPath: path)
    }

    /// One open and one fcntl(F_GETLK): cheap enough for `focus status` on every tick of a bar.
    package static func owner(lockPath path: String) -> SessionOwner {
        if held.withLock({ $0[path] }) != nil { return .process(getpid()) }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let err = errno
            // No file, or not a plain file (a session never locks through a symbolic link):
            // no session holds it.
            if err == ENOENT || err == ENOTDIR || err == ELOOP { return .nobody }
            return .unknown("the session lock \(path) cannot be read (\(String(cString: strerror(err))))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .unknown("the session lock \(path) cannot be read (\(String(cString: strerror(errno))))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .nobody }
        return holder(fd: fd, path: path)
    }

    /// A write lock on the whole file (fcntl(2): start 0, length 0 to the end).
    private static func wholeFile() -> flock {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }

    /// F_GETLK: the process whose lock would stop this one taking the file.
    private static func holder(fd: Int32, path: String) -> SessionOwner {
        var probe = wholeFile()
        while fcntl(fd, F_GETLK, &probe) != 0 {
            let err = errno
            if err == EINTR { continue }
            return .unknown("the session lock \(path) cannot be examined (\(String(cString: strerror(err))))")
        }
        if probe.l_type == Int16(F_UNLCK) { return .nobody }
        // A holder in another PID namespace shows as 0: running, but not ours to signal.
        guard probe.l_pid > 0 else { return .unknown("the session lock \(path) is held by a process focus cannot name") }
        return .process(probe.l_pid)
    }

    /// Takes the lock for this process's session, or says which process holds it
    /// (`unavailable`, exit 69). Problems with the file itself are `io` (exit 74).
    package static func acquire(database: String) throws(FocusError) -> SessionLock {
        guard let path = path(forDatabase: database) else {
            throw .io(path: database, reason: "a session needs a database file")
        }
        if held.withLock({ $0[path] }) != nil {
            throw .unavailable("a session is already running (pid \(getpid())). Stop it with `focus stop`, or see it with `focus status`.")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o600)
        guard fd >= 0 else {
            let err = errno
            if err == ELOOP {
                throw .io(path: path, reason: "it is a symbolic link; focus keeps its session lock in a plain file: remove it and start again")
            }
            throw .io(path: path, reason: String(cString: strerror(err)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .io(path: path, reason: "it is not a regular file; remove it and start again")
        }
        var lock = wholeFile()
        var attempts = 0
        while fcntl(fd, F_SETLK, &lock) != 0 {
            let err = errno
            if err == EINTR { continue }
            guard err == EAGAIN || err == EACCES else {
                close(fd)
                throw .io(path: path, reason: String(cString: strerror(err)))
            }
            let owner = holder(fd: fd, path: path)
            attempts += 1
            if owner == .nobody, attempts < 5 { continue }  // let go of in between: try again
            close(fd)
            let who = owner.provenPID.map { "pid \($0)" } ?? "held through \(path)"
            throw .unavailable("a session is already running (\(who)). Stop it with `focus stop`, or see it with `focus status`.")
        }
        held.withLock { $0[path] = fd }
        return SessionLock(path: path, fd: fd)
    }

    /// Lets go of the lock (it also goes with the process). Safe to call more than once.
    package func release() {
        let fd = state.withLock { s -> Int32? in
            defer { s.released = true }
            return s.released ? nil : s.fd
        }
        guard let fd else { return }
        SessionLock.held.withLock { _ = $0.removeValue(forKey: path) }
        close(fd)
    }

    /// Puts the lock file back when something removed or replaced it while the session runs
    /// (a person tidying the data directory, a sync tool): a lock on a file no longer at
    /// `path` proves nothing to the commands that open `path`, and they would take the session
    /// for gone. A new plain file is made there and locked, and the old one let go of. Returns
    /// whether the lock is in place. `focus start` calls it every half second.
    @discardableResult
    package func keepInPlace() -> Bool {
        state.withLock { s -> Bool in
            guard !s.released else { return false }
            var mine = stat(), there = stat()
            guard fstat(s.fd, &mine) == 0 else { return false }
            if lstat(path, &there) == 0, there.st_dev == mine.st_dev, there.st_ino == mine.st_ino { return true }
            // O_EXCL: a file another process has just put there is not ours to lock or replace.
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o600)
            guard fd >= 0 else { return false }
            var lock = SessionLock.wholeFile()
            guard fcntl(fd, F_SETLK, &lock) == 0 else {
                close(fd)
                return false
            }
            // The old file is another file: closing it does not touch the new lock (fcntl(2)).
            close(s.fd)
            s.fd = fd
            SessionLock.held.withLock { $0[path] = fd }
            return true
        }
    }

    deinit { release() }
}
