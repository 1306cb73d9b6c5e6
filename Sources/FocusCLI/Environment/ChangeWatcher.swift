import Dispatch
import FocusCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Sleeps until something worth a look happens, without polling: a file in a directory changed
/// (inotify(7) on the database's directory, which sees the database, its -wal file and a
/// `focus restore` renaming a new file in), SIGINT or SIGTERM arrived, standard output's reader
/// went away (poll(2) reports POLLERR on a pipe with no reader), or the time given ran out.
final class ChangeWatcher: @unchecked Sendable {
    enum Wake: Equatable { case timeout, changed, stop, outputClosed }

    private let directory: String
    private var inotify: Int32 = -1
    /// Whether the directory is watched now (it may not exist yet).
    private var watching = false
    /// Signals are turned into a byte on this pipe (nothing runs in a signal handler).
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "focus.follow.signals")

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
        let write = wakeWrite
        for signo in [SIGINT, SIGTERM] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
            source.setEventHandler {
                var byte: UInt8 = 1
                _ = Glibc.write(write, &byte, 1)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for s in sources { s.cancel() }
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

    /// Waits up to `seconds` for a change, a signal or the output closing.
    func wait(seconds: Double) -> Wake {
        var fds = [
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            pollfd(fd: inotify, events: watching ? Int16(POLLIN) : 0, revents: 0),
            // No events asked: poll still reports POLLERR/POLLHUP when the reader is gone.
            pollfd(fd: STDOUT_FILENO, events: 0, revents: 0),
        ]
        let timeout = Int32(max(0, min(seconds, 3600)) * 1000 + 0.5)
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
