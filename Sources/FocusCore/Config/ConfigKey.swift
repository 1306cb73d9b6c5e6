import FocusText
import FoundationEssentials

/// What `set` is given for a key: the text as typed, trimmed, and today (the command line only).
struct ConfigInput {
    var key: String
    var raw: String
    var text: String
    var today: LocalDate?

    func invalid(_ expected: String) -> FocusError { .invalidValue(what: key, value: raw, expected: expected) }

    func duration(min: Int) throws(FocusError) -> Int {
        let s = try DurationParser.seconds(text, what: key)
        guard s >= min else { throw invalid(min > 0 ? "a duration of at least \(DurationParser.format(min))" : "a duration") }
        return s
    }

    func bool() throws(FocusError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw invalid("true or false")
        }
    }

    func isOff(_ words: [String]) -> Bool { words.contains(text.lowercased()) }

    /// `calendar_refresh`, `sync_interval`: 1m to 7d, or off.
    func interval() throws(FocusError) -> Int? {
        if isOff(["off", "none", "false", "0"]) { return nil }
        let s = try duration(min: 60)
        guard s <= 7 * 86_400 else { throw invalid("a duration from 1m to 7d, or off") }
        return s
    }
}

/// The one table of config keys (README, "Configuration"): each key's name, kind, what it
/// reads and how it is set and checked, whether it travels with sync, and its help line, in the
/// order `focus config` lists them. `keys`, `value(of:)` and `set` all read it.
package struct ConfigKey: Sendable {
    /// What kind of value a key holds.
    package enum Kind: Sendable { case duration, count, timeOfDay, toggle, choice, hours, dates, addresses }

    package let name: String
    package let kind: Kind
    /// Whether it travels with sync (README, "Two machines"): every key the planner reads.
    package let travels: Bool
    /// The help line `focus config` shows, ending with the default in parentheses.
    package let help: String
    let read: @Sendable (FocusConfig) -> String
    let write: @Sendable (inout FocusConfig, ConfigInput) throws(FocusError) -> Void

    /// The value a fresh config holds, as `config get` prints it.
    package var defaultValue: String { read(FocusConfig()) }

    package static func named(_ name: String) -> ConfigKey? { byName[name] }

    private static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    private static func span(_ seconds: Int) -> String { DurationParser.format(seconds).replacing(" ", with: "") }

    private static func duration(_ name: String, _ path: WritableKeyPath<FocusConfig, Int> & Sendable, min: Int,
                                 travels: Bool, _ help: String) -> ConfigKey {
        ConfigKey(name: name, kind: .duration, travels: travels, help: help, read: { span($0[keyPath: path]) },
                  write: { config, input throws(FocusError) in config[keyPath: path] = try input.duration(min: min) })
    }

    private static func toggle(_ name: String, _ path: WritableKeyPath<FocusConfig, Bool> & Sendable, travels: Bool, _ help: String) -> ConfigKey {
        ConfigKey(name: name, kind: .toggle, travels: travels, help: help, read: { $0[keyPath: path] ? "true" : "false" },
                  write: { config, input throws(FocusError) in config[keyPath: path] = try input.bool() })
    }

    private static func time(_ name: String, _ path: WritableKeyPath<FocusConfig, TimeOfDay> & Sendable, _ help: String) -> ConfigKey {
        ConfigKey(name: name, kind: .timeOfDay, travels: true, help: help, read: { $0[keyPath: path].description },
                  write: { config, input throws(FocusError) in config[keyPath: path] = try DateParser.timeOfDay(input.text, what: input.key) })
    }

    private static func interval(_ name: String, _ path: WritableKeyPath<FocusConfig, Int?> & Sendable, _ help: String) -> ConfigKey {
        ConfigKey(name: name, kind: .duration, travels: false, help: help, read: { $0[keyPath: path].map(span) ?? "off" },
                  write: { config, input throws(FocusError) in config[keyPath: path] = try input.interval() })
    }

    private static func weekday(_ day: Int, _ help: String) -> ConfigKey {
        ConfigKey(name: FocusConfig.weekdayKeys[day], kind: .hours, travels: true, help: help, read: { config in
            switch config.weekdayHours[day] {
            case .none: return "default"
            case .some(.none): return "off"
            case .some(.some(let window)): return window.description
            }
        }, write: { config, input throws(FocusError) in
            switch input.text.lowercased() {
            case "default", "": config.weekdayHours[day] = .none
            case "off", "none": config.weekdayHours[day] = .some(nil)
            default:
                guard let window = DayHours.parse(input.text) else {
                    throw input.invalid("working hours like 09:00-17:00 or 9am-5pm (start before end), off, or default")
                }
                config.weekdayHours[day] = .some(window)
            }
        })
    }

    package static let all: [ConfigKey] = [
        duration("work", \.workSeconds, min: 1, travels: true, "length of a work session (25m)"),
        duration("short_break", \.shortBreakSeconds, min: 0, travels: true, "length of a short break (5m)"),
        duration("long_break", \.longBreakSeconds, min: 0, travels: true, "length of a long break (15m)"),
        ConfigKey(name: "cycles", kind: .count, travels: true, help: "work sessions before a long break (4)", read: { String($0.cycles) },
                  write: { config, input throws(FocusError) in
                      guard let n = Int(input.text), (1...100).contains(n) else { throw input.invalid("a whole number from 1 to 100") }
                      config.cycles = n
                  }),
        time("day_start", \.dayStart, "working hours start, for planning (09:00)"),
        time("day_end", \.dayEnd, "working hours end, for planning (17:00)"),
        ConfigKey(name: "lunch", kind: .hours, travels: true, help: "a gap kept free every working day, 12:00-13:00, or off (12:00-13:00)",
                  read: { $0.lunch?.description ?? "off" },
                  write: { config, input throws(FocusError) in
                      if input.isOff(["off", "none", ""]) { config.lunch = nil; return }
                      guard let window = DayHours.parse(input.text), window.end.minutes < 1440 else {
                          throw input.invalid("a gap like 12:00-13:00 (start before end), or off")
                      }
                      config.lunch = window
                  }),
        duration("minimum_block", \.minimumBlockSeconds, min: 60, travels: true, "shortest work block the planner places (15m)"),
        toggle("notifications", \.notifications, travels: false, "desktop notifications on or off (true)"),
        toggle("bell", \.bell, travels: false, "terminal bell at the end of each phase (true)"),
        duration("reminder", \.reminderSeconds, min: 0, travels: false, "reminder before a planned block, 0 to disable (5m)"),
        ConfigKey(name: "urgency", kind: .choice, travels: false, help: "urgency of the end-of-work notice: low, normal, critical (critical)",
                  read: { $0.urgency.rawValue },
                  write: { config, input throws(FocusError) in
                      guard let u = Notice.Urgency(rawValue: input.text.lowercased()) else { throw input.invalid("low, normal or critical") }
                      config.urgency = u
                  }),
        duration("expiry", \.expirySeconds, min: 1, travels: false, "how long other notices stay on screen (10s)"),
        ConfigKey(name: "summary_time", kind: .timeOfDay, travels: false, help: "time of the end-of-day summary notice, or off (off)",
                  read: { $0.summaryTime?.description ?? "off" },
                  write: { config, input throws(FocusError) in
                      config.summaryTime = input.isOff(["off", "", "none", "false"]) ? nil : try DateParser.timeOfDay(input.text, what: input.key)
                  }),
        duration("hook_timeout", \.hookTimeoutSeconds, min: 1, travels: false,
                 "how long a hook script may run before it is stopped (10s)").checkingAtMost(3600, "a duration from 1s to 1h"),
        interval("calendar_refresh", \.calendarRefreshSeconds, "how often the daemon refreshes live calendars, 1m or more, or off (15m)"),
        interval("sync_interval", \.syncIntervalSeconds, "how often the daemon syncs (focus sync), 1m or more, or off (15m)"),
        ConfigKey(name: "email", kind: .addresses, travels: true,
                  help: "your addresses, comma-separated: meetings you declined there are free time (none)",
                  read: { $0.emails.isEmpty ? "none" : $0.emails.joined(separator: ",") },
                  write: { config, input throws(FocusError) in
                      let list = input.isOff(["none", ""]) ? [] : input.text.split(separator: ",").map { Attendance.address(String($0)) }
                      guard list.allSatisfy({ $0.contains("@") && !$0.contains(" ") }) else {
                          throw input.invalid("e-mail addresses, comma-separated (alice@example.org,alice@work.example), or none")
                      }
                      config.emails = list
                  }),
        toggle("tentative_busy", \.tentativeBusy, travels: true, "meetings not answered or accepted tentatively are busy time (true)"),
        duration("buffer", \.bufferSeconds, min: 0, travels: true, "free time the planner keeps around calendar events (0m)")
            .checkingAtMost(4 * 3600, "a duration from 0m to 4h"),
        ConfigKey(name: "max_per_day", kind: .duration, travels: true, help: "most work planned for one subtask a day, or none (4h)",
                  read: { $0.maxPerDaySeconds.map(span) ?? "none" },
                  write: { config, input throws(FocusError) in
                      config.maxPerDaySeconds = input.isOff(["off", "none", ""]) ? nil : try FocusConfig.dailyCap(input.text, what: input.key)
                  }),
        ConfigKey(name: "idle", kind: .choice, travels: false, help: "time behind a locked screen: ask, discard (a pause) or keep (ask)",
                  read: { $0.idle.rawValue },
                  write: { config, input throws(FocusError) in
                      guard let policy = IdlePolicy(rawValue: input.text.lowercased()) else { throw input.invalid("ask, discard or keep") }
                      config.idle = policy
                  }),
        weekday(1, "Monday's working hours, 9am-5pm, off, or default (day_start-day_end)"),
        weekday(2, "Tuesday's working hours (default)"),
        weekday(3, "Wednesday's working hours (default)"),
        weekday(4, "Thursday's working hours (default)"),
        weekday(5, "Friday's working hours (default)"),
        weekday(6, "Saturday's working hours (off)"),
        weekday(0, "Sunday's working hours (off)"),
        ConfigKey(name: "off", kind: .dates, travels: true,
                  help: "dated days off: set off DATE adds one, off -DATE removes one, off none clears (none)",
                  read: { $0.daysOff.isEmpty ? "none" : $0.daysOff.sorted().map(\.description).joined(separator: ",") },
                  write: { config, input throws(FocusError) in try config.setDaysOff(input.text, raw: input.raw, today: input.today) }),
    ]

    /// The same key, refusing values above `limit` with `expected`, after its own checks.
    private func checkingAtMost(_ limit: Int, _ expected: String) -> ConfigKey {
        let write = self.write
        let read = self.read
        return ConfigKey(name: name, kind: kind, travels: travels, help: help, read: read, write: { config, input throws(FocusError) in
            var probe = config
            try write(&probe, input)
            guard let seconds = try? DurationParser.seconds(input.text, what: input.key), seconds <= limit else {
                throw input.invalid(expected)
            }
            config = probe
        })
    }
}
