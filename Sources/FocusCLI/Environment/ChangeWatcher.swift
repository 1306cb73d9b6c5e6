import FocusCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Sleeps until something worth a look happens, without polling: a file in a directory changed
/// (inotify(7) on the database's directory, which sees the database, its -wal file and a
/// `focus restore` renaming a new file in), `stop()` was called (the owner's `SignalPipe` calls
/// it on SIGINT or SIGTERM), standard output's reader went away (poll(2) reports POLLERR on a
/// pipe with no reader), or the time given ran out. No Dispatch: on Linux its worker pool
/// keeps a timer that wakes the process every second (measured with `strace -f`), which a
/// view idle for hours must not.
final class ChangeWatcher: @unchecked Sendable {
    enum Wake: Equatable { case timeout, changed, stop, outputClosed }

    private let directory: String
    private var inotify: Int32 = -1
    /// Whether the directory is watched now (it may not exist yet).
    private var watching = false
    /// `stop()` writes a byte on this pipe, from any thread.
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1

    init(directory: String) {
        self.directory = directory
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            wakeRead = fds[0]
            wakeWrite = fds[1]
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
    }

    deinit {
        for fd in [inotify, wakeRead, wakeWrite] where fd >= 0 { close(fd) }
    }

    /// Watches the directory if it exists now (again, after it was removed and made anew:
    /// adding a watch to an inode already watched only renews it). Returns whether it is watched.
    @discardableResult
    func rewatch() -> Bool {
        guard inotify >= 0 else { return false }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        watching = inotify_add_watch(inotify, directory, mask) >= 0
        return watching
    }

    /// Whether changes are noticed at once; without (no inotify, no directory yet), the
    /// caller should look again every second or two.
    var isWatching: Bool { watching }

    /// Ends the current or next `wait` with `.stop`; safe from any thread.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits up to `seconds` (nil: for as long as it takes) for a change, a stop or the output
    /// closing.
    func wait(seconds: Double?) -> Wake {
        var fds = [
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inotify, events: watching ? Int16(POLLIN) : 0, revents: 0),
            // No events asked: poll still reports POLLERR/POLLHUP when the reader is gone.
            pollfd(fd: STDOUT_FILENO, events: 0, revents: 0),
        ]
        // Rounded up: a wake a millisecond early would find nothing changed and sleep again.
        let timeout = seconds.map { Int32((max(0, min($0, 86_400)) * 1000).rounded(.up)) } ?? -1
        let n = poll(&fds, nfds_t(fds.count), timeout)
        if n < 0 { return errno == EINTR ? .changed : .timeout }
        if n == 0 { return .timeout }
        if fds[0].revents != 0 { return .stop }
        if fds[2].revents & Int16(POLLERR | POLLHUP) != 0 { return .outputClosed }
        if fds[1].revents != 0 {
            drain()
            return .changed
        }
        return .timeout
    }

    /// Reads the pending events (what changed is looked at by the caller, with stat).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buffer, buffer.count) > 0 {}
    }
}
