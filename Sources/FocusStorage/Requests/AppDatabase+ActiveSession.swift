import FocusCore
import FoundationEssentials
import FocusSQLite

extension ActiveSession {
    init(row: Row) {
        let phase = Phase(rawValue: row.text("phase")) ?? .work
        let cycles = Int(row.number("cycles", .positiveCount))
        let snapshot = SessionSnapshot(
            phase: phase, cycle: Int(row.number("cycle", .positiveCount)), cycles: cycles, plannedSeconds: row.seconds("plannedSeconds"),
            remaining: .seconds(row.seconds("remainingSeconds")), isPaused: row.text("state") == "paused",
            phaseStartedAt: row.date("phaseStartedAt"), endsAt: row.optionalDate("endsAt"),
            focusedSeconds: row.seconds("focusedSeconds"), workStartedAt: row.optionalDate("workStartedAt"),
            workPlannedSeconds: row.seconds("workPlannedSeconds"))
        self.init(pid: Int32(truncatingIfNeeded: row.id("pid")), taskID: row.id("taskId"), subtaskID: row.optionalID("subtaskId"),
                  blockID: row.optionalID("blockId"), snapshot: snapshot, checkpointAt: row.date("checkpointAt"),
                  request: row.optionalText("request").flatMap(ActiveSession.Request.init(rawValue:)), reason: row.optionalText("reason"),
                  tags: AppDatabase.activeTags(row.optionalText("tags")))
    }
}

