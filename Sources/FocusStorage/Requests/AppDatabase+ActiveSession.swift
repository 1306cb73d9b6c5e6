import FocusCore
import Foundation
import GRDB

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
                  request: row.optionalText("request").flatMap(ActiveSession.Request.init(rawValue:)), reason: row.optionalText("reason"))
    }
}

extension AppDatabase {
    /// The running session, if any.
    package func activeSession() throws(FocusError) -> ActiveSession? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1").map(ActiveSession.init(row:)) }
    }

    /// Finds a running-session row whose process is gone and records its work as interrupted with
    /// the last checkpointed focus. Returns what was recovered (nil when nothing was stale).
    package func recoverStaleSession(isAlive: (Int32) -> Bool, now: Date) throws(FocusError) -> (session: ActiveSession, log: SessionEntry?)? {
        // A cheap read first: this runs before most commands.
        guard let candidate = try activeSession(), !isAlive(candidate.pid) else { return nil }
        return try write { db -> (ActiveSession, SessionEntry?)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") else { return nil }
            let session = ActiveSession(row: row)
            guard session.pid == candidate.pid else { return nil }
            var entry: SessionEntry?
            if let started = session.snapshot.workStartedAt {
                // At most a day, as the store holds sessions: a timer left running for days (or
                // a hand-edited checkpoint) must not make every later command fail to recover it.
                let end = min(max(started, session.checkpointAt), started.addingTimeInterval(Double(StoredNumber.longestSession)))
                let log = TimeLog(taskID: session.taskID, subtaskID: session.subtaskID, startedAt: started, endedAt: end,
                                  plannedSeconds: session.snapshot.workPlannedSeconds,
                                  focusedSeconds: min(session.snapshot.focusedSeconds, Int(end.timeIntervalSince(started))),
                                  status: .interrupted, blockID: session.blockID, note: "recovered: focus ended unexpectedly")
                let id = try AppDatabase.insertTimed(log, now: now, db)
                entry = try Row.fetchOne(db, sql: AppDatabase.entrySelectSQL + " WHERE timeLog.id = ?", arguments: [id]).map(AppDatabase.entry)
            }
            try db.execute(sql: "DELETE FROM activeSession WHERE id = 1")
            return (session, entry)
        }
    }

    /// Claims the one running-session slot, or says who holds it.
    package func claimSession(_ session: ActiveSession, isAlive: (Int32) -> Bool) throws(FocusError) {
        try write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") {
                let other = ActiveSession(row: row)
                if isAlive(other.pid), other.pid != session.pid {
                    throw FocusError.unavailable("a session is already running (pid \(other.pid)). Stop it with `focus stop`, or see it with `focus status`.")
                }
                try db.execute(sql: "DELETE FROM activeSession WHERE id = 1")
            }
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, blockId, phase, state, cycle, cycles, workStartedAt,
                  phaseStartedAt, plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: AppDatabase.sessionArguments(session))
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

    /// Saves the running session's progress (only the owner's row is touched).
    package func checkpointSession(pid: Int32, _ snap: SessionSnapshot, at now: Date) throws(FocusError) {
        try write { db in
            try db.execute(sql: """
                UPDATE activeSession SET phase = ?, state = ?, cycle = ?, cycles = ?, workStartedAt = ?, phaseStartedAt = ?,
                  plannedSeconds = ?, workPlannedSeconds = ?, focusedSeconds = ?, remainingSeconds = ?, endsAt = ?, checkpointAt = ?
                WHERE id = 1 AND pid = ?
                """, arguments: [snap.phase.rawValue, snap.isPaused ? "paused" : "running", snap.cycle, snap.cycles,
                                 snap.workStartedAt?.unixSeconds, snap.phaseStartedAt.unixSeconds, snap.plannedSeconds,
                                 snap.workPlannedSeconds, snap.focusedSeconds, snap.remainingSeconds, snap.endsAt?.unixSeconds,
                                 now.unixSeconds, pid])
        }
    }

    /// Records a finished work session and, in the same transaction, marks the running row as
    /// having no work in progress, so a crash right after can never record it twice.
    package func recordWork(_ log: TimeLog, pid: Int32, now: Date) throws(FocusError) -> Int64 {
        try write { db in
            let id = try AppDatabase.insertTimed(log, now: now, db)
            try db.execute(sql: "UPDATE activeSession SET workStartedAt = NULL, focusedSeconds = 0 WHERE id = 1 AND pid = ?", arguments: [pid])
            return id
        }
    }

    /// Clears the running-session row of this process.
    package func finishSession(pid: Int32) throws(FocusError) {
        try write { db in try db.execute(sql: "DELETE FROM activeSession WHERE id = 1 AND pid = ?", arguments: [pid]) }
    }

    /// Leaves a request (stop, pause, resume) for the running process; returns its pid.
    package func requestControl(_ request: ActiveSession.Request, reason: String?) throws(FocusError) -> ActiveSession? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM activeSession WHERE id = 1") else { return nil }
            try db.execute(sql: "UPDATE activeSession SET request = ?, reason = ? WHERE id = 1", arguments: [request.rawValue, reason])
            return ActiveSession(row: row)
        }
    }

    /// Takes (and clears) a pending request addressed to this process.
    package func takeRequest(pid: Int32) throws(FocusError) -> (ActiveSession.Request, String?)? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT request, reason FROM activeSession WHERE id = 1 AND pid = ?", arguments: [pid]),
                  let raw = row.optionalText("request"), let request = ActiveSession.Request(rawValue: raw) else { return nil }
            let reason = row.optionalText("reason")
            try db.execute(sql: "UPDATE activeSession SET request = NULL, reason = NULL WHERE id = 1")
            return (request, reason)
        }
    }

    /// Adds (or replaces) the note of a session: the reason given after stopping early.
    package func setNote(_ note: String?, forSession id: Int64) throws(FocusError) {
        try write { db in try db.execute(sql: "UPDATE timeLog SET note = ? WHERE id = ?", arguments: [note, id]) }
    }

    /// Focus logged today (sessions starting in [dayStart, dayEnd)), for the view and the notices.
    package func focusedSeconds(from: Date, to: Date) throws(FocusError) -> Int {
        try read { db in
            // total(), not sum(): a sum of hand-edited values overflows in SQLite (an error), a total cannot.
            let row = try Row.fetchOne(db, sql: "SELECT total(focusedSeconds) FROM timeLog WHERE startedAt >= ? AND startedAt < ?",
                                       arguments: [from.unixSeconds, to.unixSeconds])
            return row?.seconds(0) ?? 0
        }
    }
}
