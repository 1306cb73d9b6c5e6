import FocusCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One daemon per database: an advisory `flock` on `<db>.daemon.lock`, holding the owner's pid.
/// The kernel drops the lock when the process ends, however it ends.
package final class DaemonLock: @unchecked Sendable {
    private var fd: Int32
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Takes the lock, or says which process holds it (`unavailable`, exit 69).
    package static func acquire(path: String, pid: Int32 = getpid()) throws(FocusError) -> DaemonLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
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
