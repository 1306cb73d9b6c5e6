import FocusCalendar
import FocusText
import FocusTime
import FoundationEssentials

/// Tasks, subtasks and sessions as calendar objects (README, "Two machines"): a task or subtask
/// is a to-do (VTODO), a session an event (VEVENT), focus's own values in `X-FOCUS-*`
/// properties. To-dos other programs write read as tasks (as subtasks when they name a parent
/// with `RELATED-TO`).
package enum SyncCodec {
    /// The whole calendar object resource of an item.
    /// `zone`: the person's, in which a due date that is a local midnight is a date
    /// (`DUE;VALUE=DATE`, the day it ends), as to-do apps show dates; without it every due is
    /// a date-time.
    package static func encode(_ item: SyncItem, stamp: Date, zone: LocalCalendar? = nil) -> String {
        calendar([item], properties: [], stamp: stamp, zone: zone)
    }

    /// Every item in one iCalendar object, as a whole collection is written in one request
    /// where the server takes that (`X-WR-CALNAME` keeps the calendar's name): each component
    /// is the one `encode` writes for the item alone.
    package static func collection(_ items: [SyncItem], name: String, stamp: Date, zone: LocalCalendar? = nil) -> String {
        calendar(items, properties: ["X-WR-CALNAME:" + ICSWriter.escapeText(name)], stamp: stamp, zone: zone)
    }

    /// A VCALENDAR with focus's header, `properties` of its own, and the items' components.
    private static func calendar(_ items: [SyncItem], properties: [String], stamp: Date, zone: LocalCalendar?) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus//sync//EN"] + properties
        for item in items { lines += componentLines(item, stamp: stamp, zone: zone) }
        lines.append("END:VCALENDAR")
        return ICSWriter.text(lines: lines)
    }

    /// The item written over the calendar object another program (or focus elsewhere) wrote for
    /// it, so that what focus does not know survives a write from here: the first VTODO or
    /// VEVENT keeps every property focus does not write (PRIORITY, CATEGORIES, URL, a RELATED-TO
    /// that is not the parent link, …) and every component inside it (VALARM), and everything
    /// around it (VTIMEZONE, other properties of the calendar) stays as it was. Without an
    /// original, or one whose component is not the item's, it is `encode`.
    package static func encode(_ item: SyncItem, stamp: Date, over original: Data?, zone: LocalCalendar? = nil) -> String {
        guard let original else { return encode(item, stamp: stamp, zone: zone) }
        let raw = ICSText.unfolded(original)
        let parsed = raw.map(ICSText.parse)
        let name = item.kind == .session ? "VEVENT" : "VTODO"
        // The component: its BEGIN and END at the VCALENDAR's depth + 1.
        var depth = 0
        var begin: Int?
        var end: Int?
        for (i, line) in parsed.enumerated() {
            guard let line else { continue }
            if line.name == "BEGIN" {
                depth += 1
                if begin == nil, depth == 2, line.value.uppercased() == name { begin = i }
            } else if line.name == "END" {
                if let begin, end == nil, depth == 2, i > begin { end = i }
                depth -= 1
            }
        }
        guard let begin, let end,
              parsed[begin + 1..<end].contains(where: { $0?.name == "UID" && $0?.value.trimmingSpaces() == item.uid })
        else { return encode(item, stamp: stamp, zone: zone) }
        // A task's due date as another app wrote it stays as written while it means the same.
        var item = item
        if case var .task(t) = item, let due = t.due,
           let line = parsed[begin + 1..<end].first(where: { $0?.name == "DUE" }) ?? nil,
           instant(line, zone: zone ?? LocalCalendar(zone: .utc), dateMeansEnd: true) == due {
            t.due = nil
            item = .task(t)
        }
        // So do a subtask's PRIORITY (another app's 2 is focus's high) and daily cap (`PT60M`).
        let keeping = keptAsWritten(&item, parsed[begin + 1..<end].compactMap { $0 })
        var ours = componentLines(item, stamp: stamp, zone: zone)
        let writtenStatus = ours.first { $0.hasPrefix("STATUS:") }
        let originalStatus = parsed[begin + 1..<end].first { $0?.name == "STATUS" }??.value.uppercased()
        var kept: [String] = []
        var inner = 0
        for i in begin + 1..<end {
            guard let line = parsed[i] else { kept.append(raw[i]); continue }
            if line.name == "BEGIN" { inner += 1 }
            defer { if line.name == "END" { inner -= 1 } }
            if inner > 0 || line.name == "END" { kept.append(raw[i]); continue }
            if !keeping.contains(line.name), owned(line, item: item, writtenStatus: writtenStatus, originalStatus: originalStatus) { continue }
            kept.append(raw[i])
        }
        // An unfinished to-do another program marks IN-PROCESS stays so.
        if originalStatus == "IN-PROCESS", writtenStatus == "STATUS:NEEDS-ACTION", let at = ours.firstIndex(of: "STATUS:NEEDS-ACTION") {
            ours[at] = "STATUS:IN-PROCESS"
        }
        var lines = Array(raw[..<begin])
        lines += ours.dropLast()
        lines += kept
        lines.append(ours.last ?? "END:\(name)")
        lines += raw[(end + 1)...]
        return ICSWriter.text(lines: lines)
    }

    /// The properties focus writes for an item (its own lines replace them). A task's start
    /// date is not focus's: another app's stays.
    private static func owned(_ line: ContentLine, item: SyncItem, writtenStatus: String?, originalStatus: String?) -> Bool {
        let kind = item.kind
        switch line.name {
        case "UID", "DTSTAMP", "LAST-MODIFIED", "SUMMARY", "DESCRIPTION", "STATUS", "DTEND", "COMPLETED", "TRANSP":
            return true
        case "DUE":
            // A task's due date is its stand-in subtask's (read into the task, written from it).
            if case let .task(t) = item { return t.due != nil }
            return true
        case "DTSTART", "DURATION":
            return kind != .task
        case "RELATED-TO":
            // RFC 5545 section 3.2.15: PARENT when no RELTYPE is given.
            return (line.parameters["RELTYPE"] ?? "PARENT").uppercased() == "PARENT"
        case "PERCENT-COMPLETE":
            // A figure that said how far the to-do was goes when focus changes whether it is done.
            return (originalStatus == "COMPLETED") != (writtenStatus == "STATUS:COMPLETED")
        case "CATEGORIES":
            // A session's categories are its tags, which focus writes; a to-do's are the other app's.
            return kind == .session || line.value == "focus"
        case "PRIORITY":
            // A subtask's is its priority (RFC 5545 section 3.8.1.9); a task's is the other app's.
            return kind == .subtask
        default:
            return line.name.hasPrefix("X-FOCUS-")
        }
    }

    /// The item's VTODO or VEVENT, one unfolded line each.
    private static func componentLines(_ item: SyncItem, stamp: Date, zone: LocalCalendar?) -> [String] {
        var out: [String] = []
        func line(_ text: String) { out.append(text) }
        func text(_ name: String, _ value: String?) { if let value, !value.isEmpty { line(name + ":" + ICSWriter.escapeText(value)) } }
        let modified = Date(timeIntervalSince1970: Double(item.modified) / 1000)
        switch item {
        case let .task(t):
            line("BEGIN:VTODO")
            line("UID:" + t.uid)
            line("DTSTAMP:" + utc(stamp))
            if item.modified > 0 { line("LAST-MODIFIED:" + utc(modified)) }
            text("SUMMARY", t.title)
            text("DESCRIPTION", t.notes)
            if let due = t.due { line(dueLine(due, zone: zone)) }
            line("STATUS:" + (t.archived ? "COMPLETED" : "NEEDS-ACTION"))
            line("X-FOCUS-KIND:task")
            if let e = t.estimateSeconds { line("X-FOCUS-ESTIMATE:\(e)") }
            // The stand-in's other planning (a task's DTSTART and PRIORITY are the other app's).
            let p = t.planning
            if let start = p.startDate, let day = DateOnly.parse(start) { line("X-FOCUS-START:" + day.dashed) }
            if let span = p.spanSeconds { line("X-FOCUS-SPAN:\(span)") }
            if let m = p.earliestMinutes { line("X-FOCUS-EARLIEST:" + TimeOfDay(minutes: m).description) }
            if let word = SyncItem.word(priority: p.priority) { line("X-FOCUS-PRIORITY:" + word) }
            if let cap = p.maxPerDaySeconds { line("X-FOCUS-MAX-PER-DAY:" + ICSWriter.duration(seconds: cap)) }
            line("X-FOCUS-MODIFIED:\(t.modified)")
            line("END:VTODO")
        case let .subtask(s):
            line("BEGIN:VTODO")
            line("UID:" + s.uid)
            line("DTSTAMP:" + utc(stamp))
            if item.modified > 0 { line("LAST-MODIFIED:" + utc(modified)) }
            text("SUMMARY", s.title)
            line("RELATED-TO;RELTYPE=PARENT:" + s.taskUID)
            text("DESCRIPTION", s.notes)
            if let start = s.startDate, let day = DateOnly.parse(start) { line("DTSTART;VALUE=DATE:" + day.compact) }
            if let due = s.due { line(dueLine(due, zone: zone)) }
            line("STATUS:" + (s.done ? "COMPLETED" : "NEEDS-ACTION"))
            if s.done { line("COMPLETED:" + utc(s.modified > 0 ? modified : stamp)) }
            line("X-FOCUS-KIND:subtask")
            if let e = s.estimateSeconds { line("X-FOCUS-ESTIMATE:\(e)") }
            if let span = s.spanSeconds { line("X-FOCUS-SPAN:\(span)") }
            if let m = s.earliestMinutes { line("X-FOCUS-EARLIEST:" + TimeOfDay(minutes: m).description) }
            if let p = priorityLine(s.priority) { line(p) }
            if let cap = s.maxPerDaySeconds { line("X-FOCUS-MAX-PER-DAY:" + ICSWriter.duration(seconds: cap)) }
            // Recurring work (README, "Planning") in focus's own properties rather than an RRULE
            // (RFC 5545 section 3.8.5.3): focus writes each period's instance as a to-do of its own,
            // and a rule on the series would have other apps show every occurrence a second time.
            if let every = s.every { line("X-FOCUS-EVERY:" + every) }
            if s.every != nil, let on = s.onDay { line("X-FOCUS-ON:\(on)") }
            if let series = s.seriesUID { line("X-FOCUS-SERIES:" + series) }
            if s.seriesUID != nil, let period = s.periodStart { line("X-FOCUS-PERIOD:" + period) }
            line("X-FOCUS-MODIFIED:\(s.modified)")
            line("END:VTODO")
        case let .session(s):
            line("BEGIN:VEVENT")
            line("UID:" + s.uid)
            line("DTSTAMP:" + utc(stamp))
            if item.modified > 0 { line("LAST-MODIFIED:" + utc(modified)) }
            line("DTSTART:" + utc(s.start))
            line("DTEND:" + utc(s.end))
            text("SUMMARY", s.label)
            text("DESCRIPTION", s.note)
            line("TRANSP:TRANSPARENT")
            line("CATEGORIES:focus")
            // Its tags, in a CATEGORIES of their own (RFC 5545 section 3.8.1.2: a list of TEXT
            // values separated by commas; a property that may occur more than once).
            if !s.tags.isEmpty { line("CATEGORIES:" + s.tags.map(ICSWriter.escapeText).joined(separator: ",")) }
            line("X-FOCUS-SESSION:" + s.status)
            line("X-FOCUS-TASK:" + s.taskUID)
            if let sub = s.subtaskUID { line("X-FOCUS-SUBTASK:" + sub) }
            line("X-FOCUS-PLANNED:\(s.plannedSeconds)")
            line("X-FOCUS-FOCUSED:\(s.focusedSeconds)")
            line("X-FOCUS-MODIFIED:\(s.modified)")
            line("END:VEVENT")
        }
        return out
    }

    /// The item a calendar object resource holds; nil when it holds none of focus's (another
    /// program's event, a journal, a running-session checkpoint). `zone` reads floating and
    /// date-only values. A resource that is not iCalendar at all is bad input.
    package static func decode(_ data: Data, zone: LocalCalendar) throws(FocusError) -> SyncItem? {
        let lines = ICSText.lines(data)
        guard lines.contains(where: { $0.name == "BEGIN" && $0.value.uppercased() == "VCALENDAR" }) else {
            throw FocusError.badInput(file: "the sync calendar", line: nil, reason: "a resource there is not iCalendar data")
        }
        guard let props = ICSText.firstComponent(lines, named: ["VTODO", "VEVENT"]),
              let uid = props.value("UID")?.trimmingSpaces(), !uid.isEmpty, uid.count <= 1000
        else { return nil }
        let modified = modifiedTime(props)
        if props.component == "VEVENT" {
            guard props.first("X-FOCUS-RUNNING") == nil, let task = props.value("X-FOCUS-TASK"), !task.isEmpty,
                  let start = instant(props.first("DTSTART"), zone: zone) else { return nil }
            // An end before the start is kept as read: `SyncAdmission` refuses such a session.
            let end = instant(props.first("DTEND"), zone: zone) ?? start
            let length = Int(max(0, min(end.timeIntervalSince(start), 36_525 * 86_400)))
            let status = SyncCodec.sessionStatus(props.value("X-FOCUS-SESSION"))
            return .session(SyncedSession(
                uid: uid, taskUID: task, subtaskUID: props.value("X-FOCUS-SUBTASK").flatMap { $0.isEmpty ? nil : $0 },
                label: props.text("SUMMARY") ?? "", start: start, end: end,
                plannedSeconds: seconds(props.value("X-FOCUS-PLANNED"), 0...36_525 * 86_400) ?? 0,
                focusedSeconds: min(length, seconds(props.value("X-FOCUS-FOCUSED"), 0...36_525 * 86_400) ?? length),
                status: status, note: props.text("DESCRIPTION").flatMap { $0.isEmpty ? nil : $0 }, modified: modified,
                tags: tags(props)))
        }
        let kind = props.value("X-FOCUS-KIND")?.lowercased()
        let parent = props.lines.first { $0.name == "RELATED-TO" && ($0.parameters["RELTYPE"] ?? "PARENT").uppercased() == "PARENT" }?.value
        let title = Self.title(props.text("SUMMARY"))
        let notes = props.text("DESCRIPTION").flatMap { $0.isEmpty ? nil : $0 }
        let status = props.value("STATUS")?.uppercased()
        let closed = status == "COMPLETED" || status == "CANCELLED"
        if kind == "subtask" || (kind != "task" && parent?.isEmpty == false), let parent, !parent.isEmpty {
            var startDate: String?
            if let line = props.first("DTSTART"), let day = DateOnly.parse(line.value) { startDate = day.dashed }
            let earliest = props.value("X-FOCUS-EARLIEST").flatMap(DateOnly.minutes)
            var subtask = SyncedSubtask(
                uid: uid, taskUID: parent, title: title, notes: notes,
                estimateSeconds: seconds(props.value("X-FOCUS-ESTIMATE"), 1...36_525 * 86_400),
                startDate: startDate, due: instant(props.first("DUE"), zone: zone, dateMeansEnd: true),
                spanSeconds: seconds(props.value("X-FOCUS-SPAN"), 1...36_525 * 86_400), earliestMinutes: earliest,
                done: closed, modified: modified, priority: priority(props.value("PRIORITY")),
                maxPerDaySeconds: dailyCap(props.value("X-FOCUS-MAX-PER-DAY")))
            recurring(props, into: &subtask)
            return .subtask(subtask)
        }
        let planning = StandInPlanning(
            startDate: props.value("X-FOCUS-START").flatMap { DateOnly.parse($0.trimmingSpaces()) }?.dashed,
            spanSeconds: seconds(props.value("X-FOCUS-SPAN"), 1...36_525 * 86_400),
            earliestMinutes: props.value("X-FOCUS-EARLIEST").flatMap(DateOnly.minutes),
            priority: SyncItem.priority(word: props.value("X-FOCUS-PRIORITY")?.trimmingSpaces().lowercased() ?? "", else: 0), maxPerDaySeconds: dailyCap(props.value("X-FOCUS-MAX-PER-DAY")))
        return .task(SyncedTask(uid: uid, title: title.replacing("/", with: "-"), notes: notes, archived: closed, modified: modified,
                                due: instant(props.first("DUE"), zone: zone, dateMeansEnd: true),
                                estimateSeconds: seconds(props.value("X-FOCUS-ESTIMATE"), 1...36_525 * 86_400), planning: planning))
    }

    /// A series' rule or an instance's series and period, as `componentLines` writes them; a
    /// rule focus does not know, or a malformed period, is left out (the to-do is then plain work).
    /// Only a to-do named as focus names an instance (`SyncIdentity.isInstanceName`) is one: a
    /// copy another app made of an instance (a new UID, the unknown properties copied along, as
    /// to-do apps do) is plain work, never taken for the period's instance, which it would replace.
    static func recurring(_ props: ICSProperties, into s: inout SyncedSubtask) {
        if let every = props.value("X-FOCUS-EVERY")?.trimmingSpaces().lowercased(), let kind = Recurrence.Every(rawValue: every) {
            s.every = kind.rawValue
            s.onDay = Recurrence(every: kind, stored: props.value("X-FOCUS-ON").flatMap { Int($0.trimmingSpaces()) }).on
        }
        if let series = props.value("X-FOCUS-SERIES")?.trimmingSpaces(), !series.isEmpty, series.count <= 1000,
           let period = props.value("X-FOCUS-PERIOD").flatMap({ DateOnly.parse($0.trimmingSpaces()) }),
           SyncIdentity.isInstanceName(s.uid, periodStart: period.dashed) {
            s.seriesUID = series
            s.periodStart = period.dashed
        }
    }

    /// `DUE;VALUE=DATE:20261201` for a due at local midnight (a date: it ends with that day,
    /// as `instant(_:zone:dateMeansEnd:)` reads it back), else `DUE:20261201T170000Z`.
    /// A session event's tags: the values of its CATEGORIES (RFC 5545 section 3.8.1.2, TEXT
    /// values separated by unescaped commas), less the one `CATEGORIES:focus` that marks every
    /// session; names that are not tag names (`SessionTags`) are left out.
    static func tags(_ props: ICSProperties) -> [String] {
        var lines = props.lines.filter { $0.name == "CATEGORIES" }
        if let marker = lines.firstIndex(where: { $0.value == "focus" }) { lines.remove(at: marker) }
        var names: [String] = []
        for line in lines {
            var current = ""
            var escaped = false
            for c in line.value {
                if escaped {
                    current.append("\\")
                    current.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "," {
                    names.append(ICSText.unescape(current))
                    current = ""
                } else {
                    current.append(c)
                }
            }
            // A backslash that ends the value is kept, as every TEXT value reads it (`ICSText.unescape`).
            if escaped { current.append("\\") }
            names.append(ICSText.unescape(current))
        }
        return SessionTags.sorted(names.filter { SessionTags.problem($0) == nil }.map { $0.trimmingSpaces() })
    }

    static func dueLine(_ due: Date, zone: LocalCalendar?) -> String {
        guard let zone else { return "DUE:" + utc(due) }
        let day = zone.day(of: due)
        guard zone.startOfDay(day) == due else { return "DUE:" + utc(due) }
        return "DUE;VALUE=DATE:" + DateOnly(date: day.adding(days: -1)).compact
    }

    /// `YYYYMMDDTHHMMSSZ`.
    package static func utc(_ date: Date) -> String { ICSWriter.utcDateTime(date) }

    /// A title as focus stores one: trimmed, never empty, at most 500 characters.
    private static func title(_ text: String?) -> String {
        let trimmed = (text ?? "").split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
        return trimmed.isEmpty ? "Untitled" : String(trimmed.prefix(500))
    }

    /// A whole number of seconds within `range`; anything else is absent.
    private static func seconds(_ text: String?, _ range: ClosedRange<Int>) -> Int? {
        guard let text, let n = Int(text.trimmingSpaces()), range.contains(n) else { return nil }
        return n
    }

    /// When the item was last edited, in milliseconds: the later of `X-FOCUS-MODIFIED` (focus's
    /// own, to the millisecond) and `LAST-MODIFIED` (what another program that edits the to-do
    /// sets); with neither, `DTSTAMP`; else 0 (never edited).
    private static func modifiedTime(_ props: ICSProperties) -> Int64 {
        func ms(_ name: String) -> Int64? {
            guard let line = props.first(name), let date = instant(line, zone: LocalCalendar(zone: .utc)) else { return nil }
            return Int64(date.timeIntervalSince1970) * 1000
        }
        let own = props.value("X-FOCUS-MODIFIED").flatMap { Int64($0.trimmingSpaces()) }
            .flatMap { (0...253_402_300_799_000).contains($0) ? $0 : nil }
        let edited = ms("LAST-MODIFIED")
        if own == nil, edited == nil { return ms("DTSTAMP") ?? 0 }
        return max(own ?? 0, edited ?? 0)
    }

    /// A DATE-TIME (UTC, floating, or with a TZID focus knows; an unknown TZID reads as UTC)
    /// or a DATE (its start, or with `dateMeansEnd` the start of the next day, as a due date
    /// without a time means its end everywhere in focus).
    package static func instant(_ line: ContentLine?, zone: LocalCalendar, dateMeansEnd: Bool = false) -> Date? {
        guard let line else { return nil }
        let value = line.value.trimmingSpaces()
        let calendar: LocalCalendar
        if value.hasSuffix("Z") {
            calendar = LocalCalendar(zone: .utc)
        } else if let tzid = line.parameters["TZID"] {
            calendar = zone.database.zone(named: tzid.trimmingSpaces()).map { LocalCalendar(zone: $0, database: zone.database) }
                ?? LocalCalendar(zone: .utc)
        } else {
            calendar = zone
        }
        guard let day = DateOnly.parse(String(value.prefix(8))) else { return nil }
        let local = day.date
        if value.count == 8 { return calendar.startOfDay(dateMeansEnd ? local.adding(days: 1) : local) }
        let time = value.dropFirst(9).prefix(6)
        guard value.count >= 15, value[value.index(value.startIndex, offsetBy: 8)] == "T", time.count == 6,
              time.allSatisfy(\.isASCIIDigit), let hms = Int(time) else { return nil }  // digits only: never `T-10000`
        let (h, m, s) = (hms / 10_000, hms / 100 % 100, hms % 100)
        guard h < 24, m < 60, s < 61 else { return nil }
        return calendar.instant(local, TimeOfDay(hour: h, minute: m), second: min(s, 59))
    }
}

