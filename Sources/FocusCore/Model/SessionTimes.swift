import FoundationEssentials

/// When a recorded session may lie. A log holds time already spent: a session that ends after
/// now is a typo (a wrong date, 17:00 for 07:00) that would count in today's totals, so it is
/// refused unless the person says it is meant (`--allow-future`).
package enum SessionTimes {
    /// Fails when `end` is after `now`, naming both as the person reads them (local time).
    package static func checkEnded(end: Date, now: Date, calendar: LocalCalendar, allowFuture: Bool) throws(FocusError) {
        guard !allowFuture, end > now else { return }
        throw .usage("the session would end \(local(end, calendar)), after now (\(local(now, calendar))): the log records time already spent. Check the date and time, or pass --allow-future to record it anyway.")
    }

    /// The same rule for a line of an import file (exit 65 with its line, the file untouched).
    package static func checkEnded(_ record: SessionRecord, line: Int, file: String, now: Date, calendar: LocalCalendar, allowFuture: Bool) throws(FocusError) {
        let end = Date(timeIntervalSince1970: Double(record.end))
        guard !allowFuture, end > now else { return }
        throw .badInput(file: file, line: line, reason: "the session ends \(Timestamp.utc(end)), after now (\(Timestamp.utc(now))); a log records time already spent. Fix the line, or pass --allow-future to import it anyway")
    }

    /// The end after the start; the length at most a day, or with `allowLong` (`--allow-long`: a
    /// forgotten timer, README "Sessions longer than a day") at most 31 days; a length kept as it
    /// was (`keepsLength`: a move, a new note) was accepted when it was recorded. Values echoed
    /// as the person wrote them (`endText`) or as local wall-clock time, never converted to UTC.
    package static func checkLength(_ s: Date, _ e: Date, endText: String?, allowLong: Bool, keepsLength: Bool = false,
                                    calendar: LocalCalendar) throws(FocusError) {
        guard e > s else {
            throw .invalidValue(what: "end", value: endText ?? local(e, calendar), expected: "a time after the start (\(local(s, calendar)))")
        }
        if keepsLength { return }
        let length = e.timeIntervalSince(s)
        let shown = length < 1e12 ? DurationParser.format(Int(length)) : "more than a century"
        guard length <= Double(SessionRecord.maximumLengthSeconds) else {
            throw .invalidValue(what: "session length", value: shown, expected: "at most 31 days; check the start and end")
        }
        guard allowLong || length <= Double(SessionRecord.dayLengthSeconds) else {
            throw .usage("the session would last \(shown), more than a day. If a timer ran on (a forgotten timer), pass --allow-long to record it as one session; otherwise check the start and end.")
        }
    }

    /// `Mon 23 Nov 17:00` (`RelativeTime.moment`), with `:30` when the instant has seconds: two
    /// sessions a few seconds apart are told apart.
    package static func local(_ date: Date, _ calendar: LocalCalendar) -> String {
        let seconds = calendar.wallClockText(date).suffix(3)
        return RelativeTime.moment(date, calendar: calendar) + (seconds == ":00" ? "" : String(seconds))
    }
}
