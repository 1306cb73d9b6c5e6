import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Gives the terminal back when `focus ui` crashes (SIGSEGV, SIGBUS, SIGILL — a Swift runtime
/// trap —, SIGABRT, SIGFPE): the handler does only what signal-safety(7) allows, write(2) of
/// bytes made beforehand (attributes reset, synchronized output ended, cursor shown, alternate
/// screen left) and tcsetattr(3) with the settings saved before the view changed them, then
/// raises the signal again with its default action, so the process still dies of it as it would
/// have (sigaction(2): SA_RESETHAND, SA_NODEFER).
enum UICrashGuard {
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE]

    /// Prepares the bytes and settings and installs the handler; called before the view enters
    /// the terminal.
    static func install() {
        let bytes = Array("\u{1B}[0m\u{1B}[?2026l\u{1B}[?25h\u{1B}[?1049l".utf8)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        settings.initialize(to: termios())
        let saved = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, settings) == 0
        crashRestore = CrashRestore(bytes: buffer, count: bytes.count, settings: saved ? settings : nil)
        // The view's thread was made by one that blocks signals; a fault on it must reach the handler.
        var fatal = sigset_t()
        sigemptyset(&fatal)
        for signo in signals { sigaddset(&fatal, signo) }
        pthread_sigmask(SIG_UNBLOCK, &fatal, nil)
        for signo in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = crashHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(signo, &action, nil)
        }
    }

    /// The default actions again, once the view has given the terminal back itself.
    static func remove() {
        for signo in signals { signal(signo, SIG_DFL) }
    }
}

/// What the handler writes and sets, made before it can run (it allocates nothing).
private struct CrashRestore {
    var bytes: UnsafeMutablePointer<UInt8>
    var count: Int
    var settings: UnsafeMutablePointer<termios>?
}

nonisolated(unsafe) private var crashRestore: CrashRestore?

private func crashHandler(_ signo: Int32) {
    if let restore = crashRestore {
        _ = write(STDOUT_FILENO, restore.bytes, restore.count)
        if let settings = restore.settings { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, settings) }
    }
    // SA_RESETHAND put the default action back on entry: this ends the process as the fault would.
    raise(signo)
}
