import FocusCalendar
import FocusTime
import Foundation
import Testing

/// Calendars as real programs export them: one bad event does not reject the file, quirks
/// whose meaning is clear are read (with a warning each), and versions of an event count once.
@Suite struct RealExportQuirksTests {
    @Test func anExchangeEventWithABrokenTZIDQuoteIsDroppedAndTheRestRead() throws {
        let document = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:good
            DTSTART;TZID=W. Europe Standard Time:20261130T090000
            DTEND;TZID=W. Europe Standard Time:20261130T100000
            SUMMARY:Good
            END:VEVENT
            BEGIN:VEVENT
            UID:bad
            DTSTART;TZID="W. Europe Standard Time:20200609T090000
            DTEND;TZID=W. Europe Standard Time:20200609T100000
            SUMMARY:Broken
            TRANSP:TRANSPARENT
            END:VEVENT
            """))
        #expect(document.events.map(\.uid) == ["good"])
        #expect(document.warnings.map(\.description) == [
            "line 12: dropped the event 'Broken' (UID bad): DTSTART has a parameter whose quote is never closed, so its value cannot be read",
        ])
        #expect(parseError(calendar("BEGIN:VEVENT\nUID:bad\nDTSTART;TZID=\"X:20200609T090000\nEND:VEVENT"))?.line == 6)
    }

    @Test(arguments: [
        ("DTSTART:20261323T080000Z", "DTSTART value '20261323T080000Z' is not a valid date"),
        ("DTSTART:20261123T080000Z\nDURATION:1 hour", "DURATION value '1 hour'"),
        ("DTSTART:20261123T080000Z\nRRULE:FREQ=FORTNIGHTLY", "RRULE FREQ=FORTNIGHTLY"),
        ("DTSTART:20261123T080000Z\nEXDATE:tomorrow", "EXDATE value 'tomorrow'"),
        ("LOCATION:nowhere", "it has no DTSTART"),
    ])
    func anEventWhoseValueDoesNotParseIsDroppedWithItsLineUIDAndSummary(lines: String, reason: String) throws {
        let document = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:ok
            DTSTART:20261123T080000Z
            SUMMARY:Fine
            END:VEVENT
            BEGIN:VEVENT
            UID:broken
            SUMMARY:Broken
            \(lines)
            END:VEVENT
            """))
        #expect(document.events.map(\.uid) == ["ok"])
        let warning = try #require(document.warnings.first)
        #expect(warning.dropped && warning.uid == "broken" && warning.summary == "Broken")
        #expect(warning.reason.hasPrefix(reason), "\(warning.reason)")
    }

    @Test func anOffsetWithoutItsSignIsReadAsEastOfUTC() throws {
        // Old Apple iCal: TZOFFSETTO:0100.
        let document = try ICSReader.parse(calendar("""
            BEGIN:VTIMEZONE
            TZID:Old Apple Zone
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:0100
            TZOFFSETTO:0100
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:apple
            DTSTART;TZID=Old Apple Zone:20261123T090000
            DTEND;TZID=Old Apple Zone:20261123T100000
            SUMMARY:Apple
            END:VEVENT
            """))
        #expect(document.warnings.map(\.reason) == [
            "TZOFFSETFROM value '0100' has no sign; read as +0100", "TZOFFSETTO value '0100' has no sign; read as +0100",
        ])
        #expect(spans(busy(document, "20261123T000000Z", "20261124T000000Z", in: utcZone)) == ["2026-11-23T08:00:00Z–2026-11-23T09:00:00Z Apple"])
        #expect(parseError(calendar("BEGIN:VTIMEZONE\nTZID:X\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETTO:0100\nEND:STANDARD\nEND:VTIMEZONE")) != nil)
    }

    @Test func aTZIDWithStraySpacesOrQuotesIsTheZoneItNames() throws {
        let document = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:stray
            DTSTART;TZID= "Europe/Berlin" :20261123T090000
            DTEND;TZID= "Europe/Berlin" :20261123T100000
            SUMMARY:Stray
            END:VEVENT
            """))
        #expect(document.warnings.count == 1)
        #expect(spans(busy(document, "20261123T000000Z", "20261124T000000Z", in: tokyo)) == ["2026-11-23T08:00:00Z–2026-11-23T09:00:00Z Stray"])
    }

    @Test func aDateOnlyExdateRemovesThatDaysInstanceOfATimedSeries() throws {
        let document = try singleEvent("""
            DTSTART;TZID=Europe/Berlin:20261123T090000
            DTEND;TZID=Europe/Berlin:20261123T100000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE;VALUE=DATE:20261124
            """)
        #expect(spans(busy(document, "20261120T000000Z", "20261130T000000Z")).map { String($0.prefix(20)) }
            == ["2026-11-23T08:00:00Z", "2026-11-25T08:00:00Z"])
    }

    @Test func aFloatingExdateOnAZonedSeriesIsReadOnTheSeriesClock() throws {
        let document = try singleEvent("""
            DTSTART;TZID=America/New_York:20261123T090000
            DTEND;TZID=America/New_York:20261123T100000
            RRULE:FREQ=DAILY;COUNT=3
            EXDATE:20261124T090000
            """)
        // Read in Berlin, a floating 09:00 would be 08:00Z and remove nothing.
        #expect(spans(busy(document, "20261120T000000Z", "20261130T000000Z", in: berlin)).map { String($0.prefix(20)) }
            == ["2026-11-23T14:00:00Z", "2026-11-25T14:00:00Z"])
    }

    @Test func ofTwoVersionsOfAnEventTheHigherSequenceThenTheLaterStampCounts() throws {
        let document = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:meeting
            SEQUENCE:2
            DTSTART:20261123T140000Z
            DTEND:20261123T150000Z
            SUMMARY:Moved
            END:VEVENT
            BEGIN:VEVENT
            UID:meeting
            SEQUENCE:1
            DTSTART:20261123T120000Z
            DTEND:20261123T130000Z
            SUMMARY:Original
            END:VEVENT
            BEGIN:VEVENT
            UID:lunch
            DTSTAMP:20261120T100000Z
            DTSTART:20261123T110000Z
            DTEND:20261123T120000Z
            SUMMARY:Lunch (new)
            END:VEVENT
            BEGIN:VEVENT
            UID:lunch
            DTSTAMP:20261101T100000Z
            DTSTART:20261123T100000Z
            DTEND:20261123T110000Z
            SUMMARY:Lunch (old)
            END:VEVENT
            """))
        #expect(spans(busy(document, "20261123T000000Z", "20261124T000000Z")) == [
            "2026-11-23T11:00:00Z–2026-11-23T12:00:00Z Lunch (new)",
            "2026-11-23T14:00:00Z–2026-11-23T15:00:00Z Moved",
        ])
    }
}