/// `20261124` / `2026-11-24`, validated.
private struct DateOnly {
    var date: LocalDate

    static func parse(_ text: String) -> DateOnly? {
        let digits = text.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy(\.isASCIIDigit), let n = Int(digits) else { return nil }
        let (y, m, d) = (n / 10_000, n / 100 % 100, n % 100)
        guard (1...9999).contains(y), (1...12).contains(m), d >= 1, d <= CivilCalendar.daysInMonth(year: y, month: m) else { return nil }
        return DateOnly(date: LocalDate(year: y, month: m, day: d))
    }

    var compact: String { String(zeroPadded: date.year, width: 4) + Digits.two(date.month) + Digits.two(date.day) }
    var dashed: String { date.description }

    /// `HH:MM` → minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.trimmingSpaces().split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return h * 60 + m
    }
}

extension Character {
    /// `0`…`9`: what the digits of an iCalendar DATE or TIME may be (RFC 5545 section 3.3.4,
    /// 3.3.12); `Int` would also read a sign.
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension SyncCodec {
    /// A session's status as sync reads it: `completed`, `open` (counted up with no planned
    /// length) or, for anything else, `interrupted`.
    package static func sessionStatus(_ value: String?) -> String {
        switch value?.lowercased() {
        case "completed": return "completed"
        case "open": return "open"
        default: return "interrupted"
        }
    }
}
