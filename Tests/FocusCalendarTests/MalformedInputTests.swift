import FocusCalendar
import Foundation
import Testing

@Suite struct MalformedInputTests {
    @Test(arguments: [
        ("malformed-unterminated", 9, "BEGIN:VEVENT at line 4 is never closed with END:VEVENT (found END:VCALENDAR)"),
        ("malformed-date", 8, "DTSTART value '20261323T080000Z' is not a valid date or date-time (expected e.g. 20261123, 20261123T080000Z or 20261123T090000)"),
        ("malformed-not-calendar", 1, "this is not an iCalendar file: it must start with BEGIN:VCALENDAR, not 'BEGIN:VCARD'"),
    ])
    func malformedFixturesThrowWithTheirLine(name: String, line: Int, reason: String) throws {
        let data = try fixtureData(name)
        #expect(throws: ICSParseError(line: line, reason: reason)) {
            try ICSReader.parse(data: data, strict: true)
        }
    }

    @Test func errorDescriptionStartsWithTheLine() {
        #expect(ICSParseError(line: 12, reason: "something").description == "line 12: something")
    }

    @Test(arguments: [
        // (text, line, start of reason)
        ("", 1, "the file is empty"),
        ("\n\n", 1, "the file is empty"),
        ("\nBEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nEND:VEVENT\n", 5, "BEGIN:VCALENDAR at line 2 is never closed with END:VCALENDAR before the end of the file"),
        ("BEGIN:VCALENDAR\nEND:VEVENT\nEND:VCALENDAR", 2, "END:VEVENT without a matching BEGIN:VEVENT"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nEND:VTODO\nEND:VCALENDAR", 4, "END:VTODO without a matching BEGIN:VTODO"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VCALENDAR", 3, "END:VCALENDAR without a matching BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nBEGIN:VEVENT\nEND:VEVENT\nEND:VCALENDAR", 4, "BEGIN:VEVENT inside the VEVENT begun at line 2"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:nostart\nSUMMARY:x\nEND:VEVENT\nEND:VCALENDAR", 2, "the VEVENT begun at line 2 (UID nostart) has no DTSTART"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nDTEND:2026-11-23\nEND:VEVENT\nEND:VCALENDAR", 4, "DTEND value '2026-11-23'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20260230\nEND:VEVENT\nEND:VCALENDAR", 3, "DTSTART value '20260230'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T250000Z\nEND:VEVENT\nEND:VCALENDAR", 3, "DTSTART value '20261123T250000Z'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nEXDATE:20261124T080000Z,tomorrow\nEND:VEVENT\nEND:VCALENDAR", 4, "EXDATE value 'tomorrow'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nRRULE:FREQ=FORTNIGHTLY\nEND:VEVENT\nEND:VCALENDAR", 4, "RRULE FREQ=FORTNIGHTLY is not one of"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nRRULE:COUNT=3\nEND:VEVENT\nEND:VCALENDAR", 4, "RRULE has no FREQ"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nRRULE:FREQ=DAILY;UNTIL=20261\nEND:VEVENT\nEND:VCALENDAR", 4, "RRULE UNTIL=20261 is not a date"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nRRULE:FREQ=MONTHLY;BYDAY=1XY\nEND:VEVENT\nEND:VCALENDAR", 4, "RRULE BYDAY entry '1XY'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nDURATION:1 hour\nEND:VEVENT\nEND:VCALENDAR", 4, "DURATION value '1 hour'"),
        ("BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:X\nBEGIN:STANDARD\nDTSTART:19700101T000000\nTZOFFSETTO:+25:00\nEND:STANDARD\nEND:VTIMEZONE\nEND:VCALENDAR", 6, "TZOFFSETTO value '+25:00'"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20261123T080000Z\nSUMMARY:folded\n  on two lines\nRECURRENCE-ID:yesterday\nEND:VEVENT\nEND:VCALENDAR", 6, "RECURRENCE-ID value 'yesterday'"),
        ("BEGIN:VEVENT\nDTSTART:20261123T080000Z\nEND:VEVENT", 1, "this is not an iCalendar file"),
        ("<!DOCTYPE html>\n<html><body>Not found</body></html>", 1, "this is not an iCalendar file: it must start with BEGIN:VCALENDAR, not '<!DOCTYPE html>'"),
    ])
    func malformedTextThrowsWithLineAndReason(text: String, line: Int, reason: String) throws {
        let error = try #require(parseError(text))
        #expect(error.line == line)
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }

    @Test func valuesOfIgnoredComponentsAreNotChecked() throws {
        let doc = try ICSReader.parse(calendar("""
            BEGIN:VTODO
            DTSTART:not-a-date
            END:VTODO
            BEGIN:VEVENT
            UID:ok
            DTSTART:20261123T080000Z
            BEGIN:VALARM
            TRIGGER:-PT15M
            DURATION:garbage
            END:VALARM
            END:VEVENT
            """))
        #expect(doc.events.count == 1)
    }

    @Test func contentAfterTheLastCalendarAndASecondCalendarAreAccepted() throws {
        let text = calendar("BEGIN:VEVENT\nUID:one\nDTSTART:20261123T080000Z\nEND:VEVENT")
            + calendar("BEGIN:VEVENT\nUID:two\nDTSTART:20261124T080000Z\nEND:VEVENT") + "trailing garbage\n"
        #expect(try ICSReader.parse(text).events.map(\.uid) == ["one", "two"])
    }
}
