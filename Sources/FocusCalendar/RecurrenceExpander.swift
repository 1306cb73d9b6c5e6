/// Expands one RRULE in wall-clock seconds (no time zone involved: callers convert).
///
/// Follows RFC 5545: each period of the rule's frequency (a year, month, week, day, hour,
/// minute or second, every INTERVAL-th one counted from DTSTART) yields the days that pass
/// every BYxxx part present, times from BYHOUR/BYMINUTE/BYSECOND (or DTSTART's), then
/// BYSETPOS picks among them. DTSTART is always the first occurrence and counts towards COUNT.
///
/// Bounded: every period visited and every candidate instant costs one step from `budget`;
/// expansion stops when the budget is spent, at UNTIL, at COUNT, or once past `upper`.
/// Without COUNT it starts at the period just before `lower` instead of at DTSTART.
struct RecurrenceExpander {
    private let frequency: ICSRecurrenceRule.Frequency
    private let interval: Int
    private let count: Int?
    private let start: Int
    private let startDay: Int
    private let startYear: Int
    private let startMonth: Int
    private let until: Int?
    private let weekStart: Int

    private let monthMask: UInt16
    private let monthDaysPositive: UInt32
    private let monthDaysNegative: UInt32
    private let hasMonthDays: Bool
    private let yearDays: [Int]
    private let weekNumbers: [Int]
    private let plainWeekdays: UInt8
    private let ordinalWeekdays: [(ordinal: Int, weekday: Int)]
    private let hasWeekdays: Bool
    private let ordinalsCountInYear: Bool

    private let hours: [Int]
    private let minutes: [Int]
    private let seconds: [Int]
    private let hourFilter: UInt32
    private let minuteFilter: UInt64
    private let secondFilter: UInt64
    private let setPositions: [Int]

    /// - Parameters:
    ///   - start: DTSTART in wall seconds.
    ///   - dateOnly: DTSTART is a DATE: occurrences are whole days (times ignored).
    ///   - until: UNTIL already converted to this rule's wall clock, inclusive.
    init(rule: ICSRecurrenceRule, start: Int, dateOnly: Bool, until: Int?) {
        var frequency = rule.frequency
        var interval = max(1, rule.interval)
        if dateOnly, frequency == .hourly || frequency == .minutely || frequency == .secondly {
            frequency = .daily
            interval = 1
        }
        self.frequency = frequency
        self.interval = interval
        self.count = rule.count
        self.start = start
        self.until = until
        self.weekStart = rule.weekStart.rawValue

        let day = CivilCalendar.day(ofWall: start)
        let (y, m, d) = CivilCalendar.date(fromDayNumber: day)
        let secondOfDay = CivilCalendar.secondOfDay(ofWall: start)
        startDay = day
        startYear = y
        startMonth = m

        var months = rule.byMonth
        var monthDays = rule.byMonthDay
        var byDay = rule.byDay
        let hasDayRule = !rule.byWeekNo.isEmpty || !rule.byYearDay.isEmpty || !rule.byMonthDay.isEmpty || !rule.byDay.isEmpty
        switch frequency {
        case .yearly where !hasDayRule:
            monthDays = [d]
            if months.isEmpty { months = [m] }
        case .monthly where !hasDayRule:
            monthDays = [d]
        case .weekly where !hasDayRule:
            if let weekday = ICSWeekday(rawValue: CivilCalendar.weekday(ofDay: day)) {
                byDay = [ICSRecurrenceRule.WeekdayNumber(weekday)]
            }
        default:
            break
        }

        var monthMask: UInt16 = 0
        for month in months { monthMask |= 1 << UInt16(month) }
        self.monthMask = monthMask
        var positive: UInt32 = 0
        var negative: UInt32 = 0
        for md in monthDays {
            if md > 0 { positive |= 1 << UInt32(md) } else { negative |= 1 << UInt32(-md) }
        }
        monthDaysPositive = positive
        monthDaysNegative = negative
        hasMonthDays = !monthDays.isEmpty
        yearDays = rule.byYearDay
        weekNumbers = frequency == .yearly ? rule.byWeekNo : []

        let ordinalsApply = frequency == .monthly || (frequency == .yearly && rule.byWeekNo.isEmpty)
        var plain: UInt8 = 0
        var ordinals: [(Int, Int)] = []
        for entry in byDay {
            if entry.ordinal == 0 || !ordinalsApply {
                plain |= 1 << UInt8(entry.weekday.rawValue)
            } else {
                ordinals.append((entry.ordinal, entry.weekday.rawValue))
            }
        }
        plainWeekdays = plain
        ordinalWeekdays = ordinals
        hasWeekdays = !byDay.isEmpty
        ordinalsCountInYear = frequency == .yearly && rule.byMonth.isEmpty

        let startHour = secondOfDay / 3600
        let startMinute = (secondOfDay % 3600) / 60
        let startSecond = secondOfDay % 60
        func sortedUnique(_ values: [Int], _ fallback: Int) -> [Int] {
            values.isEmpty ? [fallback] : Array(Set(values)).sorted()
        }
        if dateOnly {
            hours = [0]
            minutes = [0]
            seconds = [0]
        } else {
            hours = sortedUnique(rule.byHour, startHour)
            minutes = sortedUnique(rule.byMinute, startMinute)
            seconds = sortedUnique(rule.bySecond.map { min($0, 59) }, startSecond)
        }
        var hf: UInt32 = 0
        for h in rule.byHour { hf |= 1 << UInt32(h) }
        var mf: UInt64 = 0
        for v in rule.byMinute { mf |= 1 << UInt64(v) }
        var sf: UInt64 = 0
        for v in rule.bySecond { sf |= 1 << UInt64(min(v, 59)) }
        hourFilter = hf
        minuteFilter = mf
        secondFilter = sf
        setPositions = rule.bySetPos
    }

