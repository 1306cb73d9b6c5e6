import FocusCore
import FoundationEssentials
import Glibc

/// One publisher at a time per database (README, "Publishing"): an advisory `flock(2)` on
/// `<database>.publish.lock`, held from the look at the calendar to the last write. Two
/// processes that change the plan at once (a countdown ending and `focus stop` in another
/// terminal) would otherwise both read the calendar, both write, and each take the other's
/// writes for changes made in the calendar app. The second waits for the first, then finds its
/// writes recorded and has nothing to write. The kernel drops the lock when the process ends.
package final class PublishLock {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// The lock file of the database at `path`: beside its real path, so that one database named
    /// by two paths has one lock.
    static func lockPath(forDatabase path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path + ".publish.lock" }
        defer { free(resolved) }
        return String(cString: resolved) + ".publish.lock"
    }

    /// Takes the lock, waiting up to `patience` for another process's publication to end. Nil
    /// for a database that is no file (`:memory:`) or when no lock file can be made beside it
    /// (a read-only directory): publishing then goes on unguarded, as before. Throws
    /// `unavailable` when another publication holds it longer than `patience`.
    package static func acquire(database: String, patience: Duration = .seconds(120)) throws(FocusError) -> PublishLock? {
        guard database != ":memory:", !database.isEmpty else { return nil }
        let path = lockPath(forDatabase: database)
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let err = errno
            if err == EINTR { continue }
            guard err == EWOULDBLOCK, clock.now < deadline else {
                close(fd)
                if err != EWOULDBLOCK { return nil }
                throw .unavailable("another focus process has been publishing the plan for \(patience.components.seconds) s; this one did not wait longer (the next publication writes the plan)")
            }
            usleep(20_000)
        }
        return PublishLock(fd: fd)
    }

    /// Lets go of the lock (it also goes with the process).
    package func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
