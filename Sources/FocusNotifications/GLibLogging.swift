import Synchronization

/// GLib's log writer can be replaced once per process (`g_log_set_writer_func` aborts on a
/// second call), and both libnotify and GIO's D-Bus client load GLib: whichever comes first
/// installs the writer that drops every message, so no GLib warning reaches the terminal.
enum GLibLogging {
    private static let installed = Mutex(false)

    /// Runs `install` (which calls `g_log_set_writer_func`) unless it already ran in this process.
    static func silenceOnce(_ install: () -> Void) {
        installed.withLock { done in
            guard !done else { return }
            install()
            done = true
        }
    }
}
