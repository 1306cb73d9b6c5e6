import FocusText
import FoundationEssentials

/// Reads another time tracker's history, fed in chunks of any size, and hands over each entry
/// as a session with the line it starts on (see `ForeignFormat` and `ImportMapping` for what
/// becomes what). The first bad entry stops it with `FocusError.badInput(file, line, reason)`,
/// the reason naming the entry ("entry 4 (interval @2): …"). Pure: the caller reads the file.
///
/// - Timewarrior (`timew export`): objects with `start` and `end` (`20261120T090000Z`),
///   `tags`, `annotation` (the note), `id`. An interval without `end` is still being tracked:
///   it is skipped and counted in `skipped`. Every interval is a completed session.
/// - Watson (`frames`): `[start, stop, project, id, tags, updated_at]`, times in Unix seconds.
///   Completed sessions.
/// - Open Pomodoro (`history`): `2026-11-20T09:00:00+01:00 description="Write intro"
///   duration=25 tags=a,b`; the end is the start plus `duration` minutes (25 when absent or
///   0, the format's default). Completed sessions.
package struct ForeignHistoryParser {
    package let format: ForeignFormat
    package let mapping: ImportMapping
    /// The file name errors are reported against.
    package let file: String
    /// Sessions handed over so far.
    package private(set) var count = 0
    /// Entries left out on purpose (Timewarrior intervals still being tracked).
    package private(set) var skipped = 0

    private var scanner: JSONArrayScanner
    private var lines = LineSplitter()

    package typealias Emit = (_ record: SessionRecord, _ line: Int) throws -> Void

    package init(format: ForeignFormat, mapping: ImportMapping? = nil, file: String) {
        self.format = format
        self.mapping = mapping ?? .defaults(for: format)
        self.file = file
        scanner = JSONArrayScanner(what: format == .watson ? "a Watson frames file" : "a Timewarrior export")
    }

    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        switch format {
        case .timewarrior, .watson:
            var scanner = self.scanner
            defer { self.scanner = scanner }
            do {
                try scanner.feed(chunk) { bytes, index, line in try entry(bytes, index: index, line: line, emit) }
            } catch let JSONArrayScanner.Problem.at(line, reason) {
                throw FocusError.badInput(file: file, line: line, reason: reason)
            }
        case .openpomodoro:
            var splitter = lines
            defer { lines = splitter }
            try splitter.feed(chunk) { bytes, line in try pomodoro(bytes, line: line, emit) }
        }
    }

    package mutating func feed(_ chunk: [UInt8], _ emit: Emit) throws {
        try chunk.withUnsafeBufferPointer { try feed($0, emit) }
    }

    /// Ends the input.
    package mutating func finish(_ emit: Emit) throws {
        switch format {
        case .timewarrior, .watson:
            do {
                try scanner.finish()
            } catch let JSONArrayScanner.Problem.at(line, reason) {
                throw FocusError.badInput(file: file, line: line, reason: reason)
            }
        case .openpomodoro:
            var splitter = lines
            defer { lines = splitter }
            try splitter.finish { bytes, line in try pomodoro(bytes, line: line, emit) }
        }
    }

    /// Parses a whole text at once (tests, small files).
    package static func parse(
        _ text: String, format: ForeignFormat, mapping: ImportMapping? = nil, file: String = "input"
    ) throws -> (records: [SessionRecord], skipped: Int) {
        var parser = ForeignHistoryParser(format: format, mapping: mapping, file: file)
        var out: [SessionRecord] = []
        try parser.feed(Array(text.utf8)) { record, _ in out.append(record) }
        try parser.finish { record, _ in out.append(record) }
        return (out, parser.skipped)
    }

    private var hint: String {
        "rename it in \(format == .timewarrior ? "Timewarrior" : format == .watson ? "Watson" : "the file"), or choose another part with --map (see focus import --help)"
    }

    // MARK: Timewarrior and Watson

    private mutating func entry(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int, _ emit: Emit) throws {
        var label = "entry \(index)"
        let record: SessionRecord?
        do {
            let value = try JSONLineDecoder.decodeValue(bytes, firstLine: line)
            if format == .timewarrior {
                if let id = value["id"]?.number, id.rounded() == id, abs(id) < 1e15 {
                    label += " (interval @\(Int(id)))"
                }
                record = try interval(value)
            } else {
                record = try frame(value)
            }
        } catch {
            throw FocusError.badInput(file: file, line: line, reason: "\(label): \(error.reason)")
        }
        guard let record else {
            skipped += 1
            return
        }
        count += 1
        try emit(record, line)
    }

    /// One `timew export` interval; nil when it is still open.
    private func interval(_ value: JSON) throws(InterchangeIssue) -> SessionRecord? {
        guard case .object = value else {
            throw InterchangeIssue("expected an object like {\"start\": \"20261120T090000Z\", …}, found \(value.kind)")
        }
        let start = try timewInstant(value["start"], field: "start")
        guard let endValue = value["end"], endValue != .null else { return nil }
        let end = try timewInstant(endValue, field: "end")
        let tags = try strings(value["tags"], field: "tags")
        var note: String?
        switch value["annotation"] {
        case nil, .null?: note = nil
        case let .string(s)?: note = s
        case let other?: throw InterchangeIssue("annotation must be text, found \(other.kind)")
        }
        let (task, subtask, rest) = mapping.split(tags: tags)
        var record = try SessionRecord.make(task: task, subtask: subtask, start: start, end: end, status: .completed, note: note, hint: hint)
        record.tags = try SessionRecord.checkedTags(rest)
        return record
    }

    /// One Watson frame.
    private func frame(_ value: JSON) throws(InterchangeIssue) -> SessionRecord {
        guard case let .array(items) = value else {
            throw InterchangeIssue("expected a frame [start, stop, project, id, tags, updated_at], found \(value.kind)")
        }
        guard items.count >= 3 else {
            throw InterchangeIssue("a frame has \(items.count) item\(items.count == 1 ? "" : "s"); expected [start, stop, project, id, tags, updated_at]")
        }
        let start = try unixSeconds(items[0], field: "start")
        let stop = try unixSeconds(items[1], field: "stop")
        guard case let .string(project) = items[2] else {
            throw InterchangeIssue("the project (third item) must be text, found \(items[2].kind)")
        }
        let tags = try strings(items.count > 4 ? items[4] : nil, field: "tags (fifth item)")
        let (task, subtask, rest) = mapping.split(tags: tags, project: project)
        var record = try SessionRecord.make(task: task, subtask: subtask, start: start, end: stop, status: .completed, note: nil, hint: hint)
        record.tags = try SessionRecord.checkedTags(rest)
        return record
    }

    private func strings(_ value: JSON?, field: String) throws(InterchangeIssue) -> [String] {
        switch value {
        case nil, .null?: return []
        case let .array(items)?:
            var out: [String] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard case let .string(s) = item else { throw InterchangeIssue("\(field) must hold text only, found \(item.kind)") }
                out.append(s)
            }
            return out
        case let other?:
            throw InterchangeIssue("\(field) must be an array of text, found \(other.kind)")
        }
    }

    private func unixSeconds(_ value: JSON, field: String) throws(InterchangeIssue) -> Int64 {
        guard let d = value.number else {
            throw InterchangeIssue("the \(field) time must be a number of seconds since 1970, found \(value.kind)")
        }
        // Year 1 to 9999: beyond that it is not a time.
        guard d.isFinite, d >= -62_135_596_800, d < 253_402_300_800 else {
            throw InterchangeIssue("the \(field) time \(d) is not a date")
        }
        return Int64(d.rounded(.down))
    }

    /// `20261120T090000Z` (what `timew export` writes), or an ISO 8601 date-time with an offset.
    private func timewInstant(_ value: JSON?, field: String) throws(InterchangeIssue) -> Int64 {
        guard let value, value != .null else { throw InterchangeIssue("missing \"\(field)\"") }
        guard case let .string(s) = value else {
            throw InterchangeIssue("\(field) must be text like \"20261120T090000Z\", found \(value.kind)")
        }
        if let t = ForeignHistoryParser.basicUTC(s) { return t }
        if case let .instant(t) = InstantParser.parse(s) { return t }
        throw InterchangeIssue("\(field) '\(DisplayText(s).string)' is not a Timewarrior time like 20261120T090000Z")
    }

    /// `YYYYMMDDTHHMMSSZ` → Unix seconds.
    package static func basicUTC(_ s: String) -> Int64? {
        let u = Array(s.utf8)
        guard u.count == 16, u[8] == UInt8(ascii: "T"), u[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for k in from..<(from + count) {
                let b = u[k]
                guard b >= 0x30, b <= 0x39 else { return nil }
                v = v * 10 + Int(b - 0x30)
            }
            return v
        }
        guard let year = number(0, 4), let month = number(4, 2), let day = number(6, 2),
              let hour = number(9, 2), let minute = number(11, 2), let second = number(13, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = LocalDate(year: year, month: month, day: day).dayNumber
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    // MARK: Open Pomodoro

    private mutating func pomodoro(_ raw: UnsafeBufferPointer<UInt8>, line: Int, _ emit: Emit) throws {
        let record: SessionRecord?
        do {
            record = try pomodoroRecord(raw)
        } catch {
            throw FocusError.badInput(file: file, line: line, reason: error.reason)
        }
        guard let record else { return }
        count += 1
        try emit(record, line)
    }

    /// The default length of a pomodoro, in minutes, when the entry gives none.
    package static let defaultPomodoroMinutes = 25.0

    private func pomodoroRecord(_ raw: UnsafeBufferPointer<UInt8>) throws(InterchangeIssue) -> SessionRecord? {
        guard let text = String(validating: raw, as: UTF8.self) else { throw InterchangeIssue("the line is not UTF-8 text") }
        var attributes = Logfmt(text)
        attributes.skipSpace()
        guard let stamp = attributes.word() else { return nil }  // a blank line
        let start: Int64
        switch InstantParser.parse(stamp) {
        case let .instant(t): start = t
        case .missingOffset:
            throw InterchangeIssue("the timestamp '\(DisplayText(stamp).string)' has no UTC offset; Open Pomodoro writes it like 2026-11-20T09:00:00+01:00")
        case .malformed:
            throw InterchangeIssue("a line starts with the time the pomodoro started, like 2026-11-20T09:00:00+01:00, not '\(DisplayText(stamp).string)'")
        }
        var description: String?
        var minutes = ForeignHistoryParser.defaultPomodoroMinutes
        var tags: [String] = []
        while let (key, value) = try attributes.pair() {
            switch key {
            case "description":
                description = value
            case "duration":
                guard let value, let m = Double(value), m.isFinite, m >= 0, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
                    throw InterchangeIssue("duration '\(DisplayText(value ?? "").string)' is not a number of minutes, like duration=25")
                }
                minutes = m == 0 ? ForeignHistoryParser.defaultPomodoroMinutes : m
            case "tags":
                tags = (value ?? "").split(separator: ",").map(String.init).filter { !$0.trimmingSpaces().isEmpty }
            default:
                continue
            }
        }
        guard minutes <= Double(SessionRecord.maximumLengthSeconds) / 60 else {
            throw InterchangeIssue("duration=\(Int(min(minutes, 1e12))) minutes is more than 31 days; check it (a session of up to 31 days is imported as one)")
        }
        let end = start + Int64((minutes * 60).rounded())
        let (task, subtask, rest) = mapping.split(tags: tags, description: description)
        var record = try SessionRecord.make(task: task, subtask: subtask, start: start, end: end, status: .completed, note: nil, hint: hint)
        record.tags = try SessionRecord.checkedTags(rest)
        return record
    }
}

