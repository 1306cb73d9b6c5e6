import FocusText
import FoundationEssentials

/// One session as the history interchange carries it (README: session history moves in and
/// out as JSON Lines): named by task and subtask titles, instants in whole Unix seconds.
package struct SessionRecord: Sendable, Equatable, Hashable {
    package var task: String
    /// nil when the session was logged against the task itself.
    package var subtask: String?
    /// Start and end, whole seconds since 1970-01-01T00:00:00Z.
    package var start: Int64
    package var end: Int64
    package var status: SessionStatus
    package var focusedSeconds: Int
    package var plannedSeconds: Int
    package var note: String?
    /// Its tags, each once, sorted (`SessionTags`).
    package var tags: [String]

    package init(
        task: String, subtask: String?, start: Int64, end: Int64, status: SessionStatus,
        focusedSeconds: Int, plannedSeconds: Int, note: String? = nil, tags: [String] = []
    ) {
        self.task = task
        self.subtask = subtask
        self.start = start
        self.end = end
        self.status = status
        self.focusedSeconds = focusedSeconds
        self.plannedSeconds = plannedSeconds
        self.note = note
        self.tags = tags
    }

    /// A session longer than this (a day) is kept, and said with a warning: a forgotten timer?
    /// (README, "Sessions longer than a day").
    package static let dayLengthSeconds: Int64 = 86_400

    /// The longest session an import or `log add --allow-long` takes: 31 days. A timer forgotten
    /// over a month's holiday is history; anything longer is a broken end (a wrong year or
    /// month), refused with its line.
    package static let maximumLengthSeconds: Int64 = 31 * 86_400

    /// Whether the session lasts longer than a day.
    package var isLongerThanADay: Bool { end - start > SessionRecord.dayLengthSeconds }

    /// The warning for a session longer than a day, after `FILE:LINE: `.
    package static func longSessionWarning(seconds: Int64) -> String {
        "a session of \(TerminalText.duration(Int(seconds))) (a forgotten timer?): imported as one session"
    }
}

/// The two interchange formats.
package enum InterchangeFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one object per line.
    case jsonl
    /// CSV with a header row naming the same fields as columns (RFC 4180).
    case csv

    /// The format a file name implies: `.jsonl`, `.ndjson` and `.json` are JSON Lines, `.csv` is CSV.
    package static func detect(path: String) -> InterchangeFormat? {
        let name = path.lowercased()
        if name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") || name.hasSuffix(".json") { return .jsonl }
        if name.hasSuffix(".csv") { return .csv }
        return nil
    }
}

/// The fields of a record, in the order exports write them.
package enum InterchangeField: Int, Sendable, CaseIterable {
    case task, subtask, start, end, status, focusedSeconds, plannedSeconds, note, tags

    /// The JSON key and CSV column name.
    package var key: String {
        switch self {
        case .task: return "task"
        case .subtask: return "subtask"
        case .start: return "start"
        case .end: return "end"
        case .status: return "status"
        case .focusedSeconds: return "focused_seconds"
        case .plannedSeconds: return "planned_seconds"
        case .note: return "note"
        case .tags: return "tags"
        }
    }

    package init?(key: String) {
        switch key {
        case "task": self = .task
        case "subtask": self = .subtask
        case "start": self = .start
        case "end": self = .end
        case "status": self = .status
        case "focused_seconds": self = .focusedSeconds
        case "planned_seconds": self = .plannedSeconds
        case "note": self = .note
        case "tags": self = .tags
        default: return nil
        }
    }
}

/// A field's value as read from a file, before it is checked.
package enum RawValue: Sendable, Equatable {
    /// The key or column is not there.
    case absent
    /// JSON `null`, or an empty CSV field.
    case null
    case string(String)
    case number(Double)
    /// A number with a fraction or an exponent (`1e300`, `2.5`), with the text the file wrote,
    /// so that a message can quote it as it was written.
    case writtenNumber(Double, String)
    case bool(Bool)
    /// A JSON array or object.
    case composite
    /// A JSON array of strings (the `tags` field).
    case strings([String])

    /// A JSON array of strings as `.strings`; any other value as `.composite`.
    package static func list(_ value: JSON) -> RawValue {
        guard case let .array(elements) = value else { return .composite }
        var out: [String] = []
        for element in elements {
            guard case let .string(s) = element else { return .composite }
            out.append(s)
        }
        return .strings(out)
    }
}

/// The known fields of one line or row; unknown keys and columns are ignored.
package struct RawFields: Sendable, Equatable {
    private var values = [RawValue](repeating: .absent, count: InterchangeField.allCases.count)

    package init() {}

    package subscript(field: InterchangeField) -> RawValue {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }
}