extension AppDatabase {
    /// The running session, if any.
    package func activeSession() throws(FocusError) -> ActiveSession? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1").map(ActiveSession.init(row:)) }
    }

    /// Finds a running-session row whose process is gone (`owner` says nobody holds the session
    /// lock) and records its work as interrupted with the last checkpointed focus. Returns what
    /// was recovered (nil when nothing was stale).
    package func recoverStaleSession(owner: () -> SessionOwner, now: Date) throws(FocusError) -> (session: ActiveSession, log: SessionEntry?)? {
        // A cheap read first: this runs before most commands, and the lock is looked at only
        // when there is a row.
        guard try activeSession() != nil, owner() == .nobody else { return nil }
        return try write { db -> (ActiveSession, SessionEntry?)? in
            // Again inside the transaction: a session claims the lock only inside one of its own.
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1"), owner() == .nobody else { return nil }
            let session = ActiveSession(row: row)
            return (session, try AppDatabase.recover(session, now: now, db))
        }
    }

    /// Records what a row whose process is gone becomes (`ActiveSession.recoveredLog`, Core's
    /// decision) and deletes the row, in the caller's transaction.
    static func recover(_ session: ActiveSession, now: Date, _ db: Database) throws -> SessionEntry? {
        let blockID = try session.blockID.flatMap { id in
            try Row.fetchOne(db, sql: "SELECT id FROM scheduledBlock WHERE id = ?", arguments: [id]).map { $0.id(0) }
        }
        var entry: SessionEntry?
        if let log = session.recoveredLog(blockID: blockID) {
            let id = try AppDatabase.insertTimed(log, now: now, db)
            entry = try Row.fetchOne(db, sql: AppDatabase.entrySelectSQL + " WHERE timeLog.id = ?", arguments: [id]).map(AppDatabase.entry)
        }
        try db.execute(sql: "DELETE FROM activeSession WHERE id = 1")
        return entry
    }

    /// Claims the one running-session slot, in one transaction: `lock` takes the session lock
    /// (or throws, saying who holds it); a row left by a process that is gone — none holds the
    /// lock now that this one does — is recorded as interrupted; then this session's row is
    /// written. Returns what was recovered.
    package func claimSession(_ session: ActiveSession, now: Date,
                              lock: () throws(FocusError) -> Void) throws(FocusError) -> (session: ActiveSession, log: SessionEntry?)? {
        try write { db -> (ActiveSession, SessionEntry?)? in
            try lock()
            var recovered: (ActiveSession, SessionEntry?)?
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") {
                let stale = ActiveSession(row: row)
                recovered = (stale, try AppDatabase.recover(stale, now: now, db))
            }
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, blockId, phase, state, cycle, cycles, workStartedAt,
                  phaseStartedAt, plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt, tags)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: AppDatabase.sessionArguments(session) + [AppDatabase.activeTagsText(session.tags)])
            return recovered
        }
    }

    /// Inserts a session focus timed itself. Its identity (task, subtask, start second) can already
    /// be taken by a session of the same work that began in the same second — one stopped or killed
    /// at once and started again — and the unique index would then refuse it: the session would be
    /// lost, and a stale one could never be recovered, failing every command after. The later
    /// session is moved on by whole seconds instead.
    static func insertTimed(_ log: TimeLog, now: Date, _ db: Database) throws -> Int64 {
        var log = log
        var start = log.startedAt.unixSeconds
        while try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM timeLog WHERE taskId = ? AND ifnull(subtaskId, 0) = ifnull(?, 0) AND startedAt = ?)
            """, arguments: [log.taskID, log.subtaskID, start]) == true {
            start += 1
        }
        if start != log.startedAt.unixSeconds {
            log.startedAt = Date(unixSeconds: start)
            log.endedAt = max(log.endedAt, log.startedAt)
        }
        return try insert(log, now: now, db)
    }

    private static func sessionArguments(_ s: ActiveSession) -> StatementArguments {
        let snap = s.snapshot
        return [s.pid, s.taskID, s.subtaskID, s.blockID, snap.phase.rawValue, snap.isPaused ? "paused" : "running",
                snap.cycle, snap.cycles, snap.workStartedAt?.unixSeconds, snap.phaseStartedAt.unixSeconds, snap.plannedSeconds,
                snap.workPlannedSeconds, snap.focusedSeconds, snap.remainingSeconds, snap.endsAt?.unixSeconds, s.checkpointAt.unixSeconds]
    }

    /// Saves the running session's progress. Only the process holding the session lock calls
    /// this, so the row is its own whatever pid it says (a hand edit is put right), and a row
    /// deleted behind its back is written again.
    package func checkpointSession(_ session: ActiveSession) throws(FocusError) {
        try write { db in
            var args = AppDatabase.sessionArguments(session)
            // A block deleted meanwhile (re-planned away) is no longer referred to.
            if let block = session.blockID, try Int64.fetchOne(db, sql: "SELECT id FROM scheduledBlock WHERE id = ?", arguments: [block]) == nil {
                var s = session
                s.blockID = nil
                args = AppDatabase.sessionArguments(s)
            }
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, blockId, phase, state, cycle, cycles, workStartedAt,
                  phaseStartedAt, plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, phase = excluded.phase, state = excluded.state,
                  cycle = excluded.cycle, cycles = excluded.cycles, workStartedAt = excluded.workStartedAt,
                  phaseStartedAt = excluded.phaseStartedAt, plannedSeconds = excluded.plannedSeconds,
                  workPlannedSeconds = excluded.workPlannedSeconds, focusedSeconds = excluded.focusedSeconds,
                  remainingSeconds = excluded.remainingSeconds, endsAt = excluded.endsAt, checkpointAt = excluded.checkpointAt
                """, arguments: args)
        }
    }

    /// Records a finished work session and, in the same transaction, marks the running row as
    /// having no work in progress, so a crash right after can never record it twice. Called by
    /// the lock holder only (the row is its own).
    package func recordWork(_ log: TimeLog, pid: Int32, now: Date) throws(FocusError) -> Int64 {
        try write { db in
            var log = log
            if let block = log.blockID, try Int64.fetchOne(db, sql: "SELECT id FROM scheduledBlock WHERE id = ?", arguments: [block]) == nil {
                log.blockID = nil
            }
            // The tags `start --tag` gave are the running row's: every work session of the run has them.
            if log.tags.isEmpty, let text = try String.fetchOne(db, sql: "SELECT tags FROM activeSession WHERE id = 1") {
                log.tags = AppDatabase.activeTags(text)
            }
            let id = try AppDatabase.insertTimed(log, now: now, db)
            try db.execute(sql: "UPDATE activeSession SET workStartedAt = NULL, focusedSeconds = 0, pid = ? WHERE id = 1", arguments: [pid])
            return id
        }
    }

    /// Clears the running-session row (by the lock holder, at the end of its run).
    package func finishSession() throws(FocusError) {
        try write { db in try db.execute(sql: "DELETE FROM activeSession WHERE id = 1") }
    }

    /// What a control request found and did: see `ControlDecision`.
    package struct ControlOutcome: Sendable {
        package var decision: ControlDecision
        package var session: ActiveSession?
        /// The work recorded when the session's process was found gone.
        package var recovered: SessionEntry?
    }

    /// Leaves a request (stop, pause, resume) for the running process, deciding in the same
    /// transaction — with `owner`, the holder of the session lock — whether there is a session,
    /// whether its process is gone (then it is recovered here), and whether a stop is already
    /// pending (then nothing is written). The caller signals `.send`'s pid, and no other.
    package func requestControl(_ request: ActiveSession.Request, reason: String?, owner: () -> SessionOwner,
                                now: Date) throws(FocusError) -> ControlOutcome {
        try write { db in
            let session = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1").map(ActiveSession.init(row:))
            let decision = ControlDecision.decide(request, row: session, owner: session == nil ? .nobody : owner())
            var recovered: SessionEntry?
            switch decision {
            case .recover:
                if let session { recovered = try AppDatabase.recover(session, now: now, db) }
            case .send:
                try db.execute(sql: "UPDATE activeSession SET request = ?, reason = ? WHERE id = 1", arguments: [request.rawValue, reason])
            case .noSession, .alreadyStopping, .unreachable:
                break
            }
            return ControlOutcome(decision: decision, session: session, recovered: recovered)
        }
    }

    /// Takes a pending request (by the lock holder). A stop stays in the row until the run is
    /// over, so a second `focus stop` sees that one is under way.
    package func takeRequest() throws(FocusError) -> (ActiveSession.Request, String?)? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT request, reason FROM activeSession WHERE id = 1"),
                  let raw = row.optionalText("request"), let request = ActiveSession.Request(rawValue: raw) else { return nil }
            let reason = row.optionalText("reason")
            if request != .stop {
                try db.execute(sql: "UPDATE activeSession SET request = NULL, reason = NULL WHERE id = 1")
            }
            return (request, reason)
        }
    }

    /// Deletes a task or subtask with everything under it, unless the running session records
    /// it: then nothing is deleted and the session is returned (`isRunning` says whether its
    /// process holds the session lock; a row whose process is gone goes with the task).
    package func remove(_ target: PathTarget, isRunning: () -> SessionOwner) throws(FocusError) -> (session: ActiveSession, owner: SessionOwner)? {
        try write { db -> (ActiveSession, SessionOwner)? in
            // A series goes with its instances (README, "Planning"): a session on one records into it.
            if let session = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1").map(ActiveSession.init(row:)),
               try session.records(target) || (target.subtaskID != nil && Int64.fetchOne(
                   db, sql: "SELECT seriesId FROM subtask WHERE id = ?", arguments: [session.subtaskID]) == target.subtaskID) {
                let owner = isRunning()
                if owner.isRunning { return (session, owner) }
            }
            switch target {
            case let .task(id): try db.execute(sql: "DELETE FROM task WHERE id = ?", arguments: [id])
            case let .subtask(_, id): try db.execute(sql: "DELETE FROM subtask WHERE id = ?", arguments: [id])
            }
            return nil
        }
    }

    /// Adds (or replaces) the note of a session: the reason given after stopping early.
    package func setNote(_ note: String?, forSession id: Int64) throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE timeLog SET note = ? WHERE id = ?", arguments: [note, id]) }
    }

    /// Focus logged in [from, to) as the stats count it (each session's share by wall time): today's
    /// total in the countdown, `status` and the notices.
    package func focusedSeconds(from: Date, to: Date) throws(FocusError) -> Int {
        try read { db in StatsMath.seconds(try AppDatabase.focusInside(db, from: from, to: to)) }
    }
}
