import FocusCore
import FocusSystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: standard output and standard error.
package struct StandardConsole: Console {
    package let isInteractive: Bool
    package let allowsColor: Bool

    package init(environment: [String: String]) {
        let tty = isatty(STDOUT_FILENO) == 1
        let dumb = environment["TERM"] == "dumb" || environment["TERM"] == nil
        isInteractive = tty && !dumb
        allowsColor = isInteractive && environment["NO_COLOR"].map(\.isEmpty) != false
    }

    /// `COLUMNS` when set (POSIX, XBD "Environment Variables": it overrides the system's
    /// width), else the terminal's, else 80.
    package var width: Int {
        if let cols = getenv("COLUMNS").map({ String(cString: $0) }).flatMap(Int.init), cols > 0 { return cols }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    package func out(_ text: String) { StandardConsole.write(text, to: STDOUT_FILENO) }
    package func err(_ text: String) { StandardConsole.write(text, to: STDERR_FILENO) }

    /// Standard output's failure first (that is what a script loses), else standard error's.
    package var writeFailure: ConsoleWriteFailure? {
        StandardConsole.failures.withLock { failed in
            if let code = failed[STDOUT_FILENO] { return ConsoleWriteFailure(stream: .output, code: code) }
            return failed[STDERR_FILENO].map { ConsoleWriteFailure(stream: .error, code: $0) }
        }
    }

    /// The errno of the first failed write on each descriptor (they are the process's, so this is too).
    private static let failures = Mutex<[Int32: Int32]>([:])

    /// Writes all of `text`, or records why it could not: a failed or short write (a full disk,
    /// a closed descriptor, EPIPE once the reader has gone: SIGPIPE is ignored) is remembered,
    /// nothing more is written to that stream, and the command exits 74 (README, exit codes).
    static func write(_ text: String, to fd: Int32) {
        guard failures.withLock({ $0[fd] == nil }) else { return }
        if closedStreams.withLock({ $0.contains(fd) }) {
            fail(fd, EBADF)
            return
        }
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 || (n == 0 && buffer.count > offset) {
                    let code = n < 0 ? errno : EIO
                    if code == EINTR { continue }
                    fail(fd, code)
                    return
                }
                offset += n
            }
        }
    }

    private static func fail(_ fd: Int32, _ code: Int32) {
        failures.withLock { if $0[fd] == nil { $0[fd] = code } }
    }

    /// Standard output or error as the process was started without them (`focus export >&-`).
    private static let closedStreams = Mutex<Set<Int32>>([])

    /// Notes which of descriptors 1 and 2 the process was started without (`focus export
    /// >&-`): writing to them is then a failure (EBADF) like any other, and nothing meant for
    /// them reaches whatever file took their number. A descriptor still free is given
    /// /dev/null, read-only, so the next file focus opens (an output file, a lock) cannot get
    /// it; one the runtime took before `main` (its event loop's epoll or eventfd: an
    /// anonymous inode, which no shell can redirect to) is left to the runtime. Descriptor 0
    /// gets /dev/null too when free, so nothing reads a stranger's file as standard input.
    static func reserveStandardDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            if fcntl(fd, F_GETFD) < 0, errno == EBADF {
                let null = open("/dev/null", O_RDONLY)
                if null >= 0, null != fd {
                    _ = dup2(null, fd)
                    close(null)
                }
                if fd != STDIN_FILENO { closedStreams.withLock { _ = $0.insert(fd) } }
            } else if fd != STDIN_FILENO, isAnonymousInode(fd) {
                closedStreams.withLock { _ = $0.insert(fd) }
            }
        }
    }

    /// Whether `fd` is an epoll, eventfd, signalfd or timerfd: `anon_inode:[...]` in /proc.
    private static func isAnonymousInode(_ fd: Int32) -> Bool {
        var info = stat()
        // Files, pipes, sockets and terminals have a type; anonymous inodes have none.
        guard fstat(fd, &info) == 0, FileKind(mode: info.st_mode) == .other else { return false }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return false }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("anon_inode:")
    }
}