    /// Appends to `out`, ascending, every occurrence start in `[lower, upper]` (wall seconds).
    func expand(lower: Int, upper: Int, budget: inout Int, into out: inout [Int]) {
        var emitted = 1
        if start >= lower && start <= upper { out.append(start) }
        if let count, count <= 1 { return }
        var k = firstPeriod(lower: lower)
        var days: [Int] = []
        var candidates: [Int] = []
        var lastEmitted = start
        periods: while budget > 0 {
            budget -= 1
            candidates.removeAll(keepingCapacity: true)
            let periodStart: Int
            switch frequency {
            case .yearly:
                let year = startYear + k * interval
                periodStart = CivilCalendar.wall(year: year, month: 1, day: 1)
                if periodStart > upper || (until.map { periodStart > $0 } ?? false) { break periods }
                days.removeAll(keepingCapacity: true)
                collectYear(year, into: &days)
                addTimes(days, into: &candidates, budget: &budget)
            case .monthly:
                let index = startYear * 12 + (startMonth - 1) + k * interval
                let year = CivilCalendar.floorDiv(index, 12)
                let month = index - year * 12 + 1
                periodStart = CivilCalendar.wall(year: year, month: month, day: 1)
                if periodStart > upper || (until.map { periodStart > $0 } ?? false) { break periods }
                days.removeAll(keepingCapacity: true)
                if monthMask == 0 || monthMask & (1 << UInt16(month)) != 0 {
                    collectMonth(year: year, month: month, into: &days)
                }
                addTimes(days, into: &candidates, budget: &budget)
            case .weekly:
                let first = CivilCalendar.startOfWeek(containing: startDay, weekStart: weekStart) + 7 * k * interval
                periodStart = first * CivilCalendar.secondsPerDay
                if periodStart > upper || (until.map { periodStart > $0 } ?? false) { break periods }
                days.removeAll(keepingCapacity: true)
                for day in first..<(first + 7) where dayMatches(day) { days.append(day) }
                addTimes(days, into: &candidates, budget: &budget)
            case .daily:
                let day = startDay + k * interval
                periodStart = day * CivilCalendar.secondsPerDay
                if periodStart > upper || (until.map { periodStart > $0 } ?? false) { break periods }
                days.removeAll(keepingCapacity: true)
                if dayMatches(day) { days.append(day) }
                addTimes(days, into: &candidates, budget: &budget)
            case .hourly, .minutely, .secondly:
                let unit = frequency == .hourly ? 3600 : (frequency == .minutely ? 60 : 1)
                let base = CivilCalendar.floorDiv(start, unit)
                periodStart = (base + k * interval) * unit
                if periodStart > upper || (until.map { periodStart > $0 } ?? false) { break periods }
                let day = CivilCalendar.day(ofWall: periodStart)
                let sod = periodStart - day * CivilCalendar.secondsPerDay
                let hour = sod / 3600
                let minute = (sod % 3600) / 60
                let second = sod % 60
                // Skip whole days, hours or minutes that a BYxxx part rules out.
                if !dayMatches(day) {
                    k = nextPeriod(after: k, atOrAfter: (day + 1) * CivilCalendar.secondsPerDay, unit: unit, base: base)
                    continue periods
                }
                if hourFilter != 0, hourFilter & (1 << UInt32(hour)) == 0 {
                    k = nextPeriod(after: k, atOrAfter: day * CivilCalendar.secondsPerDay + (hour + 1) * 3600, unit: unit, base: base)
                    continue periods
                }
                switch frequency {
                case .hourly:
                    let hourStart = periodStart - minute * 60 - second
                    for mm in minutes {
                        for ss in seconds { candidates.append(hourStart + mm * 60 + ss) }
                    }
                case .minutely:
                    if minuteFilter != 0, minuteFilter & (1 << UInt64(minute)) == 0 {
                        k = nextPeriod(after: k, atOrAfter: periodStart - second + 60, unit: unit, base: base)
                        continue periods
                    }
                    let minuteStart = periodStart - second
                    for ss in seconds { candidates.append(minuteStart + ss) }
                default:
                    if (minuteFilter != 0 && minuteFilter & (1 << UInt64(minute)) == 0) {
                        k = nextPeriod(after: k, atOrAfter: periodStart - second + 60, unit: unit, base: base)
                        continue periods
                    }
                    if secondFilter == 0 || secondFilter & (1 << UInt64(second)) != 0 { candidates.append(periodStart) }
                }
                budget -= candidates.count
            }
            k += 1
            if candidates.isEmpty { continue }
            if !setPositions.isEmpty { applySetPositions(&candidates) }
            for c in candidates {
                if c <= lastEmitted { continue }  // before or at DTSTART (or a repeat): not counted
                if let until, c > until { break periods }
                if let count, emitted >= count { break periods }
                if c > upper { break periods }
                emitted += 1
                lastEmitted = c
                if c >= lower { out.append(c) }
            }
        }
    }

