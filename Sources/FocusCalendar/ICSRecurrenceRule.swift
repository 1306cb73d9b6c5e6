/// A day of the week as RRULE writes it (`SU` … `SA`); raw value 0 = Sunday.
package enum ICSWeekday: Int, Sendable, Hashable, CaseIterable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// `SU`, `MO`, …
    package var code: String { ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][rawValue] }

    init?(code: Substring) {
        switch code.uppercased() {
        case "SU": self = .sunday
        case "MO": self = .monday
        case "TU": self = .tuesday
        case "WE": self = .wednesday
        case "TH": self = .thursday
        case "FR": self = .friday
        case "SA": self = .saturday
        default: return nil
        }
    }
}

/// An RRULE: `FREQ=MONTHLY;BYDAY=-1FR;COUNT=6`.
package struct ICSRecurrenceRule: Sendable, Hashable {
    package enum Frequency: String, Sendable, Hashable, CaseIterable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY"
        case weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: `TU` (ordinal 0, every Tuesday), `2TU`, `-1FR`.
    package struct WeekdayNumber: Sendable, Hashable {
        package var ordinal: Int
        package var weekday: ICSWeekday

        package init(_ weekday: ICSWeekday, ordinal: Int = 0) {
            self.ordinal = ordinal
            self.weekday = weekday
        }
    }

    package var frequency: Frequency
    package var interval: Int
    package var count: Int?
    package var until: ICSDateValue?
    package var bySecond: [Int]
    package var byMinute: [Int]
    package var byHour: [Int]
    package var byDay: [WeekdayNumber]
    package var byMonthDay: [Int]
    package var byYearDay: [Int]
    package var byWeekNo: [Int]
    package var byMonth: [Int]
    package var bySetPos: [Int]
    package var weekStart: ICSWeekday

    package init(
        frequency: Frequency, interval: Int = 1, count: Int? = nil, until: ICSDateValue? = nil,
        bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [], byDay: [WeekdayNumber] = [],
        byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNo: [Int] = [], byMonth: [Int] = [],
        bySetPos: [Int] = [], weekStart: ICSWeekday = .monday
    ) {
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNo = byWeekNo
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        self.weekStart = weekStart
    }

    /// The largest INTERVAL accepted; larger values are clamped (they cannot reach a window anyway).
    static let maximumInterval = 100_000_000

    /// Parses an RRULE value. Unknown parts (X-…, RSCALE, SKIP) are ignored; a missing or unknown
    /// FREQ, or a known part with a bad value, is an error described by the returned string.
    static func parse(_ text: Substring) -> Result<ICSRecurrenceRule, RuleError> {
        var frequency: Frequency?
        var rule = ICSRecurrenceRule(frequency: .daily)
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            guard let eq = part.firstIndex(of: "=") else {
                return .failure(RuleError("RRULE part '\(part)' is not NAME=VALUE"))
            }
            let name = part[..<eq].uppercased()
            let value = part[part.index(after: eq)...]
            switch name {
            case "FREQ":
                guard let f = Frequency(rawValue: value.uppercased()) else {
                    return .failure(RuleError("RRULE FREQ=\(value) is not one of SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY"))
                }
                frequency = f
            case "INTERVAL":
                guard let n = parseInteger(value), n >= 1 else {
                    return .failure(RuleError("RRULE INTERVAL=\(value) is not a positive whole number"))
                }
                rule.interval = min(n, maximumInterval)
            case "COUNT":
                guard let n = parseInteger(value), n >= 1 else {
                    return .failure(RuleError("RRULE COUNT=\(value) is not a positive whole number"))
                }
                rule.count = n
            case "UNTIL":
                guard let date = ICSValueParser.parseDateValue(Array(value.utf8)[...], tzid: nil, forceDate: false) else {
                    return .failure(RuleError("RRULE UNTIL=\(value) is not a date (20261231) or date-time (20261231T235959Z)"))
                }
                rule.until = date
            case "BYSECOND":
                guard let list = parseList(value, range: 0...60, allowNegative: false) else { return .failure(badList(name, value)) }
                rule.bySecond = list
            case "BYMINUTE":
                guard let list = parseList(value, range: 0...59, allowNegative: false) else { return .failure(badList(name, value)) }
                rule.byMinute = list
            case "BYHOUR":
                guard let list = parseList(value, range: 0...23, allowNegative: false) else { return .failure(badList(name, value)) }
                rule.byHour = list
            case "BYMONTHDAY":
                guard let list = parseList(value, range: 1...31, allowNegative: true) else { return .failure(badList(name, value)) }
                rule.byMonthDay = list
            case "BYYEARDAY":
                guard let list = parseList(value, range: 1...366, allowNegative: true) else { return .failure(badList(name, value)) }
                rule.byYearDay = list
            case "BYWEEKNO":
                guard let list = parseList(value, range: 1...53, allowNegative: true) else { return .failure(badList(name, value)) }
                rule.byWeekNo = list
            case "BYMONTH":
                guard let list = parseList(value, range: 1...12, allowNegative: false) else { return .failure(badList(name, value)) }
                rule.byMonth = list
            case "BYSETPOS":
                guard let list = parseList(value, range: 1...366, allowNegative: true) else { return .failure(badList(name, value)) }
                rule.bySetPos = list
            case "BYDAY":
                var days: [WeekdayNumber] = []
                for item in value.split(separator: ",") {
                    guard let entry = parseWeekdayNumber(item) else {
                        return .failure(RuleError("RRULE BYDAY entry '\(item)' is not a weekday like MO, 2TU or -1FR"))
                    }
                    days.append(entry)
                }
                guard !days.isEmpty else { return .failure(RuleError("RRULE BYDAY is empty")) }
                rule.byDay = days
            case "WKST":
                guard let day = ICSWeekday(code: value) else {
                    return .failure(RuleError("RRULE WKST=\(value) is not a weekday (SU, MO, TU, WE, TH, FR, SA)"))
                }
                rule.weekStart = day
            default:
                continue
            }
        }
        guard let frequency else { return .failure(RuleError("RRULE has no FREQ (expected e.g. FREQ=WEEKLY)")) }
        rule.frequency = frequency
        return .success(rule)
    }

    struct RuleError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func badList(_ name: String, _ value: Substring) -> RuleError {
        RuleError("RRULE \(name)=\(value) has a value out of range or not a number")
    }

    /// A whole number, saturating at 10^15 so absurd values cannot overflow later arithmetic.
    static func parseInteger(_ text: Substring) -> Int? {
        var negative = false
        var digits = text[...]
        if let first = digits.first, first == "+" || first == "-" {
            negative = first == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var n = 0
        for ch in digits.utf8 {
            guard ch >= 48 && ch <= 57 else { return nil }
            if n < 1_000_000_000_000_000 { n = n * 10 + Int(ch - 48) }
        }
        return negative ? -n : n
    }

    private static func parseList(_ text: Substring, range: ClosedRange<Int>, allowNegative: Bool) -> [Int]? {
        var out: [Int] = []
        for item in text.split(separator: ",") {
            guard let n = parseInteger(item) else { return nil }
            if n < 0 {
                guard allowNegative, range.contains(-n) else { return nil }
            } else {
                guard range.contains(n) else { return nil }
            }
            out.append(n)
        }
        return out.isEmpty ? nil : out
    }

    private static func parseWeekdayNumber(_ item: Substring) -> WeekdayNumber? {
        guard item.count >= 2 else { return nil }
        let code = item.suffix(2)
        guard let weekday = ICSWeekday(code: code) else { return nil }
        let prefix = item.dropLast(2)
        if prefix.isEmpty { return WeekdayNumber(weekday) }
        guard let n = parseInteger(prefix), n != 0, abs(n) <= 53 else { return nil }
        return WeekdayNumber(weekday, ordinal: n)
    }
}
