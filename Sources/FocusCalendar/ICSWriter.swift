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
        appendLine("BEGIN:VCALENDAR", to: &out)
        appendLine("PRODID:-//focus//focus//EN", to: &out)
        appendLine("VERSION:2.0", to: &out)
        appendLine("CALSCALE:GREGORIAN", to: &out)
        if let name { appendLine("X-WR-CALNAME:" + escapeText(name), to: &out) }
    }

    /// One VEVENT; `stamp` is the DTSTAMP as `utcDateTime` writes it (one for the whole file).
    package static func append(_ event: ExportEvent, stamp: String, to out: inout [UInt8]) {
        let start = seconds(event.start)
        let end = max(start, seconds(event.end))
        appendLine("BEGIN:VEVENT", to: &out)
        appendLine("UID:" + escapeText(event.uid), to: &out)
        appendLine("DTSTAMP:" + stamp, to: &out)
        appendLine("DTSTART:" + utcDateTime(start), to: &out)
        appendLine("DTEND:" + utcDateTime(end), to: &out)
        appendLine("SUMMARY:" + escapeText(event.summary), to: &out)
        if let description = event.description { appendLine("DESCRIPTION:" + escapeText(description), to: &out) }
        if let status = event.status {
            let token = status.uppercased().filter { $0.isLetter || $0 == "-" }
            if !token.isEmpty { appendLine("STATUS:" + token, to: &out) }
        }
        for property in event.properties { appendLine(property, to: &out) }
        appendLine("END:VEVENT", to: &out)
    }

    /// The calendar's closing line.
    package static func end(to out: inout [UInt8]) {
        appendLine("END:VCALENDAR", to: &out)
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

    /// A length of time as a DURATION (RFC 5545 section 3.3.6) of hours, minutes and seconds:
    /// `PT2H`, `PT1H30M`, `PT1H0M30S` (dur-hour is followed by dur-minute before dur-second).
    package static func duration(seconds: Int) -> String {
        let t = max(0, seconds)
        let h = t / 3600, m = t % 3600 / 60, s = t % 60
        var out = "PT"
        if h > 0 { out += "\(h)H" }
        if m > 0 || (h > 0 && s > 0) { out += "\(m)M" }
        if s > 0 || t == 0 { out += "\(s)S" }
        return out
    }

    private static func seconds(_ date: Date) -> Int { Int(TimeRange.seconds(date.timeIntervalSince1970)) }

    private static func utcDateTime(_ t: Int) -> String {
        let day = CivilCalendar.day(ofWall: t)
        let sod = CivilCalendar.secondOfDay(ofWall: t)
        let (y, m, d) = CivilCalendar.date(fromDayNumber: day)
        return String(zeroPadded: y, width: 4) + String(zeroPadded: m, width: 2) + String(zeroPadded: d, width: 2)
            + "T" + String(zeroPadded: sod / 3600, width: 2) + String(zeroPadded: (sod % 3600) / 60, width: 2)
            + String(zeroPadded: sod % 60, width: 2) + "Z"
    }

    /// Content lines as one text: each folded and ended by CRLF as `appendLine` writes it.
    package static func text(lines: some Sequence<String>) -> String {
        var out: [UInt8] = []
        for text in lines { appendLine(text, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends one content line (RFC 5545 section 3.1), ended by CRLF and folded so that no line
    /// is longer than 75 octets: continuations start with one space, so they carry 74 octets of
    /// content. A fold never splits a UTF-8 sequence, and falls between characters (a letter and
    /// its accent, an emoji and its skin tone stay on one line; readers that unfold by
    /// characters rather than octets read them back whole) unless one character is longer than
    /// a line.
    package static func appendLine(_ text: String, to out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        var i = 0
        var limit = 75
        while bytes.count - i > limit {
            let cut = foldPoint(text, bytes, from: i, limit: limit)
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

    /// Where a line that goes on past `start + limit` octets folds: the last character boundary
    /// within the limit; within a character longer than a line, the last UTF-8 sequence start.
    private static func foldPoint(_ text: String, _ bytes: [UInt8], from start: Int, limit: Int) -> Int {
        var cut = start + limit
        // Between two ASCII characters is always a character boundary (a content line holds no
        // CR LF pair, the one ASCII pair that is a single character).
        if bytes[cut] < 0x80, bytes[cut - 1] < 0x80 { return cut }
        var used = 0
        for character in text[text.utf8.index(text.utf8.startIndex, offsetBy: start)...] {
            let size = character.utf8.count
            if used + size > limit { break }
            used += size
        }
        if used > 0 { return start + used }
        while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }
}
