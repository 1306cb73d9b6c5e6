import FocusText
import FoundationEssentials

/// Reads RFC 5545 iCalendar text into an `ICSDocument`.
///
/// Lenient where real exporters differ (LF or CRLF line ends, a UTF-8 BOM, blank lines,
/// tab or space continuation lines, lower-case names, unknown properties and components,
/// content after the last END:VCALENDAR), and where a quirk's meaning is clear (a UTC offset
/// without its sign, a TZID with stray spaces or quotes: read, with a warning). A value that
/// does not parse (a date, a duration, a rule) would misplace time if guessed: its event is
/// dropped with a warning and the rest of the file read; with `strict`, the whole file is
/// refused instead. Components that are not closed, a file that is not iCalendar, and a file
/// whose every event was dropped are always refused.
package enum ICSReader {
    /// What a read keeps of each event.
    package enum Detail: Sendable {
        /// Everything the model holds, DESCRIPTION and LOCATION included.
        case all
        /// Only what busy time needs: DESCRIPTION and LOCATION are skipped as they are read
        /// (never copied or unescaped), which keeps a 32 MB calendar of long notes small in memory.
        case busyTime
    }

    /// Parses a whole file. Throws `ICSParseError` for what cannot be read (see above).
    package static func parse(_ text: String, strict: Bool = false, detail: Detail = .all) throws(ICSParseError) -> ICSDocument {
        var text = text
        let result: Result<ICSDocument, ICSParseError> = text.withUTF8 { bytes in
            Result { () throws(ICSParseError) -> ICSDocument in
                var parser = ICSParser(bytes: bytes, strict: strict, detail: detail)
                return try parser.run()
            }
        }
        return try result.get()
    }

    /// Parses UTF-8 data, read where it lies (no copy of the file is made); invalid UTF-8
    /// sequences become U+FFFD in the text values rather than failing.
    package static func parse(data: Data, strict: Bool = false, detail: Detail = .all) throws(ICSParseError) -> ICSDocument {
        let result: Result<ICSDocument, ICSParseError> = data.withUnsafeBytes { raw in
            Result { () throws(ICSParseError) -> ICSDocument in
                var parser = ICSParser(bytes: raw.bindMemory(to: UInt8.self), strict: strict, detail: detail)
                return try parser.run()
            }
        }
        return try result.get()
    }
}

/// Property and parameter names the reader acts on, matched without allocating.
private enum PropertyName {
    case begin, end, uid, summary, location, description, dtstart, dtend, duration, rrule, rdate, exdate
    case recurrenceID, status, transp, sequence, tzid, tzoffsetfrom, tzoffsetto, calendarName, dtstamp
    /// `X-FOCUS-BLOCK` or `X-FOCUS-SESSION`: an event focus published itself.
    case focusMark
    /// `ATTENDEE` (RFC 5545 section 3.8.4.1): whether the person declined is read from it.
    case attendee
}

/// Up to 16 ASCII bytes, upper-cased and packed into two words: a cheap hashable name.
private struct NameKey: Hashable {
    var high: UInt64 = 0
    var low: UInt64 = 0

    init?<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard bytes.count <= 16 else { return nil }
        self.init(truncating: bytes)
    }

    /// For the constant names below (longer names would keep only their first 16 bytes).
    init(_ text: String) {
        self.init(truncating: text.utf8.prefix(16))
    }

    private init<Bytes: Collection<UInt8>>(truncating bytes: Bytes) {
        var i = 0
        for var b in bytes {
            if b >= 97 && b <= 122 { b -= 32 }
            if i < 8 { high |= UInt64(b) << (8 * UInt64(i)) } else { low |= UInt64(b) << (8 * UInt64(i - 8)) }
            i += 1
        }
    }
}

