import FoundationEssentials

/// Who runs the session, as the kernel tells it: the process holding the session lock beside the
/// database. A pid stored in the database proves nothing — a process killed with `kill -9` lingers
/// as a zombie until its parent reaps it, and after a crash or a reboot the number can belong to
/// any other program — so liveness, and the only process focus ever signals, come from this alone.
package enum SessionOwner: Sendable, Equatable {
    /// Nobody holds the lock: whatever process wrote the running-session row is gone.
    case nobody
    /// The kernel names this process as the holder.
    case process(Int32)
    /// The lock could not be examined (the text says why): the session is taken to be running,
    /// and no process is signalled.
    case unknown(String)

    /// Whether a session process is (or may be) running.
    package var isRunning: Bool { self != .nobody }

    /// The process a request may be signalled to: only one the kernel named.
    package var provenPID: Int32? {
        if case let .process(pid) = self, pid > 0 { return pid }
        return nil
    }
}

/// What `focus stop`, `pause` or `resume` does, decided inside the transaction that writes the
/// request: of several stoppers at once exactly one wins, and a request never goes to a process
/// that is not the session's.
package enum ControlDecision: Sendable, Equatable {
    /// No running-session row.
    case noSession
    /// The row's process is gone: record its work as interrupted now.
    case recover
    /// Leave the request in the row, then signal this process (the lock holder).
    case send(pid: Int32)
    /// A stop is already pending (another `focus stop` won); this one changes nothing.
    case alreadyStopping(pid: Int32?)
    /// The session lock cannot be examined: the session may run, but nothing proves which process.
    case unreachable(String)

    package static func decide(_ request: ActiveSession.Request, row: ActiveSession?, owner: SessionOwner) -> ControlDecision {
        guard let row else { return .noSession }
        switch owner {
        case .nobody:
            return .recover
        case let .unknown(why):
            return row.request == .stop ? .alreadyStopping(pid: nil) : .unreachable(why)
        case let .process(pid) where pid <= 0:
            return row.request == .stop ? .alreadyStopping(pid: nil) : .unreachable("the session lock is held by a process focus cannot name")
        case let .process(pid):
            // A pending stop is never replaced: not by a second stop (its reason would overwrite
            // the first one's), nor by a pause or resume.
            return row.request == .stop ? .alreadyStopping(pid: pid) : .send(pid: pid)
        }
    }
}

extension ActiveSession {
    /// Whether deleting `target` would delete what this session records: its task, or its
    /// subtask.
    package func records(_ target: PathTarget) -> Bool {
        switch target {
        case let .task(id): return taskID == id
        case let .subtask(_, id): return subtaskID == id
        }
    }
}
