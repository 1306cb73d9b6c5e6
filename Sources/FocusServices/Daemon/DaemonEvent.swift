import FocusCore

/// What can wake the daemon before its timer.
package enum DaemonEvent: Sendable, Equatable {
    /// SIGTERM or SIGINT: finish now.
    case stop
    /// SIGHUP: read the config again.
    case reload
}

/// Events for the daemon's loop, posted from any thread, awaited by one consumer, cancellably.
package typealias DaemonInbox = Mailbox<DaemonEvent>
