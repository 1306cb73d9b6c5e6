import FocusCalendar
import Foundation
import Testing

@Suite struct ContentLineTests {
    @Test func foldedLinesAreJoinedForCRLFAndLFWithSpaceOrTab() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:fold@focus.test\r\nDTSTART:20261123T080000Z\r\n"
            + "SUMMARY:Chap\r\n ter two\n\t review\r\nDESCRIPTION:one\n  two\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let event = try #require(ICSReader.parse(text).events.first)
        #expect(event.summary == "Chapter two review")
        #expect(event.description == "one two")
    }

    @Test func textEscapesAreDecoded() throws {
        let doc = try singleEvent(#"DTSTART:20261123T080000Z"# + "\n" + #"LOCATION:a\,b\;c\\d\ne\Nf\:g"#)
        #expect(doc.events[0].location == "a,b;c\\d\ne\nf:g")
    }

    @Test func byteOrderMarkAndBlankLinesAreSkipped() throws {
        let text = "\u{FEFF}BEGIN:VCALENDAR\n\nVERSION:2.0\n\nBEGIN:VEVENT\nUID:bom\n\nDTSTART:20261123T080000Z\nEND:VEVENT\n\n\nEND:VCALENDAR\n\n"
        let doc = try ICSReader.parse(text)
        #expect(doc.events.count == 1)
        #expect(doc.events[0].uid == "bom")
    }

    @Test func namesAndParameterNamesAreCaseInsensitive() throws {
        let text = "begin:vcalendar\nbegin:vevent\nuid:lower\ndtstart;tzid=Europe/Berlin:20261123T090000\nDtEnd;Tzid=Europe/Berlin:20261123T100000\nsummary:Lower case\nend:vevent\nend:vcalendar\n"
        let doc = try ICSReader.parse(text)
        #expect(doc.events[0].start == ICSDateValue(form: .zoned("Europe/Berlin"), year: 2026, month: 11, day: 23, hour: 9))
        #expect(spans(busy(doc, "2026-11-23", "2026-11-24")) == ["2026-11-23T08:00:00Z–2026-11-23T09:00:00Z Lower case"])
    }

    @Test func quotedParameterValuesMayHoldColonsSemicolonsAndCommas() throws {
        let doc = try singleEvent(#"DTSTART;X-NOTE="a:b;c,d";TZID="Europe/Berlin";X-OTHER=plain:20261123T090000"# + "\n"
            + #"X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE="Room: 4, floor 2":geo:52.5,13.4"#)
        #expect(doc.events[0].start.tzid == "Europe/Berlin")
        #expect(doc.events[0].start.hour == 9)
    }

    @Test func unquotedOutlookZoneNameWithColonInParenthesesIsKept() throws {
        let doc = try singleEvent("DTSTART;TZID=(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna:20261123T090000")
        #expect(doc.events[0].start.tzid == "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna")
        #expect(busy(doc, "2026-11-23", "2026-11-24").map(\.start) == [utc("2026-11-23T08:00:00Z")])
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        var data = Data("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:bytes\nDTSTART:20261123T080000Z\nSUMMARY:caf".utf8)
        data.append(contentsOf: [0xE9, 0xFF, 0x20])
        data.append(Data("ok\nEND:VEVENT\nEND:VCALENDAR\n".utf8))
        let doc = try ICSReader.parse(data: data)
        #expect(doc.events[0].summary == "caf\u{FFFD}\u{FFFD} ok")
    }

    @Test func unknownPropertiesAndComponentsAreIgnored() throws {
        let text = calendar("""
            X-WR-CALNAME:Mixed
            BEGIN:VTODO
            UID:todo
            DTSTART:20261123T080000Z
            SUMMARY:A task, not an event
            END:VTODO
            BEGIN:X-FOCUS-THING
            FOO:bar
            END:X-FOCUS-THING
            BEGIN:VEVENT
            UID:event
            X-UNKNOWN;X-P=1:whatever
            DTSTART:20261123T080000Z
            SUMMARY:Event
            BEGIN:VALARM
            TRIGGER:-PT5M
            SUMMARY:Alarm text
            UID:alarm-uid
            END:VALARM
            END:VEVENT
            """)
        let doc = try ICSReader.parse(text)
        #expect(doc.name == "Mixed")
        #expect(doc.events.map(\.uid) == ["event"])
        #expect(doc.events[0].summary == "Event")
    }

    @Test(arguments: [
        ("P1D", ICSDuration(days: 1)),
        ("PT1H30M", ICSDuration(hours: 1, minutes: 30)),
        ("-PT15M", ICSDuration(negative: true, minutes: 15)),
        ("P1W", ICSDuration(weeks: 1)),
        ("+P2DT3H4M5S", ICSDuration(days: 2, hours: 3, minutes: 4, seconds: 5)),
    ])
    func durationsParse(text: String, expected: ICSDuration) throws {
        let doc = try singleEvent("DTSTART:20261123T080000Z\nDURATION:\(text)")
        #expect(doc.events[0].duration == expected)
    }

    @Test func dateValueFormsAreRecognised() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VEVENT
            UID:forms
            DTSTART;VALUE=DATE:20261123
            EXDATE:20261124T080000Z,20261125T090000
            EXDATE;TZID=Europe/Berlin:20261126T090000
            END:VEVENT
            """))
        let event = doc.events[0]
        #expect(event.allDay)
        #expect(event.start == ICSDateValue(form: .date, year: 2026, month: 11, day: 23))
        #expect(event.exdates == [
            ICSDateValue(form: .utc, year: 2026, month: 11, day: 24, hour: 8),
            ICSDateValue(form: .floating, year: 2026, month: 11, day: 25, hour: 9),
            ICSDateValue(form: .zoned("Europe/Berlin"), year: 2026, month: 11, day: 26, hour: 9),
        ])
    }

    @Test func statusTransparencySequenceAndRecurrenceIDAreRead() throws {
        let doc = try singleEvent("""
            DTSTART:20261123T080000Z
            STATUS:cancelled
            TRANSP:TRANSPARENT
            SEQUENCE:3
            RECURRENCE-ID;TZID=Europe/Berlin:20261123T090000
            """)
        let event = doc.events[0]
        #expect(event.cancelled)
        #expect(event.transparent)
        #expect(event.sequence == 3)
        #expect(event.recurrenceID == ICSDateValue(form: .zoned("Europe/Berlin"), year: 2026, month: 11, day: 23, hour: 9))
    }
}
