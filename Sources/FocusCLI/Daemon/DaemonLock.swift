import FocusSystem
import FocusText
import FocusCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// One daemon per database: an advisory `flock` on `<db>.daemon.lock`, holding the owner's pid.
/// The kernel drops the lock when the process ends, however it ends.
///
/// The lock sits beside the database's real path (`lockPath(forDatabase:)`), so one database
/// named by two paths (a symbolic link, `./`, `..`) has one lock. The file is opened with
/// O_NOFOLLOW and written only when it is a regular file of this user's with one link and no
/// more than a pid in it: a link or a stranger's file put in its place is refused, never
/// followed, filled or truncated.
package final class DaemonLock: @unchecked Sendable {
    private var fd: Int32
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// `<real path of the database>.daemon.lock`.
    package static func lockPath(forDatabase database: String) -> String {
        realPath(of: database) + ".daemon.lock"
    }

    /// The database's path with every symbolic link, `.` and `..` resolved: realpath(3) of the
    /// file, or of its directory plus its name when the file does not exist yet.
    package static func realPath(of path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let directory = Paths.directory(of: path)
        let name = Paths.name(of: path)
        guard let resolved = realpath(directory.isEmpty ? "." : directory, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + name
    }

    /// The most a lock file of focus's holds: a pid and a line break.
    private static let largestLockFile = 32

    /// Takes the lock, or says which process holds it (`unavailable`, exit 69).
    package static func acquire(path: String, pid: Int32 = getpid()) throws(FocusError) -> DaemonLock {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP {
                throw .io(path: path, reason: "the daemon's lock file is a symbolic link, which focus never follows. Remove it")
            }
            throw .io(path: path, reason: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, FileKind(mode: info.st_mode) == .regular, info.st_nlink == 1,
              info.st_uid == geteuid(), info.st_size <= largestLockFile else {
            close(fd)
            throw .io(path: path, reason: "it is not a lock file focus made (a regular file of yours holding only a pid). Move it away if no focus daemon runs")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = errno
            if err == EINTR { continue }
            defer { close(fd) }
            if err == EWOULDBLOCK {
                let owner = readPid(fd).map { "pid \($0)" } ?? "another process"
                throw .unavailable("a focus daemon is already running for this database (\(owner), lock \(path)). Stop it first, e.g. `systemctl --user stop focus` or `kill \(readPid(fd).map(String.init) ?? "PID")`.")
            }
            throw .io(path: path, reason: String(cString: strerror(err)))
        }
        let text = Array("\(pid)\n".utf8)
        if ftruncate(fd, 0) != 0 || pwrite(fd, text, text.count, 0) != text.count {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .io(path: path, reason: reason)
        }
        return DaemonLock(fd: fd, path: path)
    }

    private static func readPid(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[0..<n], as: UTF8.self).trimmingSpacesAndNewlines()
        return Int32(text)
    }

    /// Lets go of the lock (it also goes with the process).
    package func release() {
        guard fd >= 0 else { return }
        _ = ftruncate(fd, 0)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