/// Lines of a file fed in chunks, each with its number; a trailing CR and a UTF-8 byte order
/// mark at the start are dropped.
struct LineSplitter {
    private var pending: [UInt8] = []
    private var line = 0
    private var first = true

    typealias Emit = (_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> Void

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        var start = 0
        for i in 0..<chunk.count where chunk[i] == 0x0A {
            if pending.isEmpty {
                try line(UnsafeBufferPointer(rebasing: chunk[start..<i]), emit)
            } else {
                pending.append(contentsOf: chunk[start..<i])
                let whole = pending
                pending.removeAll(keepingCapacity: true)
                try whole.withUnsafeBufferPointer { try line($0, emit) }
            }
            start = i + 1
        }
        if start < chunk.count { pending.append(contentsOf: chunk[start..<chunk.count]) }
    }

    mutating func finish(_ emit: Emit) throws {
        guard !pending.isEmpty else { return }
        let rest = pending
        pending = []
        try rest.withUnsafeBufferPointer { try line($0, emit) }
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>, _ emit: Emit) throws {
        line += 1
        var bytes = raw
        if first {
            first = false
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
        }
        if let last = bytes.last, last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 1)]) }
        try emit(bytes, line)
    }
}

/// logfmt attributes (`key=value key="quoted value" flag`), as Open Pomodoro writes them: a
/// quoted value takes Go's escapes (`\"`, `\\`, `\n`, `\t`, `\u` and four hex digits, …).
struct Logfmt {
    private let scalars: [Unicode.Scalar]
    private var i = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    private func isSpace(_ c: Unicode.Scalar) -> Bool { c.value <= 0x20 }

