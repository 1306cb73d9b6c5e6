import FocusText
import FoundationEssentials

/// One event to export (a planned work block, for instance).
package struct ExportEvent: Sendable, Equatable {
    /// Stable across exports, so calendar apps update an event instead of duplicating it.
    package var uid: String
    package var start: Date
    package var end: Date
    package var summary: String
    package var description: String?
    /// `CONFIRMED`, `TENTATIVE` or `CANCELLED`; omitted when nil.
    package var status: String?
    /// More content lines, written as given after the others (`CATEGORIES:focus`,
    /// `X-FOCUS-BLOCK:12`): names and values already in RFC 5545 form.
    package var properties: [String] = []

    package init(uid: String, start: Date, end: Date, summary: String, description: String? = nil, status: String? = nil) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.description = description
        self.status = status
    }
}

/// Writes RFC 5545 text.
package enum ICSWriter {
    /// A VCALENDAR (PRODID `-//focus//focus//EN`, VERSION 2.0, CALSCALE GREGORIAN) with one
    /// VEVENT per item: UID (as given), DTSTAMP, DTSTART/DTEND in UTC (`20261123T080000Z`),
    /// SUMMARY and DESCRIPTION text-escaped, STATUS when given; lines folded at 75 octets (never
    /// inside a UTF-8 sequence), CRLF line ends. Seconds are truncated; an end before the start
    /// is written as the start. Control characters other than newline are dropped from text.
    package static func calendar(events: [ExportEvent], stamp: Date) -> String {
        calendar(events: events, stamp: stamp, name: nil)
    }

    /// As `calendar(events:stamp:)`, with `X-WR-CALNAME` set to `name` when given (the name
    /// Google Calendar and Apple Calendar show for a subscribed or imported file).
    package static func calendar(events: [ExportEvent], stamp: Date, name: String?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256 + events.count * 256)
        begin(name: name, to: &out)
        let stampText = utcDateTime(stamp)
        for event in events { append(event, stamp: stampText, to: &out) }
        end(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Streaming, for outputs too large to hold (a whole session history)

    /// The calendar's opening lines; then `append` each event and `end`.
    package static func begin(name: String?, to out: inout [UInt8]) {
        line("BEGIN:VCALENDAR", &out)
        line("PRODID:-//focus//focus//EN", &out)
        line("VERSION:2.0", &out)
        line("CALSCALE:GREGORIAN", &out)
        if let name { line("X-WR-CALNAME:" + escapeText(name), &out) }
    }

    /// One VEVENT; `stamp` is the DTSTAMP as `utcDateTime` writes it (one for the whole file).
    package static func append(_ event: ExportEvent, stamp: String, to out: inout [UInt8]) {
        let start = seconds(event.start)
        let end = max(start, seconds(event.end))
        line("BEGIN:VEVENT", &out)
        line("UID:" + escapeText(event.uid), &out)
        line("DTSTAMP:" + stamp, &out)
        line("DTSTART:" + utcDateTime(start), &out)
        line("DTEND:" + utcDateTime(end), &out)
        line("SUMMARY:" + escapeText(event.summary), &out)
        if let description = event.description { line("DESCRIPTION:" + escapeText(description), &out) }
        if let status = event.status {
            let token = status.uppercased().filter { $0.isLetter || $0 == "-" }
            if !token.isEmpty { line("STATUS:" + token, &out) }
        }
        for property in event.properties { line(property, &out) }
        line("END:VEVENT", &out)
    }

    /// The calendar's closing line.
    package static func end(to out: inout [UInt8]) {
        line("END:VCALENDAR", &out)
    }

    /// RFC 5545 TEXT escaping: `\` → `\\`, `;` → `\;`, `,` → `\,`, newline (LF, CR LF or CR) → `\n`.
    package static func escapeText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `20261123T080000Z`.
    package static func utcDateTime(_ date: Date) -> String { utcDateTime(seconds(date)) }

    private static func seconds(_ date: Date) -> Int { Int(TimeRange.seconds(date.timeIntervalSince1970)) }

    private static func utcDateTime(_ t: Int) -> String {
        let day = CivilCalendar.day(ofWall: t)
        let sod = CivilCalendar.secondOfDay(ofWall: t)
        let (y, m, d) = CivilCalendar.date(fromDayNumber: day)
        return String(zeroPadded: y, width: 4) + String(zeroPadded: m, width: 2) + String(zeroPadded: d, width: 2)
            + "T" + String(zeroPadded: sod / 3600, width: 2) + String(zeroPadded: (sod % 3600) / 60, width: 2)
            + String(zeroPadded: sod % 60, width: 2) + "Z"
    }

    /// Appends a content line folded at 75 octets (continuations start with one space, so they
    /// carry 74 octets of content), never splitting a UTF-8 sequence, ended by CRLF.
    private static func line(_ text: String, _ out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        var i = 0
        var limit = 75
        while bytes.count - i > limit {
            var cut = i + limit
            while cut > i, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            out.append(contentsOf: bytes[i..<cut])
            out.append(13)
            out.append(10)
            out.append(32)
            i = cut
            limit = 74
        }
        out.append(contentsOf: bytes[i...])
        out.append(13)
        out.append(10)
    }
}