    /// The first period to visit: 0, or (with no COUNT) the one just before `lower`.
    private func firstPeriod(lower: Int) -> Int {
        guard count == nil, lower > start else { return 0 }
        let lowerDay = CivilCalendar.day(ofWall: lower)
        let k: Int
        switch frequency {
        case .yearly:
            k = CivilCalendar.floorDiv(CivilCalendar.date(fromDayNumber: lowerDay).year - startYear, interval)
        case .monthly:
            let (y, m, _) = CivilCalendar.date(fromDayNumber: lowerDay)
            k = CivilCalendar.floorDiv((y * 12 + m) - (startYear * 12 + startMonth), interval)
        case .weekly:
            let from = CivilCalendar.startOfWeek(containing: startDay, weekStart: weekStart)
            let to = CivilCalendar.startOfWeek(containing: lowerDay, weekStart: weekStart)
            k = CivilCalendar.floorDiv((to - from) / 7, interval)
        case .daily:
            k = CivilCalendar.floorDiv(lowerDay - startDay, interval)
        case .hourly, .minutely, .secondly:
            let unit = frequency == .hourly ? 3600 : (frequency == .minutely ? 60 : 1)
            k = CivilCalendar.floorDiv(CivilCalendar.floorDiv(lower, unit) - CivilCalendar.floorDiv(start, unit), interval)
        }
        return max(0, k - 1)
    }

    /// The first period index after `k` whose start is at or after wall second `t`.
    private func nextPeriod(after k: Int, atOrAfter t: Int, unit: Int, base: Int) -> Int {
        let units = -CivilCalendar.floorDiv(-t, unit) - base
        let next = -CivilCalendar.floorDiv(-units, interval)
        return max(k + 1, next)
    }

    private func addTimes(_ days: [Int], into candidates: inout [Int], budget: inout Int) {
        guard !days.isEmpty else { return }
        let perDay = hours.count * minutes.count * seconds.count
        var allowed = max(0, budget)
        budget -= days.count * perDay
        for day in days {
            let base = day * CivilCalendar.secondsPerDay
            for h in hours {
                for m in minutes {
                    for s in seconds {
                        if allowed == 0 { return }
                        allowed -= 1
                        candidates.append(base + h * 3600 + m * 60 + s)
                    }
                }
            }
        }
    }

