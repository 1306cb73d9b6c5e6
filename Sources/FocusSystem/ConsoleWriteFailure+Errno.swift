import FocusCore
import Glibc

extension ConsoleWriteFailure {
    /// The failure of a write(2) that set `code` (errno(3)): its words from strerror(3).
    package init(stream: Stream, code: Int32) {
        let reason = code == EBADF ? "it is closed" : String(cString: strerror(code))
        self.init(stream: stream, code: code, reason: reason, isBrokenPipe: code == EPIPE)
    }
}
