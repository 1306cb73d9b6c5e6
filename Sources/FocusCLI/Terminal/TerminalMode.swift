import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The controlling terminal, `/dev/tty` (tty(4)): where the countdown's keys come from whatever
/// standard input and output are (`focus start X | tee log`).
package final class ControllingTerminal: Sendable {
    /// The open terminal, or -1 when the process has none (a service, a test under CI).
    package let fd: Int32

    package init() {
        fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Whether there is one and this process is in its foreground process group (a job started
    /// with `&` or continued with `bg` must leave it be: tcsetattr(3)).
    package var isForeground: Bool {
        guard fd >= 0 else { return false }
        let group = tcgetpgrp(fd)
        return group >= 0 && group == getpgrp()
    }
}

/// The terminal's settings, switched to cbreak (keys arrive one by one, no echo; Ctrl-C still
/// raises SIGINT) and put back exactly as they were on every way out.
///
/// `enter` may come from another thread than `restore` (a SIGCONT, read on the signal pipe's
/// thread, puts the mode back after Ctrl-Z and `fg`): once `finish` has restored the terminal
/// for the last time, a late `enter` does nothing, so no order of a signal and the end of a
/// run leaves the terminal in cbreak mode after the process is gone.
package final class TerminalMode: @unchecked Sendable {
    private var original = termios()
    private var active = false
    private var finished = false
    private let lock = Mutex(())
    private let fd: Int32
    private let hidesCursor: Bool

    /// `fd` is the terminal (standard input when not given); the cursor is hidden while the
    /// mode is on only when `hidesCursor` (a live redraw on standard output).
    package init(fd: Int32 = STDIN_FILENO, hidesCursor: Bool = true) {
        self.fd = fd
        self.hidesCursor = hidesCursor
    }

    /// Enters cbreak mode and hides the cursor. Does nothing when `fd` is not a terminal.
    package func enter() {
        lock.withLock { _ in
            guard !active, !finished, fd >= 0, isatty(fd) == 1, tcgetattr(fd, &original) == 0 else { return }
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            if tcsetattr(fd, TCSAFLUSH, &raw) == 0 {
                active = true
                if hidesCursor { StandardConsole.write("\u{1B}[?25l", to: STDOUT_FILENO) }
            }
        }
    }

    /// Restores the saved settings and shows the cursor again. Safe to call more than once.
    package func restore() {
        lock.withLock { _ in restoreLocked() }
    }

    /// Restores the settings for the last time, in the same step: `enter` does nothing from now on.
    package func finish() {
        lock.withLock { _ in
            restoreLocked()
            finished = true
        }
    }

    private func restoreLocked() {
        guard active else { return }
        var saved = original
        // Tried again when a signal interrupts the wait for output to drain (tcsetattr(3)).
        while tcsetattr(fd, TCSAFLUSH, &saved) != 0, errno == EINTR {}
        if hidesCursor { StandardConsole.write("\u{1B}[?25h", to: STDOUT_FILENO) }
        active = false
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
