/// What `focus stop` decides while it waits for the running session (another process) to act on
/// its request, as a pure value: the command looks where this says, one look at a time, tells
/// it what it saw, and does what it returns (README, "What focus promises": a session ends when
/// it is recorded, its lock goes with it). Tests drive the interleavings of the session's last
/// steps with those looks.
///
/// The session, asked to stop, records its work and deletes its running-session row in one
/// transaction, then lets go of the session lock. A killed one leaves the row and lets go of the
/// lock at once. So: no row (or another session's) is a stop done as asked; a row with the lock
/// still held is a stop under way; a row with the lock free is either a killed process (its row
/// is recovered here) or a stop that finished between the two looks (nothing to recover).
package struct StopWatch: Sendable, Equatable {
    /// How long `focus stop` waits before it gives up ("did not stop within 5 seconds").
    package static let deadline: Duration = .seconds(5)
    /// The pause between two rounds of looks.
    package static let interval: Duration = .milliseconds(50)

    /// The running-session row, as one look found it.
    package enum Row: Sendable, Equatable {
        /// No row: the session ended.
        case gone
        /// The row of the session that was asked to stop (its pid).
        case asked
        /// A row of another process: the session asked ended, and a new one started since.
        case another
    }

    /// What recovering a row whose process is gone found.
    package enum Recovery: Sendable, Equatable {
        /// Nothing was stale: the row was gone or the lock held again by the time it looked.
        case nothing
        /// The row was recovered; its work in progress (nil in a break) recorded as interrupted,
        /// or as open for an open session.
        case recovered(SessionEntry?)
    }

    /// What one round of looks saw so far (nil: not looked at yet in this round).
    package struct Sight: Sendable, Equatable {
        package var row: Row?
        package var lock: SessionOwner?
        package var recovery: Recovery?

        package init(row: Row? = nil, lock: SessionOwner? = nil, recovery: Recovery? = nil) {
            self.row = row
            self.lock = lock
            self.recovery = recovery
        }
    }

    /// What to do next.
    package enum Step: Sendable, Equatable {
        /// Read the running-session row.
        case lookAtRow
        /// Ask the kernel who holds the session lock.
        case lookAtLock
        /// Recover the row of a process that is gone (`recoverStaleSession`, which looks at the
        /// row and the lock again inside its transaction).
        case recover
        /// Sleep this long, then start a new round of looks.
        case wait(Duration)
        /// The session stopped as asked: report what it recorded.
        case stopped
        /// Its process ended before it could stop; what was recovered here.
        case died(SessionEntry?)
        /// It did not stop within `deadline`.
        case gaveUp
    }

    package init() {}

    /// The next step after `sight`, the looks of this round so far, with `waited` slept in
    /// earlier rounds.
    package func next(_ sight: Sight, waited: Duration) -> Step {
        guard let row = sight.row else { return .lookAtRow }
        if row != .asked { return .stopped }
        guard let lock = sight.lock else { return .lookAtLock }
        if lock == .nobody {
            switch sight.recovery {
            case nil: return .recover
            case let .recovered(log)?: return .died(log)
            // It recorded itself and let go of its lock between the looks at the row and at the
            // lock: stopped as asked, not a process that died.
            case .nothing?: return .stopped
            }
        }
        // Held (or the lock cannot be examined): the stop is under way.
        return waited >= Self.deadline ? .gaveUp : .wait(Self.interval)
    }
}
