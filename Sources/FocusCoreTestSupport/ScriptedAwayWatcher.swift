import FocusCore
import FoundationEssentials
import Synchronization

/// An `AwayWatcher` a test drives by hand: `start` says it watches `source` (nil: nothing to
/// watch), and `emit` hands the observer a change, as a screen saver's signal would.
package final class ScriptedAwayWatcher: AwayWatcher {
    private let source: String?
    private let observer = Mutex<(@Sendable (AwayObservation) -> Void)?>(nil)

    package init(source: String? = "org.freedesktop.ScreenSaver") {
        self.source = source
    }

    package var isWatching: Bool { observer.withLock { $0 != nil } }

    package func start(_ observe: @escaping @Sendable (AwayObservation) -> Void) -> String? {
        guard let source else { return nil }
        observer.withLock { $0 = observe }
        return source
    }

    package func stop() { observer.withLock { $0 = nil } }

    /// The screen locked (true) or the person came back (false) at `at`.
    package func emit(isAway: Bool, at: Date) {
        observer.withLock { $0 }?(AwayObservation(isAway: isAway, at: at))
    }
}
