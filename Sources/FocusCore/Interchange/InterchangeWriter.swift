import FoundationEssentials

/// Writes sessions in an interchange format, straight into a byte buffer (an export of a
/// million sessions must not build a million strings). Instants are written in UTC with a `Z`
/// (`2026-11-20T08:00:00Z`), like every other JSON output of focus; `focused_seconds` and
/// `planned_seconds` always, `note` and `tags` only when there are some (JSON Lines) or empty (CSV).
package struct InterchangeWriter: Sendable {
    package let format: InterchangeFormat

    package init(format: InterchangeFormat) { self.format = format }

    /// What comes before the first session: the CSV header row, nothing for JSON Lines.
    package var header: String {
        switch format {
        case .jsonl: return ""
        case .csv: return InterchangeField.allCases.map(\.key).joined(separator: ",") + "\n"
        }
    }

    /// Appends one session and its line break.
    package func append(_ r: SessionRecord, to out: inout [UInt8]) {
        switch format {
        case .jsonl: appendJSON(r, to: &out)
        case .csv: appendCSV(r, to: &out)
        }
    }

    /// One session as text (tests, small outputs).
    package func line(_ r: SessionRecord) -> String {
        var out: [UInt8] = []
        append(r, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: JSON Lines

    private func appendJSON(_ r: SessionRecord, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"task": "#.utf8)
        JSONBytes.string(r.task, to: &out)
        out.append(contentsOf: #", "subtask": "#.utf8)
        if let s = r.subtask { JSONBytes.string(s, to: &out) } else { out.append(contentsOf: "null".utf8) }
        out.append(contentsOf: #", "start": ""#.utf8)
        InterchangeWriter.utc(r.start, to: &out)
        out.append(contentsOf: #"", "end": ""#.utf8)
        InterchangeWriter.utc(r.end, to: &out)
        out.append(contentsOf: #"", "status": ""#.utf8)
        out.append(contentsOf: r.status.rawValue.utf8)
        out.append(contentsOf: #"", "focused_seconds": "#.utf8)
        InterchangeWriter.integer(r.focusedSeconds, to: &out)
        out.append(contentsOf: #", "planned_seconds": "#.utf8)
        // An open session had no planned length (README, "Open sessions").
        if r.status == .open { out.append(contentsOf: "null".utf8) } else { InterchangeWriter.integer(r.plannedSeconds, to: &out) }
        if let note = r.note {
            out.append(contentsOf: #", "note": "#.utf8)
            JSONBytes.string(note, to: &out)
        }
        if !r.tags.isEmpty {
            out.append(contentsOf: #", "tags": ["#.utf8)
            for (k, tag) in r.tags.enumerated() {
                if k > 0 { out.append(contentsOf: ", ".utf8) }
                JSONBytes.string(tag, to: &out)
            }
            out.append(0x5D)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    // MARK: CSV

    private func appendCSV(_ r: SessionRecord, to out: inout [UInt8]) {
        InterchangeWriter.csvField(r.task, to: &out)
        out.append(0x2C)
        if let s = r.subtask { InterchangeWriter.csvField(s, to: &out) }
        out.append(0x2C)
        InterchangeWriter.utc(r.start, to: &out)
        out.append(0x2C)
        InterchangeWriter.utc(r.end, to: &out)
        out.append(0x2C)
        out.append(contentsOf: r.status.rawValue.utf8)
        out.append(0x2C)
        InterchangeWriter.integer(r.focusedSeconds, to: &out)
        out.append(0x2C)
        if r.status != .open { InterchangeWriter.integer(r.plannedSeconds, to: &out) }
        out.append(0x2C)
        if let note = r.note { InterchangeWriter.csvField(note, to: &out) }
        out.append(0x2C)
        // README "Tags": the names in one field, separated by `;` (no tag holds one).
        if !r.tags.isEmpty { InterchangeWriter.csvField(r.tags.joined(separator: String(SessionTags.csvSeparator)), to: &out) }
        out.append(0x0A)
    }

    /// RFC 4180: quoted (inner quotes doubled) when the field holds a comma, a quote, a line
    /// break, or starts or ends with a space.
    static func csvField(_ s: String, to out: inout [UInt8]) {
        let utf8 = s.utf8
        let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || utf8.first == 0x20 || utf8.last == 0x20
        guard needsQuotes else {
            out.append(contentsOf: utf8)
            return
        }
        out.append(0x22)
        for b in utf8 {
            if b == 0x22 { out.append(0x22) }
            out.append(b)
        }
        out.append(0x22)
    }

    // MARK: Numbers and instants, by hand

    static func integer(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            guard value != .min else { out.append(contentsOf: String(value).utf8); return }
            out.append(0x2D)
            integer(-value, to: &out)
            return
        }
        if value < 10 {
            out.append(UInt8(0x30 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while n > 0 {
                buffer[19 - count] = UInt8(0x30 + n % 10)
                n /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    private static func two(_ n: Int, to out: inout [UInt8]) {
        out.append(UInt8(0x30 + n / 10))
        out.append(UInt8(0x30 + n % 10))
    }

    /// `2026-11-20T08:00:00Z`.
    static func utc(_ seconds: Int64, to out: inout [UInt8]) {
        let t = Int(TimeRange.clamped(seconds))
        let days = CivilCalendar.day(ofWall: t)
        let secs = CivilCalendar.secondOfDay(ofWall: t)
        let date = LocalDate(dayNumber: days)
        let y = date.year
        if y >= 0, y < 10_000 {
            two(y / 100, to: &out)
            two(y % 100, to: &out)
        } else {
            integer(y, to: &out)
        }
        out.append(0x2D)
        two(date.month, to: &out)
        out.append(0x2D)
        two(date.day, to: &out)
        out.append(0x54)
        two(secs / 3600, to: &out)
        out.append(0x3A)
        two((secs / 60) % 60, to: &out)
        out.append(0x3A)
        two(secs % 60, to: &out)
        out.append(0x5A)
    }
}
