import FocusTUI
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The terminal `focus ui` draws on: the alternate screen (private mode 1049, terminfo(5)'s
/// smcup/rmcup on xterm-like terminals), cbreak mode with the cursor hidden (`TerminalMode`),
/// and frames written as line diffs (`LineDiff`).
final class UITerminal {
    private let mode = TerminalMode(fd: STDIN_FILENO, hidesCursor: true)
    private var drawn: [String]?
    private let color: Bool
    private var entered = false

    init(color: Bool) {
        self.color = color
    }

    /// Standard input and output are a terminal that can move its cursor (not `TERM=dumb`).
    static func isUsable(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !term.isEmpty && term != "dumb"
    }

    /// Columns and rows of the terminal (80×24 when it does not say).
    static func size() -> (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    func enter() {
        StandardConsole.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J", to: STDOUT_FILENO)
        mode.enter()
        entered = true
        drawn = nil
    }

    /// Back to the screen and modes as they were: attributes reset, synchronized output ended,
    /// the cursor shown, the terminal's settings restored, the alternate screen left.
    func leave() {
        guard entered else { return }
        StandardConsole.write("\u{1B}[0m\u{1B}[?2026l", to: STDOUT_FILENO)
        mode.restore()
        StandardConsole.write("\u{1B}[?25h\u{1B}[?1049l", to: STDOUT_FILENO)
        entered = false
    }

    /// Puts the terminal back in the view's screen and mode after the job was continued (`fg`).
    func resume() {
        if entered {
            mode.restore()
            mode.enter()
            drawn = nil
        } else {
            enter()
        }
    }

    /// Writes what changed since the last frame, while the view is on screen.
    func draw(_ frame: Frame) {
        // Left (Ctrl-Z): the shell has the screen until the view is entered again.
        guard entered else { return }
        let lines = frame.lines(color: color)
        if let bytes = LineDiff.bytes(from: drawn, to: lines) { StandardConsole.write(bytes, to: STDOUT_FILENO) }
        drawn = lines
    }

    /// The next frame is drawn whole (after a resize).
    func invalidate() { drawn = nil }
}
