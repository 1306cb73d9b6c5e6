import FocusCore
import FocusText
import FoundationEssentials
import Glibc

/// Who a file is for, which decides its permissions (README, Files).
package enum FileAccess: Sendable {
    /// A file the person asked for (`report --html`, `export --output`, `calendar export`, the
    /// systemd unit of `daemon --install`): created 0666 less the umask, as cp(1) creates one;
    /// a regular file it replaces keeps its permissions, as cp's target does.
    case requested
    /// A file focus keeps for itself (the config; the database, its backups and the hook log are
    /// made elsewhere the same way): 0600 whatever the umask, as it may hold private notes.
    case privateToUser
}

/// The one home of the files focus writes (`export --output`, `report --html`, `calendar
/// export`, the config and the systemd unit, `backup FILE`, the daily backups and `restore`'s
/// new database): written in pieces to a new temporary file beside the target (or by SQLite
/// through `temporaryPath`), fsync'd, then renamed over it only when complete, and the rename
/// made durable by an fsync of the directory (fsync(2)). A crash, a full disk or a dropped
/// writer leaves the old file as it was.
///
/// What may be replaced is `OutputFile`'s rule: a new name, a regular file, or a symbolic link
/// (replaced, never written through); a directory, FIFO, socket or device is refused (exit 74).
/// When the caller allows it, `-` or a name of standard output itself (`/dev/stdout`) is
/// written to standard output through the console instead.
package final class AtomicFileWriter {
    package let path: String
    /// The temporary file; nil when writing to standard output.
    private let temp: String?
    private var fd: Int32
    private let console: (any Console)?

    /// Whether this writes to standard output rather than a file.
    package var isStandardOutput: Bool { console != nil }

    /// The temporary file, for a writer that writes it by its name (SQLite's backup); nil when
    /// writing to standard output. It is renamed over `path` by `commit` and removed otherwise.
    package var temporaryPath: String? { temp }

    /// - Parameters:
    ///   - standardOutput: the console to write to when `path` is `-` or standard output itself;
    ///     nil refuses standard output like any other non-regular file.
    ///   - makeParent: create missing parent directories (0700) rather than refuse.
    ///   - access: who the file is for: its permissions (`FileAccess`).
    package init(path: String, access: FileAccess, standardOutput: (any Console)? = nil, makeParent: Bool = false) throws(FocusError) {
        self.path = path
        if let standardOutput, OutputFile.isStandardOutput(path) {
            temp = nil
            fd = -1
            console = standardOutput
            return
        }
        console = nil
        try OutputFile.checkReplaceable(path)
        let directory = Paths.directory(of: path)
        if makeParent {
            do {
                try PrivateDirectory.makeParent(of: path)
            } catch {
                throw .io(path: directory, reason: "cannot create the directory")
            }
        } else if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            throw .io(path: path, reason: "the directory \(directory) does not exist")
        }
        // A fresh, unpredictable name, created exclusively and never through a link.
        let base = Paths.name(of: path)
        let name = ".\(base).focus-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let temp = directory.isEmpty ? name : directory + "/" + name
        self.temp = temp
        // open(2) takes the umask off 0666 for a requested file; a private one is made 0600 and
        // set so whatever the umask.
        fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, access == .requested ? 0o666 : 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        var replaced = stat()
        if access == .privateToUser {
            fchmod(fd, 0o600)
        } else if lstat(path, &replaced) == 0, (replaced.st_mode & S_IFMT) == S_IFREG {
            fchmod(fd, replaced.st_mode & 0o777)
        }
    }

    deinit {
        if fd >= 0 {
            close(fd)
            if let temp { unlink(temp) }
        }
    }

    /// Appends `bytes` (to standard output, a failed write throws `.output`).
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FocusError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if let console {
            console.out(String(decoding: UnsafeRawBufferPointer(start: base, count: bytes.count), as: UTF8.self))
            try console.checkOutput()
            return
        }
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

    package func write(_ text: String) throws(FocusError) {
        var failure: FocusError?
        Array(text.utf8).withUnsafeBytes { raw in
            do throws(FocusError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes to disk and renames the file into place.
    package func commit() throws(FocusError) {
        guard let temp else { return }
        let failed = fsync(fd) != 0
        let code = errno
        let closed = close(fd) == 0
        let closeCode = errno
        fd = -1
        if failed || !closed {
            unlink(temp)
            throw .io(path: path, reason: String(cString: strerror(failed ? code : closeCode)))
        }
        // Checked again just before the rename: a FIFO or device put there meanwhile stays.
        do {
            try OutputFile.checkReplaceable(path)
        } catch {
            unlink(temp)
            throw error
        }
        if rename(temp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw .io(path: path, reason: reason)
        }
        // The rename is in the directory: flushed too, or a crash may bring the old name back.
        let directory = Paths.directory(of: path)
        let dir = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}

/// A whole file written at once through `AtomicFileWriter`.
package enum AtomicFile {
    package static func write(_ text: String, to path: String, access: FileAccess,
                               standardOutput: (any Console)? = nil, makeParent: Bool = true) throws(FocusError) {
        let file = try AtomicFileWriter(path: path, access: access, standardOutput: standardOutput, makeParent: makeParent)
        try file.write(text)
        try file.commit()
    }
}