/// The names the reader acts on, in a small open-addressing table: looked up for every content
/// line, twice cheaper than a `Dictionary`'s seeded hashing.
private enum PropertyNames {
    static let entries: [(NameKey, PropertyName)] = [
        (NameKey("BEGIN"), .begin), (NameKey("END"), .end), (NameKey("UID"), .uid), (NameKey("SUMMARY"), .summary),
        (NameKey("LOCATION"), .location), (NameKey("DESCRIPTION"), .description), (NameKey("DTSTART"), .dtstart),
        (NameKey("DTEND"), .dtend), (NameKey("DURATION"), .duration), (NameKey("RRULE"), .rrule),
        (NameKey("RDATE"), .rdate), (NameKey("EXDATE"), .exdate), (NameKey("RECURRENCE-ID"), .recurrenceID),
        (NameKey("STATUS"), .status), (NameKey("TRANSP"), .transp), (NameKey("SEQUENCE"), .sequence), (NameKey("DTSTAMP"), .dtstamp),
        (NameKey("TZID"), .tzid), (NameKey("TZOFFSETFROM"), .tzoffsetfrom), (NameKey("TZOFFSETTO"), .tzoffsetto),
        (NameKey("X-WR-CALNAME"), .calendarName), (NameKey("X-FOCUS-BLOCK"), .focusMark), (NameKey("X-FOCUS-SESSION"), .focusMark),
        (NameKey("ATTENDEE"), .attendee),
    ]
    static let slotBits: UInt64 = 6

    static func slot(_ key: NameKey) -> Int {
        Int(truncatingIfNeeded: ((key.high &* 0x9E37_79B9_7F4A_7C15) ^ (key.low &* 0xC2B2_AE3D_27D4_EB4F)) >> (64 - slotBits))
    }

    static let table: [(key: NameKey, name: PropertyName)?] = {
        var table = [(key: NameKey, name: PropertyName)?](repeating: nil, count: 1 << Int(slotBits))
        for (key, name) in entries {
            var i = slot(key)
            while table[i] != nil { i = (i + 1) & (table.count - 1) }
            table[i] = (key, name)
        }
        return table
    }()

    static func name(_ key: NameKey) -> PropertyName? {
        var i = slot(key)
        while let entry = table[i] {
            if entry.key == key { return entry.name }
            i = (i + 1) & (table.count - 1)
        }
        return nil
    }
}

private let tzidKey = NameKey("TZID")
private let valueKey = NameKey("VALUE")
private let dateKey = NameKey("DATE")
private let periodKey = NameKey("PERIOD")
private let transparentKey = NameKey("TRANSPARENT")
private let partstatKey = NameKey("PARTSTAT")

/// Without leading and trailing spaces and tabs.
private func trimmedBytes(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var lo = bytes.startIndex
    var hi = bytes.endIndex
    while lo < hi, bytes[lo] == 32 || bytes[lo] == 9 { lo += 1 }
    while hi > lo, bytes[hi - 1] == 32 || bytes[hi - 1] == 9 { hi -= 1 }
    return bytes[lo..<hi]
}

/// A string with ASCII letters upper-cased (other bytes kept).
private func upperASCII(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.lazy.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
}

private struct EventBuilder {
    var line: Int
    var uid: String?
    var summary: String?
    var location: String?
    var description: String?
    var start: ICSDateValue?
    var end: ICSDateValue?
    var duration: ICSDuration?
    var rrule: ICSRecurrenceRule?
    var rdates: [ICSDateValue] = []
    var rdatePeriods: [ICSPeriod] = []
    var exdates: [ICSDateValue] = []
    var recurrenceID: ICSDateValue?
    var status: String?
    var transparent = false
    var sequence = 0
    var stamp: ICSDateValue?
    /// An `X-FOCUS-BLOCK` or `X-FOCUS-SESSION` property was read.
    var focusMark = false
    var attendees: [ICSAttendee] = []
    /// The first value of the event that did not parse (a lenient read drops the event).
    var problem: ICSParseError?

