import FocusCore
import FocusSystem
import FocusText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What wakes the view's loop besides a key: one byte each on a pipe the loop polls with the
/// terminal, written by the signal pipe's thread and the change watcher's.
final class UIWake: @unchecked Sendable {
    enum Reason: UInt8 { case changed = 1, quit, resize, resume, message, suspend }

    let readEnd: Int32
    private let writeEnd: Int32
    /// Sentences other threads have for the message line (a session that failed to start).
    private let messages = Mutex<[String]>([])

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        for fd in [readEnd, writeEnd] where fd >= 0 { close(fd) }
    }

    func post(_ reason: Reason) {
        var byte = reason.rawValue
        _ = write(writeEnd, &byte, 1)
    }

    /// A sentence for the message line, from any thread.
    func say(_ sentence: String) {
        messages.withLock { $0.append(sentence) }
        post(.message)
    }

    /// The oldest sentence not yet shown.
    func nextMessage() -> String? {
        messages.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// The reasons written since the last look.
    func drain() -> [Reason] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var reasons: [Reason] = []
        while true {
            let n = read(readEnd, &buffer, buffer.count)
            guard n > 0 else { break }
            reasons += buffer[0..<n].compactMap(Reason.init(rawValue:))
        }
        return reasons
    }

    /// Watches the database's directory on a thread of its own (`ChangeWatcher`, as
    /// `status --follow` does): a change asks the loop to look. It sleeps until one comes; only
    /// a directory that cannot be watched (gone) is looked at every second, by the shared rule.
    func watch(_ watcher: ChangeWatcher) {
        DetachedThread.start { [self] in
            while true {
                watcher.rewatch()
                switch watcher.wait(seconds: watcher.isWatching ? nil : WakeRule.unwatchedSeconds) {
                case .changed, .timeout: post(.changed)
                case .stop, .outputClosed:
                    post(.quit)
                    return
                }
            }
        }
    }
}
