import FoundationEssentials

/// One change of the screen's state seen by an `AwayWatcher`: the screen locked or the screen
/// saver came on (`isAway`), or the person is back, at `at`.
package struct AwayObservation: Sendable, Equatable {
    package var isAway: Bool
    package var at: Date

    package init(isAway: Bool, at: Date) {
        self.isAway = isAway
        self.at = at
    }
}

/// Watches whether the person is away from the screen: the desktop's screen saver or the login
/// session's lock (README, "Away from the screen"). The adapter lives at the edge (D-Bus).
package protocol AwayWatcher: Sendable {
    /// Starts watching. `observe` is called on the watcher's own thread for each change, and
    /// at once when the screen is already locked. Returns what is watched (a D-Bus name such as
    /// `org.gnome.ScreenSaver`), or nil when nothing can be watched (no bus, no screen saver):
    /// then `observe` is never called.
    func start(_ observe: @escaping @Sendable (AwayObservation) -> Void) -> String?
    /// Stops watching; no observation comes after it returns.
    func stop()
}

/// Watches nothing: for runs that do not look at the screen.
package struct NoAwayWatcher: AwayWatcher {
    package init() {}
    package func start(_ observe: @escaping @Sendable (AwayObservation) -> Void) -> String? { nil }
    package func stop() {}
}
