import FocusText
import FoundationEssentials

/// Reads an interchange file fed in chunks of any size, and hands over each session with the
/// line it starts on. The first bad line stops it with `FocusError.badInput(file, line, reason)`.
/// Pure: the caller reads the file (`feed` as often as it likes, then `finish`).
///
/// JSON Lines: one object per line; blank lines are skipped. CSV (RFC 4180): a header row
/// naming the fields (any order, unknown columns ignored), quoted fields may hold commas,
/// quotes (`""`) and line breaks, an empty field is null. Lines may end in CRLF; a UTF-8
/// byte order mark at the start is skipped. A line (a CSV record) longer than
/// `maximumLineBytes` rejects the file: no input makes the parser hold more than that.
package struct InterchangeParser {
    /// The longest line (JSON Lines) or record (CSV) read: a session is a short line, and
    /// a file with no line breaks (a binary, a dump) must not be gathered into memory.
    package static let maximumLineBytes = 1 << 20

    package let format: InterchangeFormat
    /// The file name errors are reported against.
    package let file: String
    /// Sessions handed over so far.
    package private(set) var count = 0

    /// Lines finished so far (a line's number is this plus one while it is being read).
    private var line = 0
    private var atStart = true
    /// The first bytes of the file while they may still be a byte order mark.
    private var head: [UInt8] = []
    /// A JSON Lines line split across chunks.
    private var pending: [UInt8] = []
    private var csv = CSVState()

    package init(format: InterchangeFormat, file: String) {
        self.format = format
        self.file = file
    }

    package typealias Emit = (_ record: SessionRecord, _ line: Int) throws -> Void

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        if atStart {
            // Hold the first bytes back until they are known to be, or not to be, a BOM.
            var taken = 0
            while head.count < 3, taken < chunk.count {
                head.append(chunk[taken])
                taken += 1
            }
            let rest = UnsafeBufferPointer(rebasing: chunk[taken...])
            if head.count < 3, head == Array(InterchangeParser.byteOrderMark.prefix(head.count)) { return }
            atStart = false
            let start = head == InterchangeParser.byteOrderMark ? [] : head
            head = []
            try start.withUnsafeBufferPointer { try dispatch($0, emit) }
            try dispatch(rest, emit)
            return
        }
        try dispatch(chunk, emit)
    }

    private mutating func dispatch(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        switch format {
        case .jsonl: try feedLines(bytes, emit)
        case .csv: try feedCSV(bytes, emit)
        }
    }

    package mutating func feed(_ chunk: [UInt8], _ emit: Emit) throws {
        try chunk.withUnsafeBufferPointer { try feed($0, emit) }
    }

    /// Ends the input: the last line may lack its line break.
    package mutating func finish(_ emit: Emit) throws {
        if atStart {
            atStart = false
            let start = head == InterchangeParser.byteOrderMark ? [] : head
            head = []
            try start.withUnsafeBufferPointer { try dispatch($0, emit) }
        }
        switch format {
        case .jsonl:
            if !pending.isEmpty {
                let rest = pending
                pending = []
                try rest.withUnsafeBufferPointer { try jsonLine($0, emit) }
            }
        case .csv:
            if csv.inQuotes, !csv.quotePending {
                throw FocusError.badInput(file: file, line: csv.recordLine, reason: "a quoted field is not closed before the end of the file")
            }
            if csv.hasRecord { try endCSVRecord(emit) }
            if csv.columns == nil {
                throw FocusError.badInput(file: file, line: 1, reason: "the file is empty; a CSV file starts with a header row naming its columns (task,subtask,start,end,status,…)")
            }
        }
    }

    /// Parses a whole text at once (tests, small files).
    package static func parse(_ text: String, format: InterchangeFormat, file: String = "input") throws -> [SessionRecord] {
        var parser = InterchangeParser(format: format, file: file)
        var out: [SessionRecord] = []
        try parser.feed(Array(text.utf8)) { record, _ in out.append(record) }
        try parser.finish { record, _ in out.append(record) }
        return out
    }

    // MARK: JSON Lines

    private mutating func feedLines(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        var start = 0
        var i = 0
        let n = bytes.count
        while i < n {
            if bytes[i] != 0x0A { i += 1; continue }
            if pending.isEmpty {
                try jsonLine(UnsafeBufferPointer(rebasing: bytes[start..<i]), emit)
            } else {
                try checkLength(pending.count + (i - start))
                pending.append(contentsOf: bytes[start..<i])
                let whole = pending
                pending.removeAll(keepingCapacity: true)
                try whole.withUnsafeBufferPointer { try jsonLine($0, emit) }
            }
            i += 1
            start = i
        }
        if start < n {
            try checkLength(pending.count + (n - start))
            pending.append(contentsOf: bytes[start..<n])
        }
    }

    /// Refuses a line (record) of `length` bytes when it is longer than `maximumLineBytes`.
    private func checkLength(_ length: Int) throws(FocusError) {
        guard length > InterchangeParser.maximumLineBytes else { return }
        let what = format == .csv ? "record" : "line"
        throw .badInput(file: file, line: format == .csv ? csv.recordLine : line + 1,
                        reason: "the \(what) is longer than \(InterchangeParser.maximumLineBytes >> 20) MB; a session is one short \(what). Is this the right file?")
    }

    private mutating func jsonLine(_ raw: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        try checkLength(raw.count)
        line += 1
        var end = raw.count
        while end > 0, raw[end - 1] == 0x0D || raw[end - 1] == 0x20 || raw[end - 1] == 0x09 { end -= 1 }
        var begin = 0
        while begin < end, raw[begin] == 0x20 || raw[begin] == 0x09 { begin += 1 }
        if begin == end { return }
        let bytes = UnsafeBufferPointer(rebasing: raw[begin..<end])
        let record: SessionRecord
        do {
            let fields = try JSONLineDecoder.decode(bytes)
            record = try SessionRecord.make(fields, numbersAsText: false)
        } catch {
            throw FocusError.badInput(file: file, line: line, reason: error.reason)
        }
        count += 1
        try emit(record, line)
    }

    // MARK: CSV

    private struct CSVState {
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        /// Inside a quoted field, a quote was just read: it closes the field or starts `""`.
        var quotePending = false
        /// The field was quoted and its closing quote read: only `,` or a line break may follow.
        var closed = false
        var fieldStarted = false
        var recordLine = 1
        /// Bytes of the record being read.
        var recordBytes = 0
        var columns: [InterchangeField?]?
        var hasRecord: Bool { !fields.isEmpty || fieldStarted || !field.isEmpty }
    }

    private mutating func feedCSV(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        for b in bytes {
            csv.recordBytes += 1
            if csv.recordBytes > InterchangeParser.maximumLineBytes { try checkLength(csv.recordBytes) }
            if csv.inQuotes {
                if csv.quotePending {
                    csv.quotePending = false
                    if b == 0x22 {  // "" inside quotes
                        csv.field.append(0x22)
                        continue
                    }
                    csv.inQuotes = false
                    csv.closed = true
                    // fall through to handle `b` outside quotes
                } else {
                    if b == 0x22 {
                        csv.quotePending = true
                    } else {
                        if b == 0x0A { line += 1 }
                        csv.field.append(b)
                    }
                    continue
                }
            }
            switch b {
            case 0x2C:  // ,
                try endField()
            case 0x0A:
                line += 1
                try endCSVRecord(emit)
                csv.recordLine = line + 1
            case 0x0D:
                continue
            case 0x22 where !csv.fieldStarted && csv.field.isEmpty:
                csv.inQuotes = true
                csv.fieldStarted = true
            default:
                if csv.closed {
                    throw FocusError.badInput(file: file, line: line + 1, reason: "unexpected text after a closing quote; a quote inside a quoted field is written \"\"")
                }
                csv.fieldStarted = true
                csv.field.append(b)
            }
        }
    }

    private mutating func endField() throws {
        if csv.quotePending {
            csv.quotePending = false
            csv.inQuotes = false
        }
        guard let text = String(validating: csv.field, as: UTF8.self) else {
            throw FocusError.badInput(file: file, line: csv.recordLine, reason: "a field is not UTF-8 text")
        }
        csv.fields.append(text)
        csv.field.removeAll(keepingCapacity: true)
        csv.fieldStarted = false
        csv.closed = false
    }

    private mutating func endCSVRecord(_ emit: Emit) throws {
        if csv.quotePending {
            csv.quotePending = false
            csv.inQuotes = false
        }
        defer {
            csv.fields.removeAll(keepingCapacity: true)
            csv.recordBytes = 0
        }
        // A blank line is no record.
        if csv.fields.isEmpty, !csv.fieldStarted, csv.field.isEmpty { return }
        try endField()
        let at = csv.recordLine
        guard let columns = csv.columns else {
            csv.columns = try header(csv.fields, line: at)
            return
        }
        guard csv.fields.count == columns.count else {
            throw FocusError.badInput(file: file, line: at, reason: "\(csv.fields.count) field\(csv.fields.count == 1 ? "" : "s") but the header has \(columns.count) columns")
        }
        var raw = RawFields()
        for (k, column) in columns.enumerated() {
            guard let column else { continue }
            let text = csv.fields[k]
            raw[column] = text.isEmpty ? .null : .string(text)
        }
        let record: SessionRecord
        do {
            record = try SessionRecord.make(raw, numbersAsText: true)
        } catch {
            throw FocusError.badInput(file: file, line: at, reason: error.reason)
        }
        count += 1
        try emit(record, at)
    }

    private func header(_ names: [String], line: Int) throws(FocusError) -> [InterchangeField?] {
        var seen = Set<InterchangeField>()
        var columns: [InterchangeField?] = []
        for name in names {
            let key = name.trimmingSpaces().lowercased()
            let field = InterchangeField(key: key)
            if let field {
                guard seen.insert(field).inserted else {
                    throw .badInput(file: file, line: line, reason: "the header names the column \"\(key)\" twice")
                }
            }
            columns.append(field)
        }
        for required in [InterchangeField.task, .start, .end, .status] where !seen.contains(required) {
            throw .badInput(file: file, line: line, reason: "the header has no \"\(required.key)\" column; it needs task, start, end and status (subtask, focused_seconds, planned_seconds, note and tags are optional)")
        }
        return columns
    }
}
