import FocusCalendar
import Foundation
import Testing

/// A local calendar in a zone from the system's zone database (or a `TZ` rule).
func local(_ tz: String) -> LocalCalendar {
    LocalCalendar(zone: ZoneRules.fromTZ(tz) ?? .utc)
}

let berlin = local("Europe/Berlin")
let newYork = local("America/New_York")
let tokyo = local("Asia/Tokyo")
let utcZone = local("UTC")

struct FixtureMissing: Error { let name: String }

/// The raw bytes of a fixture under Fixtures/.
func fixtureData(_ name: String) throws -> Data {
    guard let url = Bundle.module.url(forResource: name, withExtension: "ics", subdirectory: "Fixtures") else {
        throw FixtureMissing(name: name)
    }
    return try Data(contentsOf: url)
}

/// A fixture, parsed.
func fixture(_ name: String) throws -> ICSDocument {
    try ICSReader.parse(data: fixtureData(name))
}

/// `2026-11-02T15:00:00Z` → Date, by hand (tests only use well-formed literals).
func utc(_ text: String) -> Date {
    let digits = text.compactMap { $0.wholeNumberValue }
    let year = digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3]
    let month = digits[4] * 10 + digits[5]
    let day = digits[6] * 10 + digits[7]
    let hour = digits.count > 8 ? digits[8] * 10 + digits[9] : 0
    let minute = digits.count > 10 ? digits[10] * 10 + digits[11] : 0
    let second = digits.count > 12 ? digits[12] * 10 + digits[13] : 0
    var c = DateComponents()
    c.year = year; c.month = month; c.day = day; c.hour = hour; c.minute = minute; c.second = second
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: c)!
}

private let iso = Date.ISO8601FormatStyle()

/// `2026-11-02T15:00:00Z–2026-11-02T16:00:00Z Weekly sync` lines, for exact comparisons.
func spans(_ occurrences: [CalendarOccurrence]) -> [String] {
    occurrences.map { "\($0.start.formatted(iso))–\($0.end.formatted(iso)) \($0.summary)" }
}

/// Busy occurrences between two UTC literals.
func busy(_ document: ICSDocument, _ from: String, _ to: String, in zone: LocalCalendar = berlin) -> [CalendarOccurrence] {
    document.busyOccurrences(from: utc(from), to: utc(to), local: zone)
}

/// Wraps VEVENT/VTIMEZONE text in a VCALENDAR.
func calendar(_ body: String) -> String {
    "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//focus tests//inline//EN\n" + body + "\nEND:VCALENDAR\n"
}

/// One VEVENT with the given property lines, in a VCALENDAR, parsed.
func singleEvent(_ lines: String, uid: String = "inline@focus.test") throws -> ICSDocument {
    try ICSReader.parse(calendar("BEGIN:VEVENT\nUID:\(uid)\nSUMMARY:Inline\n" + lines + "\nEND:VEVENT"))
}

/// The parse error a text produces, if any.
/// The error a strict read (`calendar import --strict`) refuses `text` with, if any.
func parseError(_ text: String) -> ICSParseError? {
    do {
        _ = try ICSReader.parse(text, strict: true)
        return nil
    } catch {
        return error
    }
}
