import FocusCalendar
import Foundation
import Testing

/// A busy-time read (`detail: .busyTime`, as `calendar import` reads) skips DESCRIPTION and
/// LOCATION, yet keeps, drops and warns exactly as a full read does.
@Suite struct BusyTimeReadTests {
    static let texts = [
        // A DESCRIPTION parameter whose quote is never closed drops its event, with a warning.
        calendar("""
            BEGIN:VEVENT
            UID:a
            DTSTART:20261124T090000Z
            DTEND:20261124T100000Z
            SUMMARY:Broken note
            DESCRIPTION;ALTREP="cid:part1:Agenda
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            DTSTART:20261124T110000Z
            SUMMARY:Fine
            LOCATION;LANGUAGE=de:Raum 1
            END:VEVENT
            """),
        // A name folded across lines, a value folded over many, a blank line ending one.
        calendar("""
            BEGIN:VEVENT
            UID:c
            DESCRIP
             TION:one
             two
            DTSTART:20261124T090000Z

             orphan continuation
            DTEND:not-a-date
            END:VEVENT
            BEGIN:VEVENT
            UID:d
            DTSTART:20261124T120000Z
            DESCRIPTION:x
             DTSTART:garbage
            SUMMARY:Kept
            END:VEVENT
            """),
    ]

    @Test(arguments: texts)
    func warningsEventsAndBusyTimeAreThoseOfAFullRead(text: String) throws {
        let full = try ICSReader.parse(text)
        let busy = try ICSReader.parse(text, detail: .busyTime)
        #expect(busy.warnings == full.warnings)
        #expect(busy.events.map(\.uid) == full.events.map(\.uid))
        #expect(spans(busy.busyOccurrences(from: utc("2026-11-01"), to: utc("2026-12-01"), local: berlin))
                == spans(full.busyOccurrences(from: utc("2026-11-01"), to: utc("2026-12-01"), local: berlin)))
        #expect(busy.events.allSatisfy { $0.description == nil && $0.location == nil })
    }

    @Test func theUnclosedQuoteInADescriptionDropsItsEventInBothReads() throws {
        let doc = try ICSReader.parse(Self.texts[0], detail: .busyTime)
        #expect(doc.events.map(\.summary) == ["Fine"])
        #expect(doc.warnings.map(\.description) == [
            "line 9: dropped the event 'Broken note' (UID a): a property has a parameter whose quote is never closed, so its value cannot be read",
        ])
    }
}