/// Why one line of an interchange file was refused: the sentence after `FILE:LINE: `.
package struct InterchangeIssue: Error, Equatable, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

extension SessionRecord {
    /// Checks one line's fields and builds the session. `numbersAsText` accepts numbers written
    /// as text (CSV has no other kind).
    package static func make(_ f: RawFields, numbersAsText: Bool) throws(InterchangeIssue) -> SessionRecord {
        let task = try name(f[.task], field: "task", required: true)
        let subtask = try name(f[.subtask], field: "subtask", required: false)
        guard let task else { throw InterchangeIssue("missing field \"task\"") }
        let start = try instant(f[.start], field: "start")
        let end = try instant(f[.end], field: "end")
        try checkSpan(start: start, end: end)
        let length = end - start
        let status = try status(f[.status])
        let focused = try seconds(f[.focusedSeconds], field: "focused_seconds", numbersAsText: numbersAsText) ?? Int(length)
        guard focused <= Int(length) else {
            throw InterchangeIssue("focused_seconds \(focused) is more than the session's \(length) seconds from start to end")
        }
        // An open session had no planned length: null (or empty, or absent) is read as none.
        let planned = try seconds(f[.plannedSeconds], field: "planned_seconds", numbersAsText: numbersAsText)
            ?? (status == .open ? 0 : Int(length))
        let note = try text(f[.note], field: "note")
        return SessionRecord(
            task: task, subtask: subtask, start: start, end: end, status: status,
            focusedSeconds: focused, plannedSeconds: planned, note: note, tags: try tags(f[.tags]))
    }

    /// The `tags` field: a JSON array of names, or text of names separated by `;` (the CSV
    /// column, README "Tags"); each checked by `SessionTags`.
    private static func tags(_ value: RawValue) throws(InterchangeIssue) -> [String] {
        let names: [String]
        switch value {
        case .absent, .null: return []
        case let .strings(list): names = list
        case let .string(s): names = s.split(separator: SessionTags.csvSeparator, omittingEmptySubsequences: false).map(String.init)
        default: throw InterchangeIssue("tags must be a list of names, like [\"deep\", \"reading\"]")
        }
        return try checkedTags(names)
    }

    /// Tag names checked and sorted (blank ones between separators are skipped).
    package static func checkedTags(_ names: [String]) throws(InterchangeIssue) -> [String] {
        var out: [String] = []
        for name in names where !name.trimmingSpaces().isEmpty {
            if let expected = SessionTags.problem(name) {
                throw InterchangeIssue("tag '\(DisplayText(shown: name, columns: 60).string)' is not a tag name: expected \(expected)")
            }
            out.append(name.trimmingSpaces())
        }
        let tags = SessionTags.sorted(out)
        guard tags.count <= SessionTags.maximumPerSession else {
            throw InterchangeIssue("\(tags.count) tags on one session: at most \(SessionTags.maximumPerSession)")
        }
        return tags
    }

    /// Checks a session read from another tool's file (Timewarrior, Watson, Open Pomodoro):
    /// the same rules for titles and lengths as `make`, focused and planned time the whole
    /// span. `hint` ends the sentence when a title is refused (how to choose another).
    package static func make(
        task: String, subtask: String?, start: Int64, end: Int64, status: SessionStatus, note: String?, hint: String
    ) throws(InterchangeIssue) -> SessionRecord {
        guard let taskTitle = try name(.string(task), field: "task", required: true, hint: hint) else {
            throw InterchangeIssue("empty task name; \(hint)")
        }
        let subtaskTitle = try subtask.flatMap { s throws(InterchangeIssue) in try name(.string(s), field: "subtask", required: false, hint: hint) }
        try checkSpan(start: start, end: end)
        let length = Int(end - start)
        let note = note.flatMap { $0.isEmpty ? nil : $0 }
        return SessionRecord(
            task: taskTitle, subtask: subtaskTitle, start: start, end: end, status: status,
            focusedSeconds: length, plannedSeconds: length, note: note)
    }

    /// The end is not before the start, and the session lasts at most `maximumLengthSeconds`
    /// (longer than a day is kept: the importer warns).
    private static func checkSpan(start: Int64, end: Int64) throws(InterchangeIssue) {
        guard end >= start else {
            throw InterchangeIssue("end \(Timestamp.utc(Date(timeIntervalSince1970: Double(end)))) is before start \(Timestamp.utc(Date(timeIntervalSince1970: Double(start))))")
        }
        let length = end.subtractingReportingOverflow(start)
        guard !length.overflow, length.partialValue <= maximumLengthSeconds else {
            let shown = length.overflow ? "more than a century" : TerminalText.duration(Int(length.partialValue))
            throw InterchangeIssue("the session lasts \(shown), more than 31 days; check its end (a session of up to 31 days is imported as one)")
        }
    }

