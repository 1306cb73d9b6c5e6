import FocusCalendar
import Foundation
import Testing

@Suite struct TimeZoneTests {
    @Test(arguments: [
        ("W. Europe Standard Time", "Europe/Berlin"),
        ("Eastern Standard Time", "America/New_York"),
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("Central Standard Time", "America/Chicago"),
        ("Mountain Standard Time", "America/Denver"),
        ("GMT Standard Time", "Europe/London"),
        ("Romance Standard Time", "Europe/Paris"),
        ("Central Europe Standard Time", "Europe/Budapest"),
        ("Tokyo Standard Time", "Asia/Tokyo"),
        ("India Standard Time", "Asia/Kolkata"),
        ("AUS Eastern Standard Time", "Australia/Sydney"),
        ("China Standard Time", "Asia/Shanghai"),
        ("E. South America Standard Time", "America/Sao_Paulo"),
        ("w. europe standard time", "Europe/Berlin"),
    ])
    func windowsZoneNamesMapToTheirCLDRZone(windows: String, iana: String) {
        #expect(WindowsZones.ianaIdentifier(forWindowsName: windows) == iana)
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: windows) == iana)
    }

    @Test func utcIsItsOwnZoneAndAWindowsName() {
        #expect(WindowsZones.ianaIdentifier(forWindowsName: "UTC") == "Etc/UTC")
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: "UTC") == "UTC")
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: "tzone://Microsoft/Utc") == "Etc/UTC")
    }

    @Test func everyWindowsTableEntryNamesAZoneThisSystemKnows() {
        #expect(WindowsZones.table.count >= 130)
        let unknown = WindowsZones.table.filter { ZoneRules.named($0.iana) == nil }.map(\.iana)
        #expect(unknown.isEmpty)
        let names = WindowsZones.table.map { $0.windows.lowercased() }
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: [
        ("Europe/Berlin", "Europe/Berlin"),
        ("\"Europe/Berlin\"", "Europe/Berlin"),
        ("/Europe/Berlin", "Europe/Berlin"),
        ("/mozilla.org/20050126_1/Europe/Berlin", "Europe/Berlin"),
        ("/softwarestudio.org/Olson_20011030_5/America/New_York", "America/New_York"),
        ("tzone://Microsoft/Eastern Standard Time", "America/New_York"),
        ("(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
        ("(UTC-05:00) Eastern Time (US & Canada)", "America/New_York"),
        ("(GMT+10:00) Canberra, Melbourne, Sydney", "Australia/Sydney"),
        ("(UTC+01:00) Brussels, Copenhagen", "Europe/Brussels"),
        ("Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
    ])
    func outlookAndPathStyleNamesResolve(tzid: String, iana: String) {
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: tzid) == iana)
    }

    @Test(arguments: ["Focus Research Station Time", "Mars/Olympus_Mons", "", "Customized Time Zone"])
    func unknownNamesDoNotResolve(tzid: String) {
        #expect(ICSTimeZoneNames.ianaIdentifier(forTZID: tzid) == nil)
    }

    @Test(arguments: [
        ("(UTC+05:30) Somewhere Else", 19_800),
        ("GMT-0800", -28_800),
        ("UTC+1", 3_600),
        ("(UTC) Nowhere in particular", 0),
    ])
    func fixedOffsetsAreReadFromTheName(tzid: String, seconds: Int) {
        #expect(ICSTimeZoneNames.fixedOffset(forTZID: tzid) == seconds)
    }

    @Test func windowsNamedEventsFollowDaylightSavingTime() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:pst
            DTSTART;TZID=Pacific Standard Time:20261101T090000
            RRULE:FREQ=DAILY;COUNT=2
            DURATION:PT30M
            SUMMARY:Pacific
            END:VEVENT
            BEGIN:VEVENT
            UID:gmt
            DTSTART;TZID=GMT Standard Time:20261024T090000
            RRULE:FREQ=DAILY;COUNT=2
            DURATION:PT30M
            SUMMARY:London
            END:VEVENT
            BEGIN:VEVENT
            UID:ist
            DTSTART;TZID=India Standard Time:20261102T090000
            DURATION:PT30M
            SUMMARY:India
            END:VEVENT
            """))
        #expect(spans(busy(doc, "2026-10-01", "2026-12-01")) == [
            "2026-10-24T08:00:00Z–2026-10-24T08:30:00Z London",
            "2026-10-25T09:00:00Z–2026-10-25T09:30:00Z London",
            "2026-11-01T17:00:00Z–2026-11-01T17:30:00Z Pacific",
            "2026-11-02T03:30:00Z–2026-11-02T04:00:00Z India",
            "2026-11-02T17:00:00Z–2026-11-02T17:30:00Z Pacific",
        ])
    }

    @Test func vTimeZoneIsUsedOnlyWhenTheNameIsUnknown() throws {
        // The VTIMEZONE claims Europe/Berlin is UTC+3; the zone database wins for a known name.
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VTIMEZONE
            TZID:Europe/Berlin
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0300
            TZOFFSETTO:+0300
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:Lab Time
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0300
            TZOFFSETTO:+0300
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:known
            DTSTART;TZID=Europe/Berlin:20261102T090000
            SUMMARY:Known
            END:VEVENT
            BEGIN:VEVENT
            UID:custom
            DTSTART;TZID=Lab Time:20261102T090000
            SUMMARY:Custom
            END:VEVENT
            """))
        #expect(busy(doc, "2026-11-01", "2026-12-01").map(\.start) == [utc("2026-11-02T06:00:00Z"), utc("2026-11-02T08:00:00Z")])
        #expect(doc.timeZones.map(\.tzid) == ["Europe/Berlin", "Lab Time"])
    }

    @Test func vTimeZoneWithRulesGivesBothOffsetsOfTheYear() throws {
        let doc = try fixture("custom-vtimezone")
        let zone = try #require(doc.timeZones.first)
        #expect(zone.observances.map(\.daylight) == [true, false])
        #expect(zone.observances.map(\.offsetTo) == [23_400, 19_800])
        #expect(zone.observances[0].rrule?.byDay == [ICSRecurrenceRule.WeekdayNumber(.sunday, ordinal: 2)])
    }

    @Test func hostileVTimeZoneRulesStayBounded() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VTIMEZONE
            TZID:Flicker Time
            BEGIN:STANDARD
            DTSTART:00010101T000000
            RRULE:FREQ=SECONDLY
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0100
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:00010101T000000
            RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:flicker
            DTSTART;TZID=Flicker Time:20261102T090000
            RRULE:FREQ=DAILY;COUNT=3
            SUMMARY:Flicker
            END:VEVENT
            """))
        #expect(busy(doc, "2026-11-01", "2026-12-01").map(\.start) == [
            utc("2026-11-02T08:00:00Z"), utc("2026-11-03T08:00:00Z"), utc("2026-11-04T08:00:00Z"),
        ])
    }

    @Test func vTimeZoneWithOneTimeChangesUsesTheLatestBeforeTheDate() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VTIMEZONE
            TZID:Island Time
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:-1000
            TZOFFSETTO:-1000
            END:STANDARD
            BEGIN:STANDARD
            DTSTART:20111230T000000
            TZOFFSETFROM:-1000
            TZOFFSETTO:+1400
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:before
            DTSTART;TZID=Island Time:20100601T120000
            SUMMARY:Before
            END:VEVENT
            BEGIN:VEVENT
            UID:after
            DTSTART;TZID=Island Time:20261102T120000
            SUMMARY:After
            END:VEVENT
            """))
        #expect(busy(doc, "2010-01-01", "2027-01-01").map(\.start) == [utc("2010-06-01T22:00:00Z"), utc("2026-11-01T22:00:00Z")])
    }

    @Test func unknownZoneWithoutVTimeZoneIsReadAsFloating() throws {
        let doc = try singleEvent("DTSTART;TZID=Customized Time Zone:20261102T090000")
        #expect(busy(doc, "2026-11-01", "2026-12-01", in: tokyo).map(\.start) == [utc("2026-11-02T00:00:00Z")])
        #expect(busy(doc, "2026-11-01", "2026-12-01", in: berlin).map(\.start) == [utc("2026-11-02T08:00:00Z")])
    }

    @Test func outlookDisplayNameWithoutVTimeZoneFallsBackToItsOffset() throws {
        let doc = try singleEvent("DTSTART;TZID=\"(UTC+05:30) Somewhere Else\":20261102T090000")
        #expect(busy(doc, "2026-11-01", "2026-12-01").map(\.start) == [utc("2026-11-02T03:30:00Z")])
    }
}
