import FocusCore
import FoundationEssentials

extension StartCommand {
    /// Starts watching the screen saver and the session lock for a countdown (README, "Away from
    /// the screen"): each change goes to the runner's mailbox, and the runner follows config
    /// `idle` (`ask` only when someone at the terminal can answer; `discard` otherwise).
    /// Nothing is watched under `keep`. Returns the watcher to stop when the run is over.
    static func watchAway<C: Clock>(
        for runner: inout SessionRunner<C>, env: FocusEnvironment, mailbox: Mailbox<SessionCommand>, canAsk: Bool
    ) -> (any AwayWatcher)? where C.Duration == Duration {
        runner.idle = env.config.idle.effective(canAsk: canAsk)
        guard runner.idle != .keep else { return nil }
        let watcher = env.makeAwayWatcher()
        guard watcher.start({ mailbox.post(.away($0.isAway)) }) != nil else { return nil }
        return watcher
    }
}
