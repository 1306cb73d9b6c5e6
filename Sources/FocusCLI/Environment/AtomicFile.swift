import FocusCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes a file all at once: a temporary file beside it, fsync, then rename over the old one.
/// A crash or a full disk leaves the old file as it was.
package enum AtomicFile {
    package static func write(_ text: String, to path: String, mode: mode_t) throws(FocusError) {
        // A device or a pipe (/dev/stdout, a FIFO) is written into, never renamed over.
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw .io(path: path, reason: "cannot open it for writing") }
            do {
                try handle.write(contentsOf: Data(text.utf8))
                try handle.close()
            } catch {
                throw .io(path: path, reason: "write failed")
            }
            return
        }
        do {
            try PrivateDirectory.makeParent(of: path)
        } catch {
            throw .io(path: (path as NSString).deletingLastPathComponent, reason: "cannot create the directory")
        }
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temp)
                throw .io(path: path, reason: reason)
            }
            written += n
        }
        if fsync(fd) != 0 || close(fd) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw .io(path: path, reason: reason)
        }
        if rename(temp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw .io(path: path, reason: reason)
        }
    }
}
