import FoundationEssentials

/// iCalendar text every reader of it must read the same (the calendar import, a feed, sync's
/// calendar objects): lines ended by a bare CR (as old Mac exporters wrote them), by CRLF and
/// by LF, a folded SUMMARY whose TEXT value ends in a backslash (RFC 5545 sections 3.1 and
/// 3.3.11), a UTF-8 BOM. The event is busy time for an import and a session for sync.
package enum CalendarFixtures {
    /// What every reader reads as the event's title.
    package static let bareCRTitle = "Draft, then review \\"
    /// 2026-11-23 09:00–10:00 UTC.
    package static let bareCRStart = Date(timeIntervalSince1970: 1_795_424_400)
    package static let bareCREnd = Date(timeIntervalSince1970: 1_795_428_000)
    package static let bareCRUID = "bare-cr@example.org"

    package static let bareCRAndTrailingBackslash: Data = {
        let lines: [(String, String)] = [
            ("BEGIN:VCALENDAR", "\r"),
            ("VERSION:2.0", "\r"),
            ("PRODID:-//Old Mac exporter//EN", "\r\n"),
            ("X-WR-CALNAME:Old Mac", "\r"),
            ("BEGIN:VEVENT", "\r"),
            ("UID:bare-cr@example.org", "\r"),
            ("DTSTAMP:20261120T080000Z", "\n"),
            ("DTSTART:20261123T090000Z", "\r"),
            ("DTEND:20261123T100000Z", "\r"),
            ("SUMMARY:Draft\\, then", "\r"),
            ("  review \\", "\r"),
            ("X-FOCUS-TASK:bare-cr-task@example.org", "\r"),
            ("X-FOCUS-FOCUSED:3600", "\r"),
            ("END:VEVENT", "\r"),
            ("END:VCALENDAR", "\r"),
        ]
        return Data([0xEF, 0xBB, 0xBF] + lines.flatMap { Array(($0.0 + $0.1).utf8) })
    }()
}
