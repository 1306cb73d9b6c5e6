import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings, switched to cbreak (keys arrive one by one, no echo; Ctrl-C still
/// raises SIGINT) and put back exactly as they were on every way out.
package final class TerminalMode: @unchecked Sendable {
    private var original = termios()
    private var active = false
    private let lock = Mutex(())

    package init() {}

    /// Enters cbreak mode and hides the cursor. Does nothing when standard input is not a terminal.
    package func enter() {
        lock.withLock { _ in
            guard !active, isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else { return }
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            if tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 {
                active = true
                StandardConsole.write("\u{1B}[?25l", to: STDOUT_FILENO)
            }
        }
    }

    /// Restores the saved settings and shows the cursor again. Safe to call more than once.
    package func restore() {
        lock.withLock { _ in
            guard active else { return }
            var saved = original
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            StandardConsole.write("\u{1B}[?25h", to: STDOUT_FILENO)
            active = false
        }
    }

    /// Whether this process is in the terminal's foreground process group (a job continued with
    /// `bg` is not, and must leave the terminal's settings alone: tcsetattr(3)).
    package static var isForeground: Bool {
        let group = tcgetpgrp(STDIN_FILENO)
        return group >= 0 && group == getpgrp()
    }

    /// Reads one line in the terminal's normal (cooked) mode: for the interruption reason.
    /// Returns nil at end of input.
    package static func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }
}