    mutating func skipSpace() {
        while i < scalars.count, isSpace(scalars[i]) { i += 1 }
    }

    /// The next run of non-space characters, or nil at the end.
    mutating func word() -> String? {
        skipSpace()
        guard i < scalars.count else { return nil }
        var s = String.UnicodeScalarView()
        while i < scalars.count, !isSpace(scalars[i]) {
            s.append(scalars[i])
            i += 1
        }
        return String(s)
    }

    /// The next `key=value` (value nil for a bare key, "" for `key=`), or nil at the end.
    mutating func pair() throws(InterchangeIssue) -> (String, String?)? {
        skipSpace()
        guard i < scalars.count else { return nil }
        var key = String.UnicodeScalarView()
        while i < scalars.count, !isSpace(scalars[i]), scalars[i] != "=" {
            if scalars[i] == "\"" { throw InterchangeIssue("unexpected '\"' in the attribute name '\(DisplayText(String(key)).string)'") }
            key.append(scalars[i])
            i += 1
        }
        guard !key.isEmpty else { throw InterchangeIssue("an attribute has no name before '='") }
        guard i < scalars.count, scalars[i] == "=" else { return (String(key), nil) }
        let name = DisplayText(String(key)).string
        i += 1
        guard i < scalars.count, !isSpace(scalars[i]) else { return (String(key), "") }
        if scalars[i] == "\"" { return (String(key), try quoted(key: name)) }
        var value = String.UnicodeScalarView()
        while i < scalars.count, !isSpace(scalars[i]) {
            if scalars[i] == "\"" || scalars[i] == "=" {
                throw InterchangeIssue("unexpected '\(scalars[i])' in the value of \(name); quote a value that holds spaces, '=' or '\"'")
            }
            value.append(scalars[i])
            i += 1
        }
        return (String(key), String(value))
    }

