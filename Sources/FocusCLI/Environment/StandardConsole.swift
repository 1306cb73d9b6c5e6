import FocusCore
import Foundation

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

    package var width: Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let cols = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), cols > 0 { return cols }
        return 80
    }

    package func out(_ text: String) { StandardConsole.write(text, to: STDOUT_FILENO) }
    package func err(_ text: String) { StandardConsole.write(text, to: STDERR_FILENO) }

    /// Writes all of `text` (a closed pipe ends quietly: SIGPIPE is ignored at start-up).
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
