import FocusCore
import FocusSQLite
import FoundationEssentials

extension AppDatabase {
    /// Each stored calendar's raw text with its id, name and stored window: what a change of the
    /// rule for meetings (config `email`, `tentative_busy`) reads again.
    package func storedCalendarTexts() throws(FocusError) -> [(id: Int64, name: String, content: Data, horizon: DateInterval)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, c.name, c.horizonStart, c.horizonEnd, f.content FROM calendar c JOIN calendarFile f ON f.calendarId = c.id
                """).map { row in
                let start = row.date("horizonStart")
                return (row.id("id"), row.text("name"), Data(row.text("content").utf8), DateInterval(start: start, end: max(start, row.date("horizonEnd"))))
            }
        }
    }

    /// Replaces a calendar's stored busy times (its window stays), in one transaction; the plan
    /// is then stale. `occurrence` reads (start, end, summary, all-day, uid) from an element.
    package func replaceBusyTimes<S: Sequence>(calendarID: Int64, _ occurrences: S,
                                               occurrence: (S.Element) -> (Date, Date, String, Bool, String)) throws(FocusError) {
        try write { db in
            try db.execute(sql: "DELETE FROM busyEvent WHERE calendarId = ?", arguments: [calendarID])
            var busy = BusyInserter(db, calendarID: calendarID)
            for element in occurrences {
                let (start, end, summary, allDay, uid) = occurrence(element)
                try busy.add(start: start, end: end, summary: summary, allDay: allDay, uid: uid)
            }
            try busy.flush()
            try db.execute(sql: "UPDATE calendar SET longestSeconds = ?, occurrenceCount = ? WHERE id = ?", arguments: [busy.longest, busy.count, calendarID])
            try db.execute(sql: "UPDATE planState SET stale = 1 WHERE id = 1")
        }
    }
}