    /// focus published this event itself (see `ICSEvent.publishedByFocus`).
    var publishedByFocus: Bool { focusMark || uid.map(ICSEvent.isFocusUID) == true }
}

private struct ObservanceBuilder {
    var line: Int
    var daylight: Bool
    var start: ICSDateValue?
    var offsetFrom: Int?
    var offsetTo: Int?
    var rrule: ICSRecurrenceRule?
    var rdates: [ICSDateValue] = []
}

private struct TimeZoneBuilder {
    var line: Int
    var tzid: String?
    var observances: [ICSTimeZoneObservance] = []
    var problem: ICSParseError?
}

struct ICSParser {
    /// The file's bytes (borrowed for the duration of `run`).
    private let source: UnsafeBufferPointer<UInt8>
    /// The logical line being read, unfolded (reused from line to line).
    private var buf: [UInt8] = []
    private let detail: ICSReader.Detail
    private var lastPhysicalLine = 1

    private var stack: [(name: String, line: Int)] = []
    private var event: EventBuilder?
    private var eventDepth = 0
    private var zone: TimeZoneBuilder?
    private var zoneDepth = 0
    private var observance: ObservanceBuilder?
    private var observanceDepth = 0

    private var events: [ICSEvent] = []
    private var timeZones: [ICSTimeZone] = []
    private var calendarName: String?
    private let strict: Bool
    private var warnings: [ICSWarning] = []
    private var warnedTZIDs: Set<String> = []
    /// Set while reading a line whose parameter quote is never closed.
    private var unclosedQuote = false
    /// The physical line being read (for warnings).
    private var currentLine = 1

    // Parameters of the current content line (only TZID and VALUE are kept).
    private var paramTZID: String?
    private var paramValue: ArraySlice<UInt8>?
    /// The `PARTSTAT` parameter of the line being read (upper-cased), if any.
    private var paramPartstat: String?
    private var tzidCache: [([UInt8], String)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, strict: Bool, detail: ICSReader.Detail = .all) {
        self.source = bytes
        self.strict = strict
        self.detail = detail
    }

    mutating func run() throws(ICSParseError) -> ICSDocument {
        try unfold()
        if let open = stack.last {
            throw ICSParseError(line: lastPhysicalLine, reason: "BEGIN:\(open.name) at line \(open.line) is never closed with END:\(open.name) before the end of the file")
        }
        // A file with events of which none could be read is refused, not imported empty.
        if events.isEmpty, let first = warnings.first(where: \.dropped) {
            let count = warnings.filter(\.dropped).count
            throw ICSParseError(line: first.line, reason: "no event could be read (\(count) dropped); the first: \(first.message)")
        }
        return ICSDocument(events: events, timeZones: timeZones, name: calendarName, warnings: warnings)
    }

    // MARK: Unfolding

