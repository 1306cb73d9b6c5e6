import FocusCore
import FocusNotifications

extension DoctorCommand {
    /// Whether the countdown can tell when the person is away (README, "Away from the screen"):
    /// what it watches, or why nothing. Never a problem: without a screen saver or a session
    /// lock to watch, time counts as it always did.
    static func idleDetection(env: FocusEnvironment) -> String {
        let watcher = env.makeAwayWatcher()
        let source = watcher.start { _ in }
        watcher.stop()
        let policy = env.config.idle
        guard let source else {
            let reason = (watcher as? DBusAwayWatcher)?.offReason ?? "nothing to watch"
            return "off: \(reason); time at a locked screen counts as focus"
        }
        if policy == .keep {
            return "off: `idle` is keep (\(source) found); time at a locked screen counts as focus"
        }
        return "on: \(source); time at a locked screen: \(policy.rawValue) (config `idle`)"
    }
}