    private func applySetPositions(_ candidates: inout [Int]) {
        let n = candidates.count
        var picked: [Int] = []
        for position in setPositions {
            let index = position > 0 ? position - 1 : n + position
            if index >= 0 && index < n { picked.append(index) }
        }
        picked = Array(Set(picked)).sorted()
        candidates = picked.map { candidates[$0] }
    }

    // MARK: Days

    private func collectYear(_ year: Int, into days: inout [Int]) {
        if weekNumbers.isEmpty && yearDays.isEmpty && monthMask != 0 {
            for month in 1...12 where monthMask & (1 << UInt16(month)) != 0 {
                collectMonth(year: year, month: month, into: &days)
            }
        } else {
            for month in 1...12 { collectMonth(year: year, month: month, into: &days) }
        }
    }

    private func collectMonth(year: Int, month: Int, into days: inout [Int]) {
        let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
        let length = CivilCalendar.daysInMonth(year: year, month: month)
        for dom in 1...length where dayMatches(first + dom - 1, year: year, month: month, dom: dom, monthLength: length) {
            days.append(first + dom - 1)
        }
    }

    private func dayMatches(_ day: Int) -> Bool {
        let (y, m, d) = CivilCalendar.date(fromDayNumber: day)
        return dayMatches(day, year: y, month: m, dom: d, monthLength: CivilCalendar.daysInMonth(year: y, month: m))
    }

    private func dayMatches(_ day: Int, year: Int, month: Int, dom: Int, monthLength: Int) -> Bool {
        if monthMask != 0, monthMask & (1 << UInt16(month)) == 0 { return false }
        if hasMonthDays {
            let fromEnd = monthLength - dom + 1
            if monthDaysPositive & (1 << UInt32(dom)) == 0 && monthDaysNegative & (1 << UInt32(fromEnd)) == 0 { return false }
        }
        if !yearDays.isEmpty {
            let doy = day - CivilCalendar.dayNumber(year: year, month: 1, day: 1) + 1
            let length = CivilCalendar.daysInYear(year)
            if !yearDays.contains(where: { $0 > 0 ? $0 == doy : length + $0 + 1 == doy }) { return false }
        }
        if !weekNumbers.isEmpty {
            let (week, weeks) = weekNumber(day, year: year)
            if !weekNumbers.contains(where: { $0 > 0 ? $0 == week : weeks + $0 + 1 == week }) { return false }
        }
        if hasWeekdays {
            let weekday = CivilCalendar.weekday(ofDay: day)
            if plainWeekdays & (1 << UInt8(weekday)) != 0 { return true }
            for entry in ordinalWeekdays where entry.weekday == weekday {
                let index: Int
                let fromEnd: Int
                if ordinalsCountInYear {
                    let doy = day - CivilCalendar.dayNumber(year: year, month: 1, day: 1)
                    index = doy / 7 + 1
                    fromEnd = (CivilCalendar.daysInYear(year) - 1 - doy) / 7 + 1
                } else {
                    index = (dom - 1) / 7 + 1
                    fromEnd = (monthLength - dom) / 7 + 1
                }
                if entry.ordinal > 0 ? entry.ordinal == index : -entry.ordinal == fromEnd { return true }
            }
            return false
        }
        return true
    }

    /// RFC 5545 week number of `day` (which lies in calendar `year`) and the number of weeks
    /// in the week-numbering year it belongs to.
    private func weekNumber(_ day: Int, year: Int) -> (week: Int, weeks: Int) {
        let w1 = CivilCalendar.firstDayOfWeekOne(year: year, weekStart: weekStart)
        if day < w1 {
            let previous = CivilCalendar.firstDayOfWeekOne(year: year - 1, weekStart: weekStart)
            return ((day - previous) / 7 + 1, (w1 - previous) / 7)
        }
        let next = CivilCalendar.firstDayOfWeekOne(year: year + 1, weekStart: weekStart)
        if day >= next {
            let afterNext = CivilCalendar.firstDayOfWeekOne(year: year + 2, weekStart: weekStart)
            return (1, (afterNext - next) / 7)
        }
        return ((day - w1) / 7 + 1, (next - w1) / 7)
    }
}
