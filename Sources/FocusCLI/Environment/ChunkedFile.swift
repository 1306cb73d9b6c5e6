import FocusCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Large files read and written in chunks: an import or export of a million sessions keeps
/// memory flat.
package enum ChunkedFile {
    /// Calls `body` with successive chunks of the file (at most `chunkSize` bytes each).
    /// A missing file is a usage error (64), a failing read an I/O error (74).
    package static func read(_ path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw FocusError.usage("cannot read \(path): no such file. Check the path.")
            }
            throw FocusError.io(path: path, reason: "cannot read it (\(String(cString: strerror(code))))")
        }
        defer { close(fd) }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno == EISDIR ? "it is a directory" : String(cString: strerror(errno))
                throw FocusError.io(path: path, reason: "cannot read it (\(reason))")
            }
            if n == 0 { return }
            try body(UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}

extension ChunkedFile {
    /// The first `count` bytes of the file (fewer when it is shorter; none when it cannot be
    /// read: `read` reports that properly).
    package static func head(_ path: String, count: Int = 4096) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }
}

/// A file written in pieces and put in place only when complete: a temporary file beside it,
/// fsync, then rename over the old one (see `AtomicFile`). Dropped without `commit`, it
/// removes the temporary file and leaves the old file as it was. A path that is not a regular
/// file (`/dev/stdout`, `/dev/null`, a pipe) is written to directly: renaming over it would
/// replace the device or pipe with a file.
package final class AtomicFileWriter {
    package let path: String
    /// The temporary file, or nil when writing straight to a device or pipe.
    private let temp: String?
    private var fd: Int32

    package init(path: String, mode: mode_t) throws(FocusError) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw .io(path: path, reason: "it is a directory") }
            temp = nil
            fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw .io(path: path, reason: "the directory \(directory) does not exist")
        }
        let temp = path + ".tmp-\(getpid())"
        self.temp = temp
        fd = open(temp, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit {
        if fd >= 0 {
            close(fd)
            if let temp { unlink(temp) }
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(FocusError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let n = Glibc.write(fd, base + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            written += n
        }
    }

    /// Flushes to disk and renames the file into place.
    package func commit() throws(FocusError) {
        guard let temp else {
            close(fd)
            fd = -1
            return
        }
        let failed = fsync(fd) != 0
        let code = errno
        close(fd)
        fd = -1
        if failed || rename(temp, path) != 0 {
            let reason = String(cString: strerror(failed ? code : errno))
            unlink(temp)
            throw .io(path: path, reason: reason)
        }
    }
}
