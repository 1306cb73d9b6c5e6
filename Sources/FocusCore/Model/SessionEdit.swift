import FoundationEssentials

/// A change to a recorded session, as `focus log edit` asks for it (README, "The time log"),
/// and the rules that make the session after it. Pure: the command parses the flags into one
/// of these; storage writes the result.
package struct SessionEdit: Sendable {
    /// Another task or subtask.
    package var target: PathTarget?
    package var start: Date?
    package var end: Date?
    /// A new length from the (new) start, in seconds.
    package var lengthSeconds: Int?
    /// The new focused time, in seconds, and as typed (for the refusal).
    package var focused: (seconds: Int, typed: String)?
    package var status: SessionStatus?
    /// A new note; empty clears it.
    package var note: String?
    /// The end as the person wrote it (`--end` or `start + 50m`), for refusals.
    package var endText: String?
    package var allowLong = false
    package var allowFuture = false

    package init() {}

    /// Whether the edit moves the session in time (it is then checked against now, and for
    /// overlaps).
    package var changesTimes: Bool { start != nil || end != nil || lengthSeconds != nil }

    /// The session after the edit, or why not. A new start alone moves the session and keeps its
    /// length; a new end or length keeps the start. Focus is kept as it was, except that a
    /// session focused throughout stays focused throughout at its new length, and focus never
    /// exceeds the length; `focused` sets it (at most the length).
    package func applied(to old: TimeLog, now: Date, calendar: LocalCalendar) throws(FocusError) -> TimeLog {
        var log = old
        if let target {
            log.taskID = target.taskID
            log.subtaskID = target.subtaskID
        }
        let oldLength = old.endedAt.timeIntervalSince(old.startedAt)
        if let start { log.startedAt = start }
        if let end { log.endedAt = end }
        if let lengthSeconds { log.endedAt = log.startedAt.addingTimeInterval(Double(lengthSeconds)) }
        if start != nil, end == nil, lengthSeconds == nil { log.endedAt = log.startedAt.addingTimeInterval(oldLength) }
        let keepsLength = log.endedAt.timeIntervalSince(log.startedAt) == oldLength
        try SessionTimes.checkLength(log.startedAt, log.endedAt, endText: endText, allowLong: allowLong, keepsLength: keepsLength, calendar: calendar)
        if changesTimes {
            try SessionTimes.checkEnded(end: log.endedAt, now: now, calendar: calendar, allowFuture: allowFuture)
        }
        let length = Int(log.endedAt.timeIntervalSince(log.startedAt))
        if let focused {
            guard focused.seconds <= length else {
                throw .invalidValue(what: "focused time", value: focused.typed, expected: "at most the session's length (\(DurationParser.format(length)))")
            }
            log.focusedSeconds = focused.seconds
        } else {
            log.focusedSeconds = min(old.focusedSeconds == Int(oldLength) ? length : old.focusedSeconds, length)
        }
        if let status { log.status = status }
        if let note { log.note = note.isEmpty ? nil : note }
        return log
    }
}
