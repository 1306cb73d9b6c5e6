import FocusCalendar
import Foundation
import Testing

/// `ATTENDEE` lines are read with their `PARTSTAT` (RFC 5545 section 3.8.4.1, 3.2.12), for
/// meetings the person declined; a declined one is left out of busy time when asked.
@Suite struct AttendeeReadTests {
    static let text = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:m@example.org", "DTSTART:20261123T130000Z", "DTEND:20261123T140000Z",
        "SUMMARY:Review", "ORGANIZER:mailto:bob@example.org",
        "ATTENDEE;CN=\"Smith, Alice: QA\";ROLE=REQ-PARTICIPANT;PARTSTAT=declined;RSVP=TRUE:mailto:alice@example.org",
        "ATTENDEE;CN=Carol:mailto:carol@example.org", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test func attendeesAreReadWithTheirParticipationStatus() throws {
        for detail in [ICSReader.Detail.all, .busyTime] {
            let event = try #require(try ICSReader.parse(Self.text, detail: detail).events.first)
            #expect(event.attendees == [ICSAttendee(address: "mailto:alice@example.org", partstat: "DECLINED"),
                                        ICSAttendee(address: "mailto:carol@example.org", partstat: "NEEDS-ACTION")])
        }
    }

    @Test func anEventSaidToBeFreeIsNoBusyTime() throws {
        let document = try ICSReader.parse(Self.text, detail: .busyTime)
        let from = Date(timeIntervalSince1970: 1_795_000_000), to = from.addingTimeInterval(30 * 86_400)
        let zone = LocalCalendar(zone: .utc)
        #expect(document.busyTimes(from: from, to: to, local: zone).count == 1)
        #expect(document.busyTimes(from: from, to: to, local: zone, isFree: { $0.attendees.contains { $0.partstat == "DECLINED" } }).isEmpty)
    }
}