    /// Reads the file one logical line at a time: continuation lines are joined into `buf` as
    /// they come, and each logical line is handled (with the physical line number where it
    /// starts) before the next is read, so no list of lines is ever built. Skips a UTF-8 BOM
    /// and blank lines; a blank line ends a logical line, and a continuation line with nothing
    /// to continue is ignored. A line that cannot matter (an unknown property, one outside the
    /// component it belongs to, DESCRIPTION when only busy time is read) is skipped from its
    /// first physical line on, its continuation lines not even copied.
    private mutating func unfold() throws(ICSParseError) {
        let p = source
        var lines = ICSUnfolder(p)
        /// Whether a logical line is being read, whether it is skipped, and where it began.
        var open = false
        var skipping = false
        var openLine = 0
        var first = true
        while let (range, continuation) = lines.next() {
            if continuation {
                if open, !skipping {
                    buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[range]))
                }
            } else {
                if open {
                    if !skipping { try take(openLine, first: &first) }
                    open = false
                }
                if !range.isEmpty {
                    open = true
                    openLine = lines.physical
                    skipping = !first && isSkipped(p, range.lowerBound, range.upperBound)
                    buf.removeAll(keepingCapacity: true)
                    if !skipping { buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[range])) }
                }
            }
            if continuation || !range.isEmpty { lastPhysicalLine = lines.physical }
        }
        if open, !skipping { try take(openLine, first: &first) }
        if first {
            throw ICSParseError(line: 1, reason: "the file is empty: an iCalendar file starts with BEGIN:VCALENDAR")
        }
    }

    /// Handles the logical line in `buf`; the first one must be BEGIN:VCALENDAR.
    private mutating func take(_ line: Int, first: inout Bool) throws(ICSParseError) {
        if first {
            first = false
            if !isBeginCalendar() {
                let shown = String(decoding: buf.prefix(60), as: UTF8.self)
                throw ICSParseError(line: line, reason: "this is not an iCalendar file: it must start with BEGIN:VCALENDAR, not '\(shown)'")
            }
        }
        try handle(line: line)
        // A huge value (a 30 MB SUMMARY) is not kept in the line buffer once read.
        if buf.capacity > 1 << 20 { buf = [] }
    }

    /// Whether the logical line beginning with the physical line `p[r..<e]` would be ignored
    /// by `handle` whatever its continuation lines hold: its name ends on this physical line
    /// and is unknown, irrelevant where it stands, or (without parameters) a value busy time
    /// does not need.
    private func isSkipped(_ p: UnsafeBufferPointer<UInt8>, _ r: Int, _ e: Int) -> Bool {
        var i = r
        while i < e, p[i] != UInt8(ascii: ";"), p[i] != UInt8(ascii: ":") { i += 1 }
        guard i < e else { return false }  // the name may go on in a continuation line
        guard i - r <= 16, let key = NameKey(UnsafeBufferPointer(rebasing: p[r..<i])) else { return true }
        guard let name = PropertyNames.name(key) else { return true }
        // Without parameters (a quote never closed there drops the event), its value is all
        // there is to it, and busy time does not need it.
        if detail == .busyTime, name == .description || name == .location, p[i] == UInt8(ascii: ":") { return true }
        return !isRelevant(name)
    }

    private func isBeginCalendar() -> Bool {
        let text = String(decoding: buf, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return false }
        return text[..<colon].uppercased() == "BEGIN"
            && text[text.index(after: colon)...].trimmingSpaces().uppercased() == "VCALENDAR"
    }

    // MARK: Content lines

    /// Handles the logical line in `buf`, which began on physical line `line`.
    private mutating func handle(line: Int) throws(ICSParseError) {
        currentLine = line
        // The parameter slices share `buf`'s storage: let go of them, so the next line reuses it.
        defer { paramValue = nil }
        let s = 0
        let e = buf.count
        var i = s
        while i < e, buf[i] != UInt8(ascii: ";"), buf[i] != UInt8(ascii: ":") { i += 1 }
        guard i < e else { return }  // not NAME:VALUE — ignored
        guard let key = NameKey(buf[s..<i]), let name = PropertyNames.name(key) else { return }
        guard isRelevant(name) else { return }

        paramTZID = nil
        paramValue = nil
        paramPartstat = nil
        unclosedQuote = false
        while i < e, buf[i] == UInt8(ascii: ";") {
            i += 1
            let ns = i
            while i < e, buf[i] != UInt8(ascii: "="), buf[i] != UInt8(ascii: ";"), buf[i] != UInt8(ascii: ":") { i += 1 }
            let ne = i
            guard i < e, buf[i] == UInt8(ascii: "=") else { continue }
            i += 1
            let vs = i
            var quotedStart = -1
            var quotedEnd = -1
            // Values: quoted strings (may hold : ; ,) or plain text; parentheses protect a
            // colon too, for unquoted Outlook names like TZID=(UTC+01:00) Amsterdam, Berlin.
            while i < e {
                if buf[i] == UInt8(ascii: "\"") {
                    i += 1
                    if quotedStart < 0 { quotedStart = i }
                    while i < e, buf[i] != UInt8(ascii: "\"") { i += 1 }
                    if quotedEnd < 0 { quotedEnd = i }
                    if i < e { i += 1 } else { unclosedQuote = true }
                } else {
                    var depth = 0
                    while i < e {
                        let b = buf[i]
                        if b == UInt8(ascii: "(") { depth += 1 } else if b == UInt8(ascii: ")") { depth = max(0, depth - 1) }
                        else if depth == 0, b == UInt8(ascii: ",") || b == UInt8(ascii: ";") || b == UInt8(ascii: ":") { break }
                        i += 1
                    }
                }
                if i < e, buf[i] == UInt8(ascii: ",") { i += 1; continue }
                break
            }
            guard let pkey = NameKey(buf[ns..<ne]) else { continue }
            let raw: ArraySlice<UInt8> = quotedStart >= 0 && vs == quotedStart - 1 && i == quotedEnd + 1
                ? buf[quotedStart..<quotedEnd] : buf[vs..<i]
            if pkey == tzidKey {
                paramTZID = internTZID(raw)
            } else if pkey == valueKey {
                paramValue = raw
            } else if pkey == partstatKey {
                paramPartstat = upperASCII(trimmedBytes(raw))
            }
        }
        guard i < e, buf[i] == UInt8(ascii: ":") else {
            if unclosedQuote, name != .begin, name != .end {
                try problem(ICSParseError(line: line, reason: "\(label(name)) has a parameter whose quote is never closed, so its value cannot be read"))
            }
            return
        }
        let value = buf[(i + 1)..<e]
        if name == .begin || name == .end {
            try apply(name, value, line: line)
            return
        }
        do {
            try apply(name, value, line: line)
        } catch {
            try problem(error)
        }
    }

    /// A value that does not parse: refuses the file when strict; else marks the event (or
    /// time zone) it belongs to, which is then dropped with a warning.
    private mutating func problem(_ error: ICSParseError) throws(ICSParseError) {
        if strict { throw error }
        if event != nil {
            if event?.problem == nil { event?.problem = error }
        } else if zone != nil {
            if zone?.problem == nil { zone?.problem = error }
        } else {
            warnings.append(ICSWarning(line: error.line, reason: "ignored: \(error.reason)", dropped: false))
        }
    }

    /// A quirk read its clear way: one warning.
    private mutating func quirk(line: Int, _ reason: String) {
        warnings.append(ICSWarning(line: line, reason: reason, dropped: false))
    }

    private func label(_ name: PropertyName) -> String {
        switch name {
        case .dtstart: return "DTSTART"
        case .dtend: return "DTEND"
        case .rrule: return "RRULE"
        case .rdate: return "RDATE"
        case .exdate: return "EXDATE"
        case .recurrenceID: return "RECURRENCE-ID"
        case .duration: return "DURATION"
        default: return "a property"
        }
    }

    private func isRelevant(_ name: PropertyName) -> Bool {
        switch name {
        case .begin, .end: return true
        case .calendarName: return stack.count == 1
        case .tzid: return zone != nil && stack.count == zoneDepth
        case .tzoffsetfrom, .tzoffsetto: return observance != nil && stack.count == observanceDepth
        case .dtstart, .rrule, .rdate:
            return (event != nil && stack.count == eventDepth) || (observance != nil && stack.count == observanceDepth)
        default: return event != nil && stack.count == eventDepth
        }
    }

    private mutating func internTZID(_ raw: ArraySlice<UInt8>) -> String {
        for (bytes, name) in tzidCache where bytes.elementsEqual(raw) { return name }
        var cleaned = trimmedBytes(raw)
        if !strict {
            // Stray quotes and spaces around a zone name (`TZID=" Europe/Berlin"`): the name is clear.
            cleaned = trimmedBytes(cleaned.filter { $0 != UInt8(ascii: "\"") }[...])
        }
        let name = String(decoding: cleaned, as: UTF8.self)
        if !unclosedQuote, !cleaned.elementsEqual(raw), warnedTZIDs.insert(name).inserted, warnedTZIDs.count <= 32 {
            quirk(line: currentLine, "TZID '\(String(decoding: raw.prefix(80), as: UTF8.self))' has stray spaces or quotes; read as '\(name)'")
        }
        if tzidCache.count < 32 { tzidCache.append((Array(raw), name)) }
        return name
    }

    private func isDateValueParam() -> Bool {
        guard let v = paramValue, let key = NameKey(v) else { return false }
        return key == dateKey
    }

    private func isPeriodValueParam() -> Bool {
        guard let v = paramValue, let key = NameKey(v) else { return false }
        return key == periodKey
    }

    private mutating func apply(_ name: PropertyName, _ value: ArraySlice<UInt8>, line: Int) throws(ICSParseError) {
        switch name {
        case .begin:
            try begin(componentName(value), line: line)
        case .end:
            try end(componentName(value), line: line)
        case .calendarName:
            if calendarName == nil { calendarName = ICSValueParser.unescapeText(value) }
        case .tzid:
            zone?.tzid = String(decoding: trimmedBytes(value), as: UTF8.self)
        case .tzoffsetfrom, .tzoffsetto:
            let label = name == .tzoffsetfrom ? "TZOFFSETFROM" : "TZOFFSETTO"
            var parsed = ICSValueParser.parseUTCOffset(value)
            if parsed == nil, !strict, let unsigned = ICSValueParser.parseUTCOffset([UInt8(ascii: "+")] + trimmedBytes(value)) {
                // Old Apple iCal wrote offsets east of UTC without their sign.
                parsed = unsigned
                quirk(line: line, "\(label) value '\(text(value))' has no sign; read as +\(text(trimmedBytes(value)))")
            }
            guard let offset = parsed else {
                throw ICSParseError(line: line, reason: "\(label) value '\(text(value))' is not a UTC offset (expected e.g. +0100 or -0500)")
            }
            if name == .tzoffsetfrom { observance?.offsetFrom = offset } else { observance?.offsetTo = offset }
        case .dtstart:
            let date = try dateValue(value, property: "DTSTART", line: line)
            if observance != nil, stack.count == observanceDepth {
                observance?.start = date
            } else {
                event?.start = date
            }
        case .rrule:
            let rule: ICSRecurrenceRule
            switch ICSRecurrenceRule.parse(Substring(String(decoding: value, as: UTF8.self))) {
            case .success(let parsed): rule = parsed
            case .failure(let error): throw ICSParseError(line: line, reason: error.message)
            }
            if observance != nil, stack.count == observanceDepth {
                if observance?.rrule == nil { observance?.rrule = rule }
            } else if event?.rrule == nil {
                event?.rrule = rule
            }
        case .rdate:
            if isPeriodValueParam() {
                for item in split(value) {
                    let parsed = try period(item, line: line)
                    event?.rdatePeriods.append(parsed)
                }
            } else {
                for item in split(value) {
                    let date = try dateValue(item, property: "RDATE", line: line)
                    if observance != nil, stack.count == observanceDepth {
                        observance?.rdates.append(date)
                    } else {
                        event?.rdates.append(date)
                    }
                }
            }
        case .exdate:
            for item in split(value) {
                let date = try dateValue(item, property: "EXDATE", line: line)
                event?.exdates.append(date)
            }
        case .dtend:
            let date = try dateValue(value, property: "DTEND", line: line)
            event?.end = date
        case .recurrenceID:
            let date = try dateValue(value, property: "RECURRENCE-ID", line: line)
            event?.recurrenceID = date
        case .duration:
            guard let d = ICSValueParser.parseDuration(value) else {
                throw ICSParseError(line: line, reason: "DURATION value '\(text(value))' is not a duration (expected e.g. PT1H30M, P1D or -PT15M)")
            }
            event?.duration = d
        case .uid:
            event?.uid = ICSValueParser.unescapeText(value)
        case .summary:
            event?.summary = ICSValueParser.unescapeText(value)
        case .location:
            if detail == .all { event?.location = ICSValueParser.unescapeText(value) }
        case .description:
            if detail == .all { event?.description = ICSValueParser.unescapeText(value) }
        case .status:
            event?.status = upperASCII(trimmedBytes(value))
        case .transp:
            if let key = NameKey(value) { event?.transparent = key == transparentKey }
        case .attendee:
            // RFC 5545 section 3.2.12: PARTSTAT defaults to NEEDS-ACTION.
            let attendee = ICSAttendee(address: text(trimmedBytes(value)), partstat: paramPartstat ?? "NEEDS-ACTION")
            event?.attendees.append(attendee)
        case .sequence:
            let number = ICSRecurrenceRule.parseInteger(Substring(text(value))) ?? 0
            event?.sequence = number
        case .dtstamp:
            event?.stamp = ICSValueParser.parseDateValue(value, tzid: nil, forceDate: false)
        case .focusMark:
            event?.focusMark = true
        }
    }

    private func text(_ value: ArraySlice<UInt8>) -> String {
        String(decoding: value.prefix(80), as: UTF8.self)
    }

    private func componentName(_ value: ArraySlice<UInt8>) -> String {
        upperASCII(trimmedBytes(value))
    }


    private func split(_ value: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true)
    }

    private func dateValue(_ value: ArraySlice<UInt8>, property: String, line: Int) throws(ICSParseError) -> ICSDateValue {
        guard let date = ICSValueParser.parseDateValue(value, tzid: paramTZID, forceDate: isDateValueParam()) else {
            throw ICSParseError(line: line, reason: "\(property) value '\(text(value))' is not a valid date or date-time (expected e.g. 20261123, 20261123T080000Z or 20261123T090000)")
        }
        return date
    }

    private func period(_ value: ArraySlice<UInt8>, line: Int) throws(ICSParseError) -> ICSPeriod {
        guard let slash = value.firstIndex(of: UInt8(ascii: "/")),
              let start = ICSValueParser.parseDateValue(value[..<slash], tzid: paramTZID, forceDate: false),
              !start.isDate
        else {
            throw ICSParseError(line: line, reason: "RDATE period '\(text(value))' is not START/END or START/DURATION")
        }
        let rest = value[(slash + 1)...]
        if let end = ICSValueParser.parseDateValue(rest, tzid: paramTZID, forceDate: false), !end.isDate {
            return ICSPeriod(start: start, end: end)
        }
        if let duration = ICSValueParser.parseDuration(rest) {
            return ICSPeriod(start: start, duration: duration)
        }
        throw ICSParseError(line: line, reason: "RDATE period '\(text(value))' is not START/END or START/DURATION")
    }

    // MARK: Components

    private mutating func begin(_ name: String, line: Int) throws(ICSParseError) {
        if name == "VCALENDAR" {
            if let open = stack.last {
                throw ICSParseError(line: line, reason: "BEGIN:VCALENDAR inside BEGIN:\(open.name) at line \(open.line): END:\(open.name) is missing")
            }
        } else if stack.isEmpty {
            throw ICSParseError(line: line, reason: "BEGIN:\(name) outside of a VCALENDAR (BEGIN:VCALENDAR is missing)")
        }
        if name == "VEVENT", let open = event {
            throw ICSParseError(line: line, reason: "BEGIN:VEVENT inside the VEVENT begun at line \(open.line): END:VEVENT is missing")
        }
        let parent = stack.last?.name
        stack.append((name, line))
        switch name {
        case "VEVENT" where parent == "VCALENDAR":
            event = EventBuilder(line: line)
            eventDepth = stack.count
        case "VTIMEZONE" where parent == "VCALENDAR":
            zone = TimeZoneBuilder(line: line)
            zoneDepth = stack.count
        case "STANDARD" where parent == "VTIMEZONE" && zone != nil && stack.count == zoneDepth + 1,
             "DAYLIGHT" where parent == "VTIMEZONE" && zone != nil && stack.count == zoneDepth + 1:
            observance = ObservanceBuilder(line: line, daylight: name == "DAYLIGHT")
            observanceDepth = stack.count
        default:
            break
        }
    }

    private mutating func end(_ name: String, line: Int) throws(ICSParseError) {
        guard let open = stack.last else {
            throw ICSParseError(line: line, reason: "END:\(name) without a matching BEGIN:\(name)")
        }
        guard open.name == name else {
            if stack.contains(where: { $0.name == name }) {
                throw ICSParseError(line: line, reason: "BEGIN:\(open.name) at line \(open.line) is never closed with END:\(open.name) (found END:\(name))")
            }
            throw ICSParseError(line: line, reason: "END:\(name) without a matching BEGIN:\(name) (the open component is \(open.name), begun at line \(open.line))")
        }
        let depth = stack.count
        stack.removeLast()
        if let builder = event, depth == eventDepth {
            event = nil
            // What focus published itself is never busy time: a busy-time read drops it, and
            // one that does not parse is dropped without a warning (it is nobody's event).
            if builder.publishedByFocus, detail == .busyTime || builder.problem != nil || builder.start == nil { return }
            if let problem = builder.problem {
                warnings.append(ICSWarning(line: problem.line, uid: builder.uid, summary: builder.summary, reason: problem.reason, dropped: true))
                return
            }
            do {
                events.append(try finish(builder))
            } catch {
                if strict { throw error }
                warnings.append(ICSWarning(line: error.line, uid: builder.uid, summary: builder.summary,
                                           reason: builder.start == nil ? "it has no DTSTART" : error.reason, dropped: true))
            }
        } else if let builder = observance, depth == observanceDepth {
            observance = nil
            // An observance without a start or a target offset cannot be used; it is skipped.
            if let start = builder.start, let to = builder.offsetTo {
                zone?.observances.append(ICSTimeZoneObservance(
                    daylight: builder.daylight, start: start, offsetFrom: builder.offsetFrom ?? to,
                    offsetTo: to, rrule: builder.rrule, rdates: builder.rdates))
            }
        } else if let builder = zone, depth == zoneDepth {
            zone = nil
            if let problem = builder.problem {
                quirk(line: problem.line, "ignored the VTIMEZONE \(builder.tzid.map { "'\($0)' " } ?? "")begun at line \(builder.line): \(problem.reason)")
                return
            }
            if let tzid = builder.tzid, !tzid.isEmpty {
                timeZones.append(ICSTimeZone(tzid: tzid, observances: builder.observances, line: builder.line))
            }
        }
    }

    private func finish(_ b: EventBuilder) throws(ICSParseError) -> ICSEvent {
        guard let start = b.start else {
            let which = b.uid.map { " (UID \($0))" } ?? ""
            throw ICSParseError(line: b.line, reason: "the VEVENT begun at line \(b.line)\(which) has no DTSTART")
        }
        return ICSEvent(
            uid: b.uid ?? "focus-line-\(b.line)", summary: b.summary ?? "", location: b.location,
            description: b.description, start: start, end: b.end, duration: b.duration,
            rrule: b.rrule, rdates: b.rdates, rdatePeriods: b.rdatePeriods, exdates: b.exdates,
            recurrenceID: b.recurrenceID, status: b.status, transparent: b.transparent,
            sequence: b.sequence, stamp: b.stamp, line: b.line, publishedByFocus: b.publishedByFocus, attendees: b.attendees)
    }
}
