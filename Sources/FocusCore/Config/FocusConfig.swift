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

    /// Every key, in the order `focus config` lists them, with what it means (`ConfigKey.all`).
    package static var keys: [(key: String, help: String)] { ConfigKey.all.map { ($0.name, $0.help) } }

    /// The value of a key as `config get` prints it.
    package func value(of key: String) throws(FocusError) -> String {
        guard let entry = ConfigKey.named(key) else { throw FocusConfig.unknownKey(key) }
        return entry.read(self)
    }

    /// Sets a key from text (as typed on the command line or read from the file), validating it.
    /// `today` (the command line only) lets days off be said as words (`config set off fri`).
    package mutating func set(_ key: String, to raw: String, today: LocalDate? = nil) throws(FocusError) {
        guard let entry = ConfigKey.named(key) else { throw FocusConfig.unknownKey(key) }
        try entry.write(&self, ConfigInput(key: key, raw: raw, text: raw.trimmingSpaces(), today: today))
    }

    /// `off`: `none` clears the list; each comma-separated `YYYY-MM-DD` is added, `-YYYY-MM-DD`
    /// removed (so `config set off 2026-12-24` adds one day to those already off). Given `today`
    /// (`config set`, never the file), a day may be said as people say it (`fri`, `in 3 days`):
    /// what is stored is the date it names.
    mutating func setDaysOff(_ text: String, raw: String, today: LocalDate?) throws(FocusError) {
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
