import FocusCore
import FoundationEssentials
import Glibc

/// What a path names, for the rules on files named on the command line (README, "Files named
/// on the command line"): focus reads and replaces only regular files.
package enum FileKind: Equatable, Sendable {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other

    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// "a directory", "a FIFO (named pipe)", ...: for error messages.
    package var phrase: String {
        switch self {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO (named pipe)"
        case .socket: return "a socket"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .symbolicLink: return "a symbolic link"
        case .other: return "not a file"
        }
    }
}

/// The one way commands open a file they read (`import`, `restore`, `calendar import`):
/// a file that does not exist, or is a directory, FIFO, socket or device, is `noInputFile`
/// (exit 66) naming the path; one that exists but cannot be read is `unreadable` (74). The
/// file is opened with O_NONBLOCK and checked with fstat before anything is read, so a FIFO
/// never blocks and a device is never read.
package enum InputFile {
    /// Opens `path` for reading (close-on-exec, blocking reads) after checking it is a regular file.
    package static func open(_ path: String) throws(FocusError) -> Int32 {
        guard !path.isEmpty else { throw .invalidValue(what: "file name", value: path, expected: "the path of a file to read") }
        // stat first: a device or FIFO is refused without being opened at all.
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(path, errno) }
        try requireRegular(path, info)
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, errno) }
        // The path may have been swapped between stat and open: what was opened is what counts.
        var opened = stat()
        guard fstat(fd, &opened) == 0 else {
            let code = errno
            close(fd)
            throw failure(path, code)
        }
        do {
            try requireRegular(path, opened)
        } catch {
            close(fd)
            throw error
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// Checks that `path` can be read as an input file, without reading it.
    package static func check(_ path: String) throws(FocusError) {
        close(try open(path))
    }

    /// A read that failed after the file was opened (EISDIR cannot happen: it is regular).
    package static func readFailure(_ path: String, _ code: Int32) -> FocusError {
        .unreadable(path: path, reason: String(cString: strerror(code)))
    }

    private static func requireRegular(_ path: String, _ info: stat) throws(FocusError) {
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regular else {
            throw .noInputFile(path: path, reason: "it is \(kind.phrase), not a regular file. Name a regular file")
        }
    }

    /// errno from stat or open, as the rule says: missing → 66, unreadable → 74.
    static func failure(_ path: String, _ code: Int32) -> FocusError {
        switch code {
        case ENOENT:
            return .noInputFile(path: path, reason: "no such file. Check the path")
        case ENOTDIR:
            return .noInputFile(path: path, reason: "no such file (a part of the path is not a directory). Check the path")
        case ELOOP:
            return .noInputFile(path: path, reason: "no such file (too many levels of symbolic links). Check the path")
        case ENAMETOOLONG:
            return .noInputFile(path: path, reason: "no such file (the name is too long). Check the path")
        case ENXIO, ENODEV:
            // open(2) on a socket, or on a device with no driver behind it.
            return .noInputFile(path: path, reason: "it is not a regular file. Name a regular file")
        case EACCES, EPERM:
            return .unreadable(path: path, reason: "permission denied")
        default:
            return .unreadable(path: path, reason: String(cString: strerror(code)))
        }
    }
}

/// The rule for files focus writes on request (`backup FILE`, `export --output`, `report
/// --html`, `calendar export`, and its own config and unit files): a new file is created, a
/// regular file (or a symbolic link to one, or a dangling one) is replaced by a new file renamed
/// over the name, never written through; anything else — a directory, FIFO, socket or device,
/// or a link to one — is refused with `io` (exit 74) naming the path. Standard output itself
/// is the caller's business (`isStandardOutput`).
package enum OutputFile {
    /// Throws unless a new regular file may be renamed over `path`.
    package static func checkReplaceable(_ path: String) throws(FocusError) {
        guard !path.isEmpty else { throw .invalidValue(what: "file name", value: path, expected: "the path of a file to write") }
        var info = stat()
        // Missing (or an unusable directory part): creating the file will say what is wrong.
        guard lstat(path, &info) == 0 else { return }
        var kind = FileKind(mode: info.st_mode)
        if kind == .regular { return }
        var link = ""
        if kind == .symbolicLink {
            var target = stat()
            // A dangling link is replaced like a regular file: nothing it points to is touched.
            guard stat(path, &target) == 0 else { return }
            kind = FileKind(mode: target.st_mode)
            var out = stat()
            if fstat(STDOUT_FILENO, &out) == 0, out.st_dev == target.st_dev, out.st_ino == target.st_ino {
                // `/dev/stdout` while standard output is a file: renaming over the link would
                // replace the system's /dev/stdout.
                throw .io(path: path, reason: "it is standard output, and this command writes only to a file. Name a file")
            }
            if kind == .regular { return }
            link = "a symbolic link to "
        }
        throw .io(path: path, reason: "it is \(link)\(kind.phrase), not a regular file, and focus replaces only regular files. Name a new file or a regular one")
    }

    /// `path`, else `path-2`, `path-3`… : the first name nothing has (lstat(2): a dangling
    /// symbolic link is a name in use), for copies kept aside (`restore`, sync's backups).
    package static func firstUnused(_ path: String) -> String {
        var candidate = path
        var n = 2
        var info = stat()
        while lstat(candidate, &info) == 0 {
            candidate = "\(path)-\(n)"
            n += 1
        }
        return candidate
    }

    /// Whether `path` is standard output itself: `-`, or a name of the very file standard
    /// output is open on (`/dev/stdout`, `/proc/self/fd/1`, the terminal's device).
    package static func isStandardOutput(_ path: String) -> Bool {
        if path == "-" { return true }
        var named = stat()
        var out = stat()
        guard stat(path, &named) == 0, fstat(STDOUT_FILENO, &out) == 0 else { return false }
        return named.st_dev == out.st_dev && named.st_ino == out.st_ino
    }
}
