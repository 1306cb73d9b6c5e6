import FoundationEssentials

// An arriving item as the database keeps it: each value inside its column's range (the
// limits `task add` and `log add` keep, README "Two machines"). Storage writes these as they are.

extension SyncedSubtask {
    /// Estimates and spans of at least a second, the earliest start a minute of the day, the
    /// priority low, normal or high, a daily cap from a minute to a day, a start date that
    /// reads as a date (else none).
    package var stored: SyncedSubtask {
        var s = self
        s.estimateSeconds = estimateSeconds.map { max(1, $0) }
        s.spanSeconds = spanSeconds.map { max(1, $0) }
        s.earliestMinutes = earliestMinutes.map { min(1439, max(0, $0)) }
        s.priority = min(1, max(-1, priority))
        s.maxPerDaySeconds = maxPerDaySeconds.map { min(86_400, max(60, $0)) }
        s.startDate = startDate.flatMap { DateParser.parseDate(Substring($0)) != nil ? $0 : nil }
        s.periodStart = periodStart.flatMap { DateParser.parseDate($0[...])?.description }
        return s
    }
}

extension SyncedTask {
    /// An estimate of at least a second, and the stand-in's other planning within a subtask's
    /// ranges (they live on the task's stand-in subtask).
    package var stored: SyncedTask {
        var t = self
        t.estimateSeconds = estimateSeconds.map { max(1, $0) }
        let p = SyncedSubtask(uid: uid, taskUID: uid, title: title, notes: nil, estimateSeconds: nil, startDate: planning.startDate, due: nil,
                              spanSeconds: planning.spanSeconds, earliestMinutes: planning.earliestMinutes, done: false, modified: 0,
                              priority: planning.priority, maxPerDaySeconds: planning.maxPerDaySeconds).stored
        t.planning = StandInPlanning(startDate: p.startDate, spanSeconds: p.spanSeconds, earliestMinutes: p.earliestMinutes,
                                     priority: p.priority, maxPerDaySeconds: p.maxPerDaySeconds)
        return t
    }
}

extension SyncedSession {
    /// Ends no earlier than it starts (whole seconds), focus within its length, nothing
    /// planned below zero, a status the log knows (`SyncCodec.sessionStatus`).
    package var stored: SyncedSession {
        var s = self
        let start = self.start.timeIntervalSince1970.rounded(.down), end = max(start, self.end.timeIntervalSince1970.rounded(.down))
        s.start = Date(timeIntervalSince1970: start)
        s.end = Date(timeIntervalSince1970: end)
        s.focusedSeconds = min(max(0, focusedSeconds), Int(min(end - start, 1e15)))
        s.plannedSeconds = max(0, plannedSeconds)
        s.status = SyncCodec.sessionStatus(status)
        return s
    }
}