    private mutating func quoted(key: String) throws(InterchangeIssue) -> String {
        i += 1
        var out = String.UnicodeScalarView()
        while i < scalars.count {
            let c = scalars[i]
            i += 1
            if c == "\"" {
                if i < scalars.count, !isSpace(scalars[i]) {
                    throw InterchangeIssue("unexpected text right after the closing quote of \(key)")
                }
                return String(out)
            }
            guard c == "\\" else { out.append(c); continue }
            guard i < scalars.count else { break }
            let e = scalars[i]
            i += 1
            switch e {
            case "\"": out.append("\"")
            case "\\": out.append("\\")
            case "/": out.append("/")
            case "'": out.append("'")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "a": out.append("\u{07}")
            case "b": out.append("\u{08}")
            case "f": out.append("\u{0C}")
            case "v": out.append("\u{0B}")
            case "x", "u", "U":
                let digits = e == "x" ? 2 : e == "u" ? 4 : 8
                guard i + digits <= scalars.count,
                      let code = UInt32(String(String.UnicodeScalarView(scalars[i..<(i + digits)])), radix: 16),
                      let scalar = Unicode.Scalar(code)
                else { throw InterchangeIssue("bad \\\(e) escape in the value of \(key)") }
                out.append(scalar)
                i += digits
            default:
                throw InterchangeIssue("unknown escape \\\(DisplayText(String(e)).string) in the value of \(key)")
            }
        }
        throw InterchangeIssue("the quoted value of \(key) is not closed before the end of the line")
    }
}