    /// A task or subtask title: trimmed, not empty, no control characters, at most
    /// `Titles.maximumLength` characters; a task title has no `/`. An empty subtask is none.
    private static func name(_ value: RawValue, field: String, required: Bool, hint: String? = nil) throws(InterchangeIssue) -> String? {
        let raw: String
        switch value {
        case .absent, .null:
            if required { throw InterchangeIssue("missing field \"\(field)\"") }
            return nil
        case let .string(s): raw = s
        default: throw InterchangeIssue("\(field) must be text, like \"Thesis\"")
        }
        let title = Titles.normalized(raw.trimmingSpaces())
        if title.isEmpty {
            if required { throw InterchangeIssue("empty \(field) name") }
            return nil
        }
        let tail = hint.map { "; " + $0 } ?? ""
        if let bad = title.unicodeScalars.first(where: DisplayText.isUnsafe) {
            let hex = String(bad.value, radix: 16, uppercase: true)
            throw InterchangeIssue("\(field) name contains a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))\(tail)")
        }
        if title.count > Titles.maximumLength {
            throw InterchangeIssue("\(field) name is longer than \(Titles.maximumLength) characters\(tail)")
        }
        if TaskCatalog.hashID(title) != nil {
            throw InterchangeIssue("\(field) name '\(title)' looks like an id (#12)\(hint.map { "; " + $0 } ?? "; rename it")")
        }
        if field == "task", title.utf8.contains(UInt8(ascii: "/")) {
            throw InterchangeIssue("task name '\(title)' contains '/', which separates a task from its subtask\(hint.map { "; " + $0 } ?? "; put the subtask in \"subtask\"")")
        }
        return title
    }

    private static func instant(_ value: RawValue, field: String) throws(InterchangeIssue) -> Int64 {
        switch value {
        case .absent, .null: throw InterchangeIssue("missing field \"\(field)\"")
        case let .string(s):
            switch InstantParser.parse(s) {
            case let .instant(t): return t
            case .missingOffset:
                throw InterchangeIssue("\(field) '\(DisplayText(s).string)' has no UTC offset; write it like 2026-11-20T09:00:00+01:00 or 2026-11-20T08:00:00Z")
            case .malformed:
                throw InterchangeIssue("\(field) '\(DisplayText(s).string)' is not an ISO 8601 date-time like 2026-11-20T09:00:00+01:00")
            }
        default:
            throw InterchangeIssue("\(field) must be text, an ISO 8601 date-time like \"2026-11-20T09:00:00+01:00\"")
        }
    }

    private static func status(_ value: RawValue) throws(InterchangeIssue) -> SessionStatus {
        switch value {
        case .absent, .null: throw InterchangeIssue("missing field \"status\"")
        case let .string(s):
            if let status = SessionStatus(rawValue: s) { return status }
            let key = s.trimmingSpaces().lowercased()
            if let status = SessionStatus(rawValue: key) { return status }
            throw InterchangeIssue("unknown status '\(DisplayText(s).string)'; expected completed, interrupted or open")
        default:
            throw InterchangeIssue("status must be \"completed\", \"interrupted\" or \"open\"")
        }
    }

    /// Whole seconds, rounded to nearest; nil when absent or null (the caller's default applies).
    private static func seconds(_ value: RawValue, field: String, numbersAsText: Bool) throws(InterchangeIssue) -> Int? {
        let number: Double
        // The value as the file wrote it, for messages (never a clamped or converted figure).
        let written: String
        switch value {
        case .absent, .null: return nil
        case let .number(d):
            number = d
            written = d.isFinite && d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case let .writtenNumber(d, text):
            number = d
            written = DisplayText(text).string
        case let .string(s) where numbersAsText:
            let t = s.trimmingSpaces()
            written = DisplayText(t).string
            guard let d = Double(t), !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "e" || $0 == "E") }) else {
                throw InterchangeIssue("\(field) '\(DisplayText(s).string)' is not a number of seconds")
            }
            number = d
        default:
            throw InterchangeIssue("\(field) must be a number of seconds")
        }
        guard number.isFinite, number >= 0 else { throw InterchangeIssue("\(field) must be 0 or more seconds") }
        guard number <= Double(DurationParser.maximumSeconds) else {
            throw InterchangeIssue("\(field) \(written) is more than a year")
        }
        return Int(number.rounded())
    }

    private static func text(_ value: RawValue, field: String) throws(InterchangeIssue) -> String? {
        switch value {
        case .absent, .null: return nil
        case let .string(s): return s.isEmpty ? nil : s
        default: throw InterchangeIssue("\(field) must be text")
        }
    }
}
