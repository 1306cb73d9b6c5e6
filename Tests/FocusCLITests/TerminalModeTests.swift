import FocusCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The countdown's terminal mode (README, "The countdown"): whatever order the end of a run and
/// a signal come in, the terminal is left as it was. A SIGCONT is read on the signal pipe's
/// thread and puts cbreak mode back (after Ctrl-Z and `fg`); one that came just after the run
/// restored the terminal used to put it back for good, the process then exiting with the
/// terminal in cbreak mode.
struct TerminalModeTests {
    /// A pseudo-terminal (openpty(3)): the end a program would have as its terminal.
    private final class PseudoTerminal {
        var master: Int32 = -1
        var slave: Int32 = -1

        init() throws {
            guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.ENOTTY) }
        }

        deinit {
            close(master)
            close(slave)
        }

        var isCooked: Bool {
            var t = termios()
            _ = tcgetattr(slave, &t)
            return t.c_lflag & tcflag_t(ICANON) != 0 && t.c_lflag & tcflag_t(ECHO) != 0
        }
    }

    @Test func aLateEnterAfterTheLastRestoreLeavesTheTerminalAsItWas() throws {
        let pty = try PseudoTerminal()
        let mode = TerminalMode(fd: pty.slave, hidesCursor: false)
        mode.enter()
        #expect(!pty.isCooked, "cbreak while the countdown runs")
        mode.finish()
        #expect(pty.isCooked)
        mode.enter()  // a SIGCONT handled after the run ended
        #expect(pty.isCooked, "the terminal stays as it was after the run")
    }

    @Test func aSuspendedRunStillGetsItsModeBack() throws {
        let pty = try PseudoTerminal()
        let mode = TerminalMode(fd: pty.slave, hidesCursor: false)
        mode.enter()
        mode.restore()  // Ctrl-Z: the terminal as it was while stopped
        #expect(pty.isCooked)
        mode.enter()  // `fg`
        #expect(!pty.isCooked)
        mode.finish()
        #expect(pty.isCooked)
    }
}
