import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

@Suite struct CalendarStorageTests {
    let now = TestDates.instant("2026-11-22T09:00:00Z")
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)

    func store(_ db: AppDatabase, name: String, events: [(String, String, String)], horizon: DateInterval) throws {
        let occurrences = events.map { (TestDates.instant($0.0), TestDates.instant($0.1), $0.2) }
        try db.importCalendar(
            CalendarImport(name: name, source: "/tmp/\(name).ics", content: "RAW", timeZone: "Europe/Berlin", horizon: horizon,
                           eventCount: events.count, importedAt: now),
            occurrences: occurrences, occurrence: { ($0.0, $0.1, $0.2, false, "uid") })
    }

    @Test func theBusyWindowQueryReadsAnIndexRangeNotTheWholeCalendar() throws {
        let db = try AppDatabase.inMemory()
        let plan = try db.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT startedAt, endedAt, summary, allDay FROM busyEvent
                WHERE calendarId = 1 AND startedAt >= 0 AND startedAt < 100 AND (endedAt > 0 OR startedAt >= 0)
                """).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING INDEX busyEvent_calendarId_startedAt") }, "plan: \(plan)")
    }

    @Test func storedOccurrencesAnswerInsideTheHorizonAndTheRawTextOutsideIt() throws {
        let db = try AppDatabase.inMemory()
        let horizon = DateInterval(start: TestDates.instant("2026-11-20T00:00:00Z"), end: TestDates.instant("2026-11-30T00:00:00Z"))
        // A long event starting before the window still overlaps it (found through longestSeconds).
        try store(db, name: "Work", events: [("2026-11-21T08:00:00Z", "2026-11-23T09:00:00Z", "Trip"),
                                             ("2026-11-23T10:00:00Z", "2026-11-23T11:00:00Z", "Call")], horizon: horizon)
        var asked: [(Date, Date)] = []
        let expand: CalendarExpansion = { content, name, from, to, _ in
            asked.append((from, to))
            #expect(content == "RAW")
            return [BusyEvent(start: TestDates.instant("2026-11-30T10:00:00Z"), end: TestDates.instant("2026-11-30T11:00:00Z"),
                              summary: "Later", allDay: false, calendar: name)]
        }
        let events = try db.read { db in
            try AppDatabase.busyEvents(db, from: TestDates.instant("2026-11-23T00:00:00Z"), to: TestDates.instant("2026-12-01T00:00:00Z"),
                                       zone: berlin, expand: expand)
        }
        #expect(events.map(\.summary) == ["Trip", "Call", "Later"])
        #expect(asked.map { Timestamp.utc($0.0) + " " + Timestamp.utc($0.1) } == ["2026-11-30T00:00:00Z 2026-12-01T00:00:00Z"])
        // Another zone: everything from the raw text.
        asked = []
        _ = try db.read { db in
            try AppDatabase.busyEvents(db, from: TestDates.instant("2026-11-23T00:00:00Z"), to: TestDates.instant("2026-11-24T00:00:00Z"),
                                       zone: LocalCalendar(zone: ZoneRules.named("Asia/Tokyo")!), expand: expand)
        }
        #expect(asked.count == 1)
    }

    @Test func removingACalendarTakesItsOccurrencesAndFileWithIt() throws {
        let db = try AppDatabase.inMemory()
        try store(db, name: "Work", events: [("2026-11-23T10:00:00Z", "2026-11-23T11:00:00Z", "Call")],
                  horizon: DateInterval(start: now, duration: 86_400 * 10))
        #expect(try db.calendars().map(\.occurrenceCount) == [1])
        #expect(try db.removeCalendar(named: "work") == "Work")
        let left = try db.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM busyEvent) + (SELECT count(*) FROM calendarFile)")
        }
        #expect(left == 0)
    }
}
