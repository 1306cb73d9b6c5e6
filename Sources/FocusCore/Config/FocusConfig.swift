import FocusText
import FoundationEssentials

/// The person's settings, from `config.toml`. Every field has the documented default.
package struct FocusConfig: Sendable, Equatable {
    package var workSeconds = 25 * 60
    package var shortBreakSeconds = 5 * 60
    package var longBreakSeconds = 15 * 60
    /// Work sessions before a long break.
    package var cycles = 4
    package var dayStart = TimeOfDay(hour: 9, minute: 0)
    package var dayEnd = TimeOfDay(hour: 17, minute: 0)
    package var minimumBlockSeconds = 15 * 60
    package var notifications = true
    package var bell = true
    /// Reminder lead time before a scheduled block (0 disables).
    package var reminderSeconds = 5 * 60
    /// Urgency of the end-of-work notice: critical stays on screen until dismissed.
    package var urgency: Notice.Urgency = .critical
    /// How long the other notices stay on screen.
    package var expirySeconds = 10
    /// End-of-day summary notification time (off when nil).
    package var summaryTime: TimeOfDay?
    /// How long a hook script may run before it is stopped.
    package var hookTimeoutSeconds = 10
    /// Per weekday (0 = Sunday): nil keeps `day_start`–`day_end`; `.some(nil)` is a day off.
    /// Saturday and Sunday are off unless told (README, "Planning").
    package var weekdayHours: [DayHours??] = FocusConfig.defaultWeekdayHours
    /// The gap kept free every working day (`lunch`); nil: none.
    package var lunch: DayHours? = DayHours(start: TimeOfDay(hour: 12, minute: 0), end: TimeOfDay(hour: 13, minute: 0))
    /// Dated days off (`focus config set off 2026-12-24`).
    package var daysOff: Set<LocalDate> = []
    /// How often `focus daemon` fetches subscribed and connected calendars (nil: never).
    package var calendarRefreshSeconds: Int? = 15 * 60
    /// How often `focus daemon` syncs with the sync calendar (nil: only after local changes).
    package var syncIntervalSeconds: Int? = 15 * 60
    /// The person's own addresses (`email`): a meeting they declined there is free time.
    package var emails: [String] = []
    /// Whether a meeting the person has not answered or accepted tentatively is busy time.
    package var tentativeBusy = true
    /// Free time the planner keeps before and after every timed calendar event (`buffer`).
    package var bufferSeconds = 0
    /// The daily cap of a subtask without `--max-per-day` (`max_per_day`); nil: none.
    package var maxPerDaySeconds: Int? = 4 * 3600
    /// What time behind a locked screen is during a countdown (README, "Away from the screen").
    package var idle: IdlePolicy = .ask

    package init() {}

    /// Weekends off, weekdays at `day_start`–`day_end`.
    package static let defaultWeekdayHours: [DayHours??] = [.some(nil), nil, nil, nil, nil, nil, .some(nil)]

    /// `hours.sun` … `hours.sat`, by weekday number (0 = Sunday).
    package static let weekdayKeys = ["hours.sun", "hours.mon", "hours.tue", "hours.wed", "hours.thu", "hours.fri", "hours.sat"]

    /// Every key, in the order `focus config` lists them, with what it means.
    package static let keys: [(key: String, help: String)] = [
        ("work", "length of a work session (25m)"),
        ("short_break", "length of a short break (5m)"),
        ("long_break", "length of a long break (15m)"),
        ("cycles", "work sessions before a long break (4)"),
        ("day_start", "working hours start, for planning (09:00)"),
        ("day_end", "working hours end, for planning (17:00)"),
        ("lunch", "a gap kept free every working day, 12:00-13:00, or off (12:00-13:00)"),
        ("minimum_block", "shortest work block the planner places (15m)"),
        ("notifications", "desktop notifications on or off (true)"),
        ("bell", "terminal bell at the end of each phase (true)"),
        ("reminder", "reminder before a planned block, 0 to disable (5m)"),
        ("urgency", "urgency of the end-of-work notice: low, normal, critical (critical)"),
        ("expiry", "how long other notices stay on screen (10s)"),
        ("summary_time", "time of the end-of-day summary notice, or off (off)"),
        ("hook_timeout", "how long a hook script may run before it is stopped (10s)"),
        ("calendar_refresh", "how often the daemon refreshes live calendars, 1m or more, or off (15m)"),
        ("sync_interval", "how often the daemon syncs (focus sync), 1m or more, or off (15m)"),
        ("email", "your addresses, comma-separated: meetings you declined there are free time (none)"),
        ("tentative_busy", "meetings not answered or accepted tentatively are busy time (true)"),
        ("buffer", "free time the planner keeps around calendar events (0m)"),
        ("max_per_day", "most work planned for one subtask a day, or none (4h)"),
        ("idle", "time behind a locked screen: ask, discard (a pause) or keep (ask)"),
        ("hours.mon", "Monday's working hours, 9am-5pm, off, or default (day_start-day_end)"),
        ("hours.tue", "Tuesday's working hours (default)"),
        ("hours.wed", "Wednesday's working hours (default)"),
        ("hours.thu", "Thursday's working hours (default)"),
        ("hours.fri", "Friday's working hours (default)"),
        ("hours.sat", "Saturday's working hours (off)"),
        ("hours.sun", "Sunday's working hours (off)"),
        ("off", "dated days off: set off DATE adds one, off -DATE removes one, off none clears (none)"),
    ]

    /// The value of a key as `config get` prints it.
    package func value(of key: String) throws(FocusError) -> String {
        switch key {
        case "work": return DurationParser.format(workSeconds).replacing(" ", with: "")
        case "short_break": return DurationParser.format(shortBreakSeconds).replacing(" ", with: "")
        case "long_break": return DurationParser.format(longBreakSeconds).replacing(" ", with: "")
        case "cycles": return String(cycles)
        case "day_start": return dayStart.description
        case "day_end": return dayEnd.description
        case "minimum_block": return DurationParser.format(minimumBlockSeconds).replacing(" ", with: "")
        case "notifications": return notifications ? "true" : "false"
        case "bell": return bell ? "true" : "false"
        case "reminder": return DurationParser.format(reminderSeconds).replacing(" ", with: "")
        case "urgency": return urgency.rawValue
        case "expiry": return DurationParser.format(expirySeconds).replacing(" ", with: "")
        case "summary_time": return summaryTime?.description ?? "off"
        case "hook_timeout": return DurationParser.format(hookTimeoutSeconds).replacing(" ", with: "")
        case "calendar_refresh": return calendarRefreshSeconds.map { DurationParser.format($0).replacing(" ", with: "") } ?? "off"
        case "sync_interval": return syncIntervalSeconds.map { DurationParser.format($0).replacing(" ", with: "") } ?? "off"
        case "off": return daysOff.isEmpty ? "none" : daysOff.sorted().map(\.description).joined(separator: ",")
        case "email": return emails.isEmpty ? "none" : emails.joined(separator: ",")
        case "tentative_busy": return tentativeBusy ? "true" : "false"
        case "buffer": return DurationParser.format(bufferSeconds).replacing(" ", with: "")
        case "max_per_day": return maxPerDaySeconds.map { DurationParser.format($0).replacing(" ", with: "") } ?? "none"
        case "lunch": return lunch?.description ?? "off"
        case "idle": return idle.rawValue
        default:
            guard let weekday = FocusConfig.weekdayKeys.firstIndex(of: key) else { throw FocusConfig.unknownKey(key) }
            switch weekdayHours[weekday] {
            case .none: return "default"
            case .some(.none): return "off"
            case .some(.some(let window)): return window.description
            }
        }
    }

    /// Sets a key from text (as typed on the command line or read from the file), validating it.
    /// `today` (the command line only) lets days off be said as words (`config set off fri`).
    package mutating func set(_ key: String, to raw: String, today: LocalDate? = nil) throws(FocusError) {
        let text = raw.trimmingSpaces()
        func duration(min: Int) throws(FocusError) -> Int {
            let s = try DurationParser.seconds(text, what: key)
            guard s >= min else {
                throw .invalidValue(what: key, value: raw, expected: min > 0 ? "a duration of at least \(DurationParser.format(min))" : "a duration")
            }
            return s
        }
        func bool() throws(FocusError) -> Bool {
            switch text.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw .invalidValue(what: key, value: raw, expected: "true or false")
            }
        }
        switch key {
        case "work": workSeconds = try duration(min: 1)
        case "short_break": shortBreakSeconds = try duration(min: 0)
        case "long_break": longBreakSeconds = try duration(min: 0)
        case "cycles":
            guard let n = Int(text), (1...100).contains(n) else {
                throw .invalidValue(what: key, value: raw, expected: "a whole number from 1 to 100")
            }
            cycles = n
        case "day_start": dayStart = try DateParser.timeOfDay(text, what: key)
        case "day_end": dayEnd = try DateParser.timeOfDay(text, what: key)
        case "minimum_block": minimumBlockSeconds = try duration(min: 60)
        case "notifications": notifications = try bool()
        case "bell": bell = try bool()
        case "reminder": reminderSeconds = try duration(min: 0)
        case "urgency":
            guard let u = Notice.Urgency(rawValue: text.lowercased()) else {
                throw .invalidValue(what: key, value: raw, expected: "low, normal or critical")
            }
            urgency = u
        case "expiry": expirySeconds = try duration(min: 1)
        case "summary_time":
            summaryTime = ["off", "", "none", "false"].contains(text.lowercased()) ? nil : try DateParser.timeOfDay(text, what: key)
        case "hook_timeout":
            let s = try duration(min: 1)
            guard s <= 3600 else { throw .invalidValue(what: key, value: raw, expected: "a duration from 1s to 1h") }
            hookTimeoutSeconds = s
        case "calendar_refresh":
            if ["off", "none", "false", "0"].contains(text.lowercased()) {
                calendarRefreshSeconds = nil
            } else {
                let s = try duration(min: 60)
                guard s <= 7 * 86_400 else { throw .invalidValue(what: key, value: raw, expected: "a duration from 1m to 7d, or off") }
                calendarRefreshSeconds = s
            }
        case "sync_interval":
            if ["off", "none", "false", "0"].contains(text.lowercased()) {
                syncIntervalSeconds = nil
            } else {
                let s = try duration(min: 60)
                guard s <= 7 * 86_400 else { throw .invalidValue(what: key, value: raw, expected: "a duration from 1m to 7d, or off") }
                syncIntervalSeconds = s
            }
        case "off": try setDaysOff(text, raw: raw, today: today)
        case "email":
            let list = ["none", ""].contains(text.lowercased()) ? [] : text.split(separator: ",").map { Attendance.address(String($0)) }
            guard list.allSatisfy({ $0.contains("@") && !$0.contains(" ") }) else {
                throw .invalidValue(what: key, value: raw, expected: "e-mail addresses, comma-separated (alice@example.org,alice@work.example), or none")
            }
            emails = list
        case "tentative_busy": tentativeBusy = try bool()
        case "buffer":
            let s = try duration(min: 0)
            guard s <= 4 * 3600 else { throw .invalidValue(what: key, value: raw, expected: "a duration from 0m to 4h") }
            bufferSeconds = s
        case "max_per_day":
            if ["off", "none", ""].contains(text.lowercased()) {
                maxPerDaySeconds = nil
            } else {
                maxPerDaySeconds = try FocusConfig.dailyCap(text, what: key)
            }
        case "lunch":
            if ["off", "none", ""].contains(text.lowercased()) {
                lunch = nil
            } else {
                guard let window = DayHours.parse(text), window.end.minutes < 1440 else {
                    throw .invalidValue(what: key, value: raw, expected: "a gap like 12:00-13:00 (start before end), or off")
                }
                lunch = window
            }
        case "idle":
            guard let policy = IdlePolicy(rawValue: text.lowercased()) else {
                throw .invalidValue(what: key, value: raw, expected: "ask, discard or keep")
            }
            idle = policy
        default:
            guard let weekday = FocusConfig.weekdayKeys.firstIndex(of: key) else { throw FocusConfig.unknownKey(key) }
            switch text.lowercased() {
            case "default", "": weekdayHours[weekday] = .none
            case "off", "none": weekdayHours[weekday] = .some(nil)
            default:
                guard let window = DayHours.parse(text) else {
                    throw .invalidValue(what: key, value: raw, expected: "working hours like 09:00-17:00 or 9am-5pm (start before end), off, or default")
                }
                weekdayHours[weekday] = .some(window)
            }
        }
    }

    /// `off`: `none` clears the list; each comma-separated `YYYY-MM-DD` is added, `-YYYY-MM-DD`
    /// removed (so `config set off 2026-12-24` adds one day to those already off). Given `today`
    /// (`config set`, never the file), a day may be said as people say it (`fri`, `in 3 days`):
    /// what is stored is the date it names.
    private mutating func setDaysOff(_ text: String, raw: String, today: LocalDate?) throws(FocusError) {
        if ["none", ""].contains(text.lowercased()) {
            daysOff = []
            return
        }
        for item in text.split(separator: ",") {
            var entry = Substring(item.trimmingSpaces())
            let removing = entry.hasPrefix("-")
            if removing { entry = entry.dropFirst() }
            let said = today.flatMap { DayPhrase.day(String(entry), today: $0) }
            guard let day = said ?? (entry.utf8.count == 10 ? DateParser.parseDate(entry) : nil) else {
                let forms = today == nil ? "dates like 2026-12-24" : "dates like 2026-12-24 or fri, in 3 days"
                throw .invalidValue(what: "off", value: raw, expected: forms + " (-2026-12-24 to remove one, none to clear)")
            }
            if removing { daysOff.remove(day) } else { daysOff.insert(day) }
        }
    }

    /// A daily cap (`max_per_day`, `--max-per-day`): a duration from 1m to 24h.
    package static func dailyCap(_ text: String, what: String) throws(FocusError) -> Int {
        let seconds = try DurationParser.seconds(text, what: what)
        guard (60...86_400).contains(seconds) else {
            throw .invalidValue(what: what, value: text, expected: "a duration from 1m to 24h, or none")
        }
        return seconds
    }

    /// Keys whose values are checked against each other by `validate()`.
    package static let relatedKeys: Set<String> = ["day_start", "day_end"]

    /// Working hours for the planner and the agenda: `day_start`–`day_end`, weekday windows, days off.
    package var workingHours: WorkingHours {
        WorkingHours(standard: DayHours(start: dayStart, end: dayEnd), weekdays: weekdayHours, daysOff: daysOff)
    }

    /// Checks the rules that tie keys together, on the finished settings: a file's lines (or a
    /// `config set` over the file) are judged as a whole, so the order they come in never matters.
    package func validate() throws(FocusError) {
        if dayEnd <= dayStart {
            throw .invalidValue(what: "working hours", value: "\(dayStart)–\(dayEnd)", expected: "day_start before day_end")
        }
    }

    /// A mistyped key gets the nearest keys (`wrok` → `work`); one far from every key gets the list.
    private static func unknownKey(_ key: String) -> FocusError {
        let names = keys.map(\.key)
        let near = NearestNames.closest(to: key, among: names)
        guard !near.isEmpty else { return .usage("unknown config key '\(key)'. Keys: " + names.joined(separator: ", ") + ".") }
        let quoted = near.map { "'\($0)'" }
        let choice = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        return .usage("unknown config key '\(key)'. Did you mean \(choice)? `focus config list` shows every key and its value.")
    }
}

extension SchedulingRules {
    /// The planner's rules from the person's settings (README, "Planning"): working hours, days
    /// off, lunch, block shape and breaks, the Pomodoro rhythm, buffer and daily cap; blocks on
    /// 5-minute marks.
    package init(config: FocusConfig, calendar: LocalCalendar) {
        self.init(calendar: calendar, workdayStart: config.dayStart, workdayEnd: config.dayEnd,
                  minimumBlockSeconds: config.minimumBlockSeconds, breakSeconds: config.shortBreakSeconds,
                  defaultSpanSeconds: config.workSeconds)
        weekdayHours = config.weekdayHours
        daysOff = config.daysOff
        bufferSeconds = config.bufferSeconds
        maxPerDaySeconds = config.maxPerDaySeconds
        lunch = config.lunch
        grainMinutes = 5
        cycles = config.cycles
        longBreakSeconds = config.longBreakSeconds
    }
}
