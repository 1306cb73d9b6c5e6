import FocusServices
import FocusText
import Glibc

/// The services' `Prompter` on the terminal: yes-or-no questions through the environment's
/// `ask` (standard error, answered on standard input), passwords typed with echo off.
struct TerminalPrompter: Prompter {
    let ask: @Sendable (_ question: DisplayText) -> Bool

    func confirm(_ question: DisplayText) -> Bool { ask(question) }

    /// Asks on the terminal with echo off (termios(3)); nil when standard input or error is not
    /// a terminal, or nothing was typed.
    func password(_ question: DisplayText) -> String? {
        guard isatty(0) == 1, isatty(2) == 1 else { return nil }
        StandardConsole.write(question.string, to: STDERR_FILENO)
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(0, TCSANOW, &saved) }
            StandardConsole.write("\n", to: STDERR_FILENO)
        }
        guard let line = Swift.readLine(strippingNewline: true), !line.isEmpty else { return nil }
        return line
    }
}
