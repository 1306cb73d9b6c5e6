import FocusCalendar
import Foundation
import Testing

/// Start instants of every busy occurrence of an inline event, as ISO 8601 UTC strings.
private func starts(_ lines: String, _ from: String, _ to: String, in zone: LocalCalendar = utcZone) throws -> [String] {
    let doc = try singleEvent(lines)
    return busy(doc, from, to, in: zone).map { $0.start.formatted(Date.ISO8601FormatStyle()) }
}

@Suite struct RecurrenceTests {
    @Test func countLimitsTheSeriesIncludingDTSTART() throws {
        #expect(try starts("DTSTART:20261102T090000Z\nRRULE:FREQ=DAILY;COUNT=3", "2026-01-01", "2027-01-01") == [
            "2026-11-02T09:00:00Z", "2026-11-03T09:00:00Z", "2026-11-04T09:00:00Z",
        ])
    }

    @Test func untilAsADateIncludesTheWholeDay() throws {
        #expect(try starts("DTSTART:20261102T090000Z\nRRULE:FREQ=DAILY;UNTIL=20261104", "2026-01-01", "2027-01-01") == [
            "2026-11-02T09:00:00Z", "2026-11-03T09:00:00Z", "2026-11-04T09:00:00Z",
        ])
    }

    @Test func untilAsLocalTimeIsReadInTheEventsZone() throws {
        let lines = "DTSTART;TZID=Europe/Berlin:20261102T090000\nRRULE:FREQ=DAILY;UNTIL=20261104T090000"
        #expect(try starts(lines, "2026-01-01", "2027-01-01") == [
            "2026-11-02T08:00:00Z", "2026-11-03T08:00:00Z", "2026-11-04T08:00:00Z",
        ])
    }

    @Test func untilInUTCJustBeforeAnOccurrenceExcludesIt() throws {
        let lines = "DTSTART;TZID=Europe/Berlin:20261102T090000\nRRULE:FREQ=DAILY;UNTIL=20261104T075959Z"
        #expect(try starts(lines, "2026-01-01", "2027-01-01").count == 2)
    }

    @Test func intervalSkipsPeriods() throws {
        #expect(try starts("DTSTART:20261102T090000Z\nRRULE:FREQ=DAILY;INTERVAL=3;COUNT=4", "2026-01-01", "2027-01-01") == [
            "2026-11-02T09:00:00Z", "2026-11-05T09:00:00Z", "2026-11-08T09:00:00Z", "2026-11-11T09:00:00Z",
        ])
    }

    @Test func weeklyOnSeveralDays() throws {
        #expect(try starts("DTSTART:20261102T090000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=5", "2026-01-01", "2027-01-01") == [
            "2026-11-02T09:00:00Z", "2026-11-04T09:00:00Z", "2026-11-06T09:00:00Z",
            "2026-11-09T09:00:00Z", "2026-11-11T09:00:00Z",
        ])
    }

    // RFC 5545 §3.8.5.3: "An example where the days generated makes a difference because of WKST".
    @Test(arguments: [
        ("MO", ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"]),
        ("SU", ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"]),
    ])
    func weekStartChangesWhichWeeksABiweeklyRuleUses(weekStart: String, days: [String]) throws {
        let lines = "DTSTART:19970805T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=\(weekStart)"
        #expect(try starts(lines, "1997-01-01", "1998-01-01") == days.map { $0 + "T09:00:00Z" })
    }

    @Test func yearlyLastSundayOfMarch() throws {
        let lines = "DTSTART:20260329T010000Z\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"
        #expect(try starts(lines, "2026-01-01", "2029-01-01") == [
            "2026-03-29T01:00:00Z", "2027-03-28T01:00:00Z", "2028-03-26T01:00:00Z",
        ])
    }

    @Test func yearlyOnFebruaryTwentyNinthOnlyInLeapYears() throws {
        let lines = "DTSTART;VALUE=DATE:20240229\nRRULE:FREQ=YEARLY"
        #expect(try starts(lines, "2024-01-01", "2033-01-01") == [
            "2024-02-29T00:00:00Z", "2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z",
        ])
    }

    @Test func monthlyOnTheThirtyFirstSkipsShortMonths() throws {
        let expected = ["2026-01-31T10:00:00Z", "2026-03-31T10:00:00Z", "2026-05-31T10:00:00Z", "2026-07-31T10:00:00Z"]
        #expect(try starts("DTSTART:20260131T100000Z\nRRULE:FREQ=MONTHLY;COUNT=4", "2026-01-01", "2027-01-01") == expected)
        #expect(try starts("DTSTART:20260131T100000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4", "2026-01-01", "2027-01-01") == expected)
    }

    @Test func monthlyLastDayAndFirstFriday() throws {
        #expect(try starts("DTSTART:20260115T100000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3", "2026-01-01", "2027-01-01") == [
            "2026-01-15T10:00:00Z", "2026-01-31T10:00:00Z", "2026-02-28T10:00:00Z",
        ])
        // RFC 5545: monthly on the first Friday for 10 occurrences, from 1997-09-05.
        let lines = "DTSTART;TZID=America/New_York:19970905T090000\nRRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR"
        #expect(try starts(lines, "1997-01-01", "1999-01-01").map { String($0.prefix(10)) } == [
            "1997-09-05", "1997-10-03", "1997-11-07", "1997-12-05", "1998-01-02",
            "1998-02-06", "1998-03-06", "1998-04-03", "1998-05-01", "1998-06-05",
        ])
    }

    // RFC 5545: the third instance into the month of one of Tuesday, Wednesday or Thursday.
    @Test func setPositionPicksTheThirdMatchingDay() throws {
        let lines = "DTSTART:19970904T090000\nRRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3"
        #expect(try starts(lines, "1997-01-01", "1998-01-01") == [
            "1997-09-04T09:00:00Z", "1997-10-07T09:00:00Z", "1997-11-06T09:00:00Z",
        ])
    }

    // RFC 5545: every Friday the 13th, DTSTART excluded with EXDATE.
    @Test func fridayTheThirteenthLimitsMonthDaysByWeekday() throws {
        let lines = "DTSTART:19970902T090000\nEXDATE:19970902T090000\nRRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"
        #expect(try starts(lines, "1997-01-01", "2001-01-01").map { String($0.prefix(10)) } == [
            "1998-02-13", "1998-03-13", "1998-11-13", "1999-08-13", "2000-10-13",
        ])
    }

    // RFC 5545: Monday of week number 20 (where the default start of the week is Monday).
    @Test func yearlyByWeekNumber() throws {
        let lines = "DTSTART:19970512T090000\nRRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"
        #expect(try starts(lines, "1997-01-01", "2000-01-01").map { String($0.prefix(10)) } == ["1997-05-12", "1998-05-11", "1999-05-17"])
    }

    // RFC 5545: every third year on the 1st, 100th and 200th day for 10 occurrences.
    @Test func yearlyByYearDay() throws {
        let lines = "DTSTART:19970101T090000\nRRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200"
        #expect(try starts(lines, "1997-01-01", "2007-01-01").map { String($0.prefix(10)) } == [
            "1997-01-01", "1997-04-10", "1997-07-19", "2000-01-01", "2000-04-09",
            "2000-07-18", "2003-01-01", "2003-04-10", "2003-07-19", "2006-01-01",
        ])
    }

    // RFC 5545: every 20 minutes from 9:00 to 16:40, written two ways.
    @Test(arguments: [
        "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
        "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
    ])
    func subDailyTimesExpandOrFilter(rule: String) throws {
        let found = try starts("DTSTART:19970902T090000\nRRULE:\(rule)", "1997-09-02", "1997-09-04")
        #expect(found.count == 48)
        #expect(found.first == "1997-09-02T09:00:00Z")
        #expect(found[23] == "1997-09-02T16:40:00Z")
        #expect(found[24] == "1997-09-03T09:00:00Z")
    }

    @Test func hourlyWithInterval() throws {
        #expect(try starts("DTSTART:20261102T090000Z\nRRULE:FREQ=HOURLY;INTERVAL=4;COUNT=4", "2026-11-01", "2026-11-04") == [
            "2026-11-02T09:00:00Z", "2026-11-02T13:00:00Z", "2026-11-02T17:00:00Z", "2026-11-02T21:00:00Z",
        ])
    }

    @Test func exceptionDatesOnSeveralLinesAndSeveralPerLine() throws {
        let lines = """
            DTSTART;TZID=Europe/Berlin:20261102T090000
            RRULE:FREQ=DAILY;COUNT=7
            EXDATE;TZID=Europe/Berlin:20261103T090000,20261105T090000
            EXDATE:20261106T080000Z
            EXDATE;VALUE=DATE:20261107
            """
        #expect(try starts(lines, "2026-11-01", "2026-12-01") == [
            "2026-11-02T08:00:00Z", "2026-11-04T08:00:00Z", "2026-11-08T08:00:00Z",
        ])
    }

    @Test func excludedOccurrencesStillCountTowardsCount() throws {
        let lines = "DTSTART:20261102T090000Z\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE:20261103T090000Z"
        #expect(try starts(lines, "2026-01-01", "2027-01-01") == ["2026-11-02T09:00:00Z", "2026-11-04T09:00:00Z"])
    }

    @Test func allDaySeriesOverrideMovesADay() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:allday-series
            DTSTART;VALUE=DATE:20261102
            RRULE:FREQ=WEEKLY;COUNT=3
            SUMMARY:Field day
            END:VEVENT
            BEGIN:VEVENT
            UID:allday-series
            RECURRENCE-ID;VALUE=DATE:20261109
            DTSTART;VALUE=DATE:20261110
            SUMMARY:Field day (moved)
            END:VEVENT
            """))
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01", in: utcZone)) == [
            "2026-11-02T00:00:00Z–2026-11-03T00:00:00Z Field day",
            "2026-11-10T00:00:00Z–2026-11-11T00:00:00Z Field day (moved)",
            "2026-11-16T00:00:00Z–2026-11-17T00:00:00Z Field day",
        ])
    }

    @Test func recurrenceDatesAddOccurrencesWithTheEventsLength() throws {
        let lines = """
            DTSTART:20261102T090000Z
            DTEND:20261102T100000Z
            RRULE:FREQ=WEEKLY;COUNT=2
            RDATE:20261104T120000Z,20261102T090000Z
            RDATE;VALUE=DATE:20261106
            RDATE;VALUE=PERIOD:20261107T070000Z/PT30M,20261108T070000Z/20261108T073000Z
            """
        let doc = try singleEvent(lines)
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01", in: utcZone)) == [
            "2026-11-02T09:00:00Z–2026-11-02T10:00:00Z Inline",
            "2026-11-04T12:00:00Z–2026-11-04T13:00:00Z Inline",
            "2026-11-06T09:00:00Z–2026-11-06T10:00:00Z Inline",
            "2026-11-07T07:00:00Z–2026-11-07T07:30:00Z Inline",
            "2026-11-08T07:00:00Z–2026-11-08T07:30:00Z Inline",
            "2026-11-09T09:00:00Z–2026-11-09T10:00:00Z Inline",
        ])
    }

    @Test func overridesMoveOrCancelSingleOccurrences() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:series@focus.test
            DTSTART;TZID=Europe/Berlin:20261102T090000
            DTEND;TZID=Europe/Berlin:20261102T100000
            RRULE:FREQ=DAILY;COUNT=4
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:series@focus.test
            RECURRENCE-ID:20261103T080000Z
            DTSTART;TZID=Europe/Berlin:20261103T160000
            DTEND;TZID=Europe/Berlin:20261103T163000
            SUMMARY:Standup (afternoon)
            END:VEVENT
            BEGIN:VEVENT
            UID:series@focus.test
            RECURRENCE-ID;TZID=Europe/Berlin:20261104T090000
            DTSTART;TZID=Europe/Berlin:20261104T090000
            STATUS:CANCELLED
            SUMMARY:Standup
            END:VEVENT
            BEGIN:VEVENT
            UID:other@focus.test
            RECURRENCE-ID;TZID=Europe/Berlin:20261105T090000
            DTSTART;TZID=Europe/Berlin:20261105T120000
            DTEND;TZID=Europe/Berlin:20261105T121500
            SUMMARY:Other series
            END:VEVENT
            """))
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01")) == [
            "2026-11-02T08:00:00Z–2026-11-02T09:00:00Z Standup",
            "2026-11-03T15:00:00Z–2026-11-03T15:30:00Z Standup (afternoon)",
            "2026-11-05T08:00:00Z–2026-11-05T09:00:00Z Standup",
            "2026-11-05T11:00:00Z–2026-11-05T11:15:00Z Other series",
        ])
    }

    @Test func overrideMovedIntoTheWindowAppearsAndMovedOutDisappears() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:weekly@focus.test
            DTSTART:20261102T090000Z
            DURATION:PT1H
            RRULE:FREQ=WEEKLY
            SUMMARY:Weekly
            END:VEVENT
            BEGIN:VEVENT
            UID:weekly@focus.test
            RECURRENCE-ID:20261109T090000Z
            DTSTART:20261120T090000Z
            DURATION:PT1H
            SUMMARY:Weekly (moved)
            END:VEVENT
            """))
        #expect(spans(busy(doc, "2026-11-08", "2026-11-15")) == [])
        #expect(spans(busy(doc, "2026-11-15", "2026-11-22")) == [
            "2026-11-16T09:00:00Z–2026-11-16T10:00:00Z Weekly",
            "2026-11-20T09:00:00Z–2026-11-20T10:00:00Z Weekly (moved)",
        ])
    }

    @Test func allDayRecurringEventCoversLocalDays() throws {
        let lines = "DTSTART;VALUE=DATE:20261102\nDTEND;VALUE=DATE:20261103\nRRULE:FREQ=WEEKLY;COUNT=2\nEXDATE;VALUE=DATE:20261109"
        let doc = try singleEvent(lines + "\nRDATE;VALUE=DATE:20261111")
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01", in: tokyo)) == [
            "2026-11-01T15:00:00Z–2026-11-02T15:00:00Z Inline",
            "2026-11-10T15:00:00Z–2026-11-11T15:00:00Z Inline",
        ])
    }

    @Test func allDayEventWithoutEndLastsOneLocalDayAndMultiDayEndIsExclusive() throws {
        let single = try singleEvent("DTSTART;VALUE=DATE:20261225")
        #expect(spans(busy(single, "2026-12-01", "2027-01-01")) == ["2026-12-24T23:00:00Z–2026-12-25T23:00:00Z Inline"])
        let span = try singleEvent("DTSTART;VALUE=DATE:20261024\nDTEND;VALUE=DATE:20261026")
        // Two local Berlin days, 49 hours long because October 25 has 25 hours.
        #expect(spans(busy(span, "2026-10-01", "2026-11-01")) == ["2026-10-23T22:00:00Z–2026-10-25T23:00:00Z Inline"])
    }

    @Test func nominalDayDurationFollowsTheWallClockButHoursAreExact() throws {
        let day = try singleEvent("DTSTART;TZID=Europe/Berlin:20261024T120000\nDURATION:P1D")
        #expect(spans(busy(day, "2026-10-01", "2026-11-01")) == ["2026-10-24T10:00:00Z–2026-10-25T11:00:00Z Inline"])
        let hours = try singleEvent("DTSTART;TZID=Europe/Berlin:20261024T120000\nDURATION:PT24H")
        #expect(spans(busy(hours, "2026-10-01", "2026-11-01")) == ["2026-10-24T10:00:00Z–2026-10-25T10:00:00Z Inline"])
        let week = try singleEvent("DTSTART:20261102T090000Z\nDURATION:P1W")
        #expect(spans(busy(week, "2026-11-01", "2026-12-01")) == ["2026-11-02T09:00:00Z–2026-11-09T09:00:00Z Inline"])
    }

    @Test func negativeDurationAndMissingEndGiveZeroLengthOccurrences() throws {
        let negative = try singleEvent("DTSTART:20261102T090000Z\nDURATION:-PT15M")
        #expect(spans(busy(negative, "2026-11-01", "2026-12-01")) == ["2026-11-02T09:00:00Z–2026-11-02T09:00:00Z Inline"])
        let none = try singleEvent("DTSTART:20261102T090000Z")
        #expect(spans(busy(none, "2026-11-01", "2026-12-01")) == ["2026-11-02T09:00:00Z–2026-11-02T09:00:00Z Inline"])
    }

    @Test func occurrenceOverlappingTheWindowEdgeIsIncludedAndTouchingIsNot() throws {
        let doc = try singleEvent("DTSTART:20261102T230000Z\nDTEND:20261103T010000Z")
        #expect(busy(doc, "2026-11-03", "2026-11-04").count == 1)
        #expect(busy(doc, "2026-11-03T01:00:00Z", "2026-11-04").count == 0)
        #expect(busy(doc, "2026-11-01", "2026-11-02T23:00:00Z").count == 0)
    }

    @Test func longRunningSeriesJumpsToTheWindow() throws {
        let lines = "DTSTART;TZID=Europe/Berlin:19900101T080000\nDTEND;TZID=Europe/Berlin:19900101T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO"
        #expect(try starts(lines, "2026-11-01", "2026-11-15") == ["2026-11-02T07:00:00Z", "2026-11-09T07:00:00Z"])
    }

    @Test func resultsAreSortedByStartThenEndThenSummary() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:b
            DTSTART:20261102T090000Z
            DTEND:20261102T110000Z
            SUMMARY:B long
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            DTSTART:20261102T090000Z
            DTEND:20261102T100000Z
            SUMMARY:C short
            END:VEVENT
            BEGIN:VEVENT
            UID:a
            DTSTART:20261102T090000Z
            DTEND:20261102T100000Z
            SUMMARY:A short
            END:VEVENT
            BEGIN:VEVENT
            UID:early
            DTSTART:20261102T080000Z
            DTEND:20261102T120000Z
            SUMMARY:Z early
            END:VEVENT
            """))
        #expect(busy(doc, "2026-11-01", "2026-12-01").map(\.summary) == ["Z early", "A short", "C short", "B long"])
    }
}
