// libFuzzer target: times of day (and working hours made of them), dates, date-times
// (DateParser, with days as people say them) and the interchange instant parser, resolved in
// zones with DST changes. Built by scripts/torture/fuzz.
import Foundation

private let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia"]
    .compactMap { ZoneRules.named($0) }.map { LocalCalendar(zone: $0) }
// Reference days for phrases (`fri`, `in 1 month`, `end of week`): a Sunday, a month's and a
// leap year's ends, a year's end and a Berlin clock change.
private let days = [LocalDate(year: 2026, month: 11, day: 22), LocalDate(year: 2026, month: 1, day: 31),
                    LocalDate(year: 2028, month: 2, day: 29), LocalDate(year: 9999, month: 12, day: 31),
                    LocalDate(year: 2026, month: 3, day: 28)]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDateTime(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let calendar = zones[size % zones.count]
    let today = days[(size / zones.count) % days.count]
    if let t = try? DateParser.timeOfDay(text) {
        precondition((0..<1440).contains(t.minutes))
        // Stored and shown as HH:MM, which reads back as itself.
        precondition((try? DateParser.timeOfDay(t.description)) == t, "\(text) read as \(t)")
        _ = calendar.instant(today, t)
    }
    // Working hours (`9am-5pm`): a window within the day that reads back as itself.
    if let hours = DayHours.parse(text) {
        precondition(hours.start < hours.end && hours.end.minutes <= 1440, "\(text) read as \(hours)")
        precondition(DayHours.parse(hours.description) == hours, "\(text) read as \(hours)")
    }
    if let d = try? DateParser.date(text, today: today) {
        precondition(d.isValid && (1...9999).contains(d.year), "\(text) read as \(d)")
        // Where a date-time is taken, a day is that day with no time.
        precondition((try? DateParser.dateTime(text, today: today)) == .day(d), "\(text) is a date but not a date-time day")
        _ = calendar.startOfDay(d)
        _ = calendar.day(of: calendar.startOfDay(d))
    }
    if let input = try? DateParser.dateTime(text, today: today) {
        let instant = DateParser.resolve(input, in: calendar)
        let due = DateParser.resolve(input, in: calendar, endOfDay: true)
        precondition(due >= instant)
        // A reading that names exactly one instant reads back as itself.
        if case let .local(day, time, _) = input, calendar.ambiguity(day, time) == .none {
            precondition(calendar.day(of: instant) == day && calendar.timeOfDay(of: instant) == time,
                         "\(day) \(time) in \(calendar.identifier) resolved to \(instant)")
        }
        // A gap or an overlap is always explained.
        if case let .local(day, time, _) = input, calendar.ambiguity(day, time) != .none {
            precondition(DateParser.ambiguityWarning(input, in: calendar) != nil)
        }
        _ = calendar.wallClockText(instant)
    }
    _ = InstantParser.parse(bytes: bytes)
    return 0
}
