import FocusCalendar
import FocusTime
import Foundation
import Testing

/// A `TZ` value may be a POSIX rule rather than a zone name (`TZ='CET-1CEST,M3.5.0,M10.5.0/3'`).
/// Floating and all-day events are read in the person's zone, so the calendar must follow the
/// rule's summer and winter offsets, not the offset in force when focus happened to run.
@Suite struct PosixZoneTests {
    static let centralEurope = local("CET-1CEST,M3.5.0,M10.5.0/3")
    /// Sydney: daylight time from the first Sunday of October to the first Sunday of April.
    static let southEastAustralia = local("AEST-10AEDT,M10.1.0,M4.1.0/3")

    static let summerEvents = calendar("""
        BEGIN:VEVENT
        UID:allday@focus.test
        DTSTART;VALUE=DATE:20260710
        DTEND;VALUE=DATE:20260711
        SUMMARY:Holiday
        END:VEVENT
        BEGIN:VEVENT
        UID:floating@focus.test
        DTSTART:20260710T090000
        DTEND:20260710T100000
        SUMMARY:Floating
        END:VEVENT
        """)

    @Test func allDayAndFloatingEventsInSummerUseTheRulesSummerOffset() throws {
        let document = try ICSReader.parse(Self.summerEvents)
        let busy = document.busyOccurrences(from: utc("20260709T000000Z"), to: utc("20260712T000000Z"), local: Self.centralEurope)
        #expect(spans(busy) == [
            "2026-07-09T22:00:00Z–2026-07-10T22:00:00Z Holiday",
            "2026-07-10T07:00:00Z–2026-07-10T08:00:00Z Floating",
        ])
    }

    @Test func winterEventsUseTheRulesStandardOffset() throws {
        let document = try singleEvent("DTSTART:20260115T090000\nDTEND:20260115T100000")
        let busy = document.busyOccurrences(from: utc("20260114T000000Z"), to: utc("20260116T000000Z"), local: Self.centralEurope)
        #expect(spans(busy) == ["2026-01-15T08:00:00Z–2026-01-15T09:00:00Z Inline"])
    }

    @Test func southernHemisphereRuleHasDaylightTimeInJanuaryAndNotInJuly() throws {
        let january = try singleEvent("DTSTART:20260115T090000\nDTEND:20260115T100000")
        let july = try singleEvent("DTSTART:20260715T090000\nDTEND:20260715T100000")
        let zone = Self.southEastAustralia
        #expect(spans(january.busyOccurrences(from: utc("20260113T000000Z"), to: utc("20260117T000000Z"), local: zone))
            == ["2026-01-14T22:00:00Z–2026-01-14T23:00:00Z Inline"])
        #expect(spans(july.busyOccurrences(from: utc("20260713T000000Z"), to: utc("20260717T000000Z"), local: zone))
            == ["2026-07-14T23:00:00Z–2026-07-15T00:00:00Z Inline"])
    }

    @Test func weeklyFloatingSeriesFollowsTheRuleAcrossItsChange() throws {
        // 09:00 every Monday in October 2026: +10 until 4 October 02:00, then +11.
        let document = try singleEvent("DTSTART:20260928T090000\nDTEND:20260928T093000\nRRULE:FREQ=WEEKLY;COUNT=2")
        let busy = document.busyOccurrences(from: utc("20260901T000000Z"), to: utc("20261101T000000Z"), local: Self.southEastAustralia)
        #expect(spans(busy) == [
            "2026-09-27T23:00:00Z–2026-09-27T23:30:00Z Inline",
            "2026-10-04T22:00:00Z–2026-10-04T22:30:00Z Inline",
        ])
    }

    @Test func windowsAndIANANamesResolveThroughTheSameZoneDatabase() throws {
        let document = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:win@focus.test
            DTSTART;TZID=W. Europe Standard Time:20260710T090000
            DTEND;TZID=W. Europe Standard Time:20260710T100000
            SUMMARY:Windows
            END:VEVENT
            BEGIN:VEVENT
            UID:iana@focus.test
            DTSTART;TZID=Europe/Berlin:20260710T110000
            DTEND;TZID=Europe/Berlin:20260710T120000
            SUMMARY:IANA
            END:VEVENT
            """))
        // Read in a zone far away: the events' own zones count, not the local one.
        let busy = document.busyOccurrences(from: utc("20260709T000000Z"), to: utc("20260712T000000Z"), local: tokyo)
        #expect(spans(busy) == [
            "2026-07-10T07:00:00Z–2026-07-10T08:00:00Z Windows",
            "2026-07-10T09:00:00Z–2026-07-10T10:00:00Z IANA",
        ])
    }

    @Test func namesAreLookedUpInTheGivenZoneDatabaseOnly() throws {
        let empty = NSTemporaryDirectory() + "focus-no-zoneinfo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let database = ZoneDatabase(directory: empty)
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: "Europe/Berlin", in: database) == nil)
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: "Europe/Berlin", in: ZoneDatabase(environment: [:])) == "Europe/Berlin")
        // A TZID the database cannot resolve is read in the local zone (floating).
        let document = try singleEvent("DTSTART;TZID=Europe/Berlin:20260710T090000\nDTEND;TZID=Europe/Berlin:20260710T100000")
        let busy = document.busyOccurrences(from: utc("20260709T000000Z"), to: utc("20260712T000000Z"),
                                            local: LocalCalendar(zone: .utc, database: database))
        #expect(spans(busy) == ["2026-07-10T09:00:00Z–2026-07-10T10:00:00Z Inline"])
    }
}
