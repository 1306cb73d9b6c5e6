import FocusCore
import Testing

@Suite struct ConfigTests {
    @Test func defaultsAreThoseOfTheContract() {
        let c = FocusConfig()
        #expect(c.workSeconds == 1500 && c.shortBreakSeconds == 300 && c.longBreakSeconds == 900 && c.cycles == 4)
        #expect(c.minimumBlockSeconds == 900 && c.reminderSeconds == 300)
    }

    /// #41: the defaults a working person expects: Monday to Friday 09:00–17:00, weekends off,
    /// lunch 12:00–13:00 kept free, at most 4h of one subtask a day; `focus config` says so.
    @Test func defaultsAreAWorkingWeekWithLunchAndADailyCap() throws {
        let c = FocusConfig()
        let values = try ["day_start", "day_end", "hours.mon", "hours.sat", "hours.sun", "lunch", "max_per_day"].map { key throws(FocusError) in
            try c.value(of: key)
        }
        #expect(values == ["09:00", "17:00", "default", "off", "off", "12:00-13:00", "4h"])
        let help = Dictionary(FocusConfig.keys.map { ($0.key, $0.help) }, uniquingKeysWith: { a, _ in a })
        #expect(help["day_start"]?.hasSuffix("(09:00)") == true && help["day_end"]?.hasSuffix("(17:00)") == true)
        #expect(help["hours.sat"]?.hasSuffix("(off)") == true && help["hours.sun"]?.hasSuffix("(off)") == true)
        #expect(help["lunch"]?.hasSuffix("(12:00-13:00)") == true && help["max_per_day"]?.hasSuffix("(4h)") == true)
    }

    @Test func lunchTakesAGapOrOff() throws {
        var c = FocusConfig()
        try c.set("lunch", to: "12:30-13:15")
        #expect(try c.value(of: "lunch") == "12:30-13:15")
        try c.set("lunch", to: "off")
        #expect(c.lunch == nil)
        #expect(try c.value(of: "lunch") == "off")
        #expect(throws: FocusError.self) { try c.set("lunch", to: "13:00-12:00") }
    }

    @Test func readsTheFileOverTheDefaults() throws {
        let text = """
            # mine
            work = "50m"
            short_break = 10   # minutes
            cycles = 3
            notifications = false
            day_start = "07:30"
            """
        let c = try ConfigFile.parse(text, path: "config.toml")
        #expect(c.workSeconds == 3000 && c.shortBreakSeconds == 600 && c.cycles == 3 && !c.notifications)
        #expect(c.dayStart == TimeOfDay(hour: 7, minute: 30))
        #expect(c.longBreakSeconds == 900)
    }

    @Test func aBadLineNamesTheFileAndLine() {
        #expect(throws: FocusError.badInput(file: "c.toml", line: 2, reason: "invalid work 'soon': expected a duration like 25m, 1h30m, 90s, 1.5h or a number of minutes.")) {
            try ConfigFile.parse("cycles = 2\nwork = \"soon\"", path: "c.toml")
        }
        #expect(throws: FocusError.self) { try ConfigFile.parse("[section]", path: "c.toml") }
        #expect(throws: FocusError.self) { try ConfigFile.parse("colour = \"red\"", path: "c.toml") }
    }

    @Test func hookTimeoutIsTenSecondsByDefaultAndBetweenASecondAndAnHour() throws {
        var c = FocusConfig()
        #expect(try c.value(of: "hook_timeout") == "10s")
        try c.set("hook_timeout", to: "2m")
        #expect(c.hookTimeoutSeconds == 120)
        #expect(throws: FocusError.self) { try c.set("hook_timeout", to: "0") }
        #expect(throws: FocusError.self) { try c.set("hook_timeout", to: "2h") }
        #expect(c.hookTimeoutSeconds == 120)
    }

    @Test func settingAKeyKeepsCommentsAndOtherKeys() {
        let before = "# mine\nwork = \"50m\"\ncycles = 3\n"
        #expect(ConfigFile.updating(before, key: "work", value: "45m") == "# mine\nwork = \"45m\"\ncycles = 3\n")
        #expect(ConfigFile.updating(before, key: "bell", value: "false") == "# mine\nwork = \"50m\"\ncycles = 3\nbell = false\n")
    }

    @Test func workingHoursMustBeInOrder() throws {
        var c = FocusConfig()
        try c.set("day_end", to: "07:00")
        #expect(throws: FocusError.self) { try c.validate() }
    }

    @Test(arguments: ["day_start = \"22:30\"\nday_end = \"23:30\"", "day_end = \"23:30\"\nday_start = \"22:30\"",
                      "day_start = 22:30\n# late\nday_end = 23:30\n", "day_end = 07:00\nday_start = 06:00"])
    func workingHoursAreJudgedOnTheFinishedFileInAnyOrder(text: String) throws {
        let c = try ConfigFile.parse(text, path: "c.toml")
        #expect(c.dayEnd > c.dayStart)
    }

    @Test func workingHoursOutOfOrderNameTheLastLineThatSetThem() {
        #expect(throws: FocusError.badInput(file: "c.toml", line: 3, reason: "invalid working hours '23:30–22:30': expected day_start before day_end.")) {
            try ConfigFile.parse("day_start = 23:30\nwork = 50m\nday_end = 22:30\nbell = false", path: "c.toml")
        }
        #expect(throws: FocusError.badInput(file: "c.toml", line: 1, reason: "invalid working hours '22:30–17:00': expected day_start before day_end.")) {
            try ConfigFile.parse("day_start = 22:30", path: "c.toml")
        }
    }
}

@Suite struct IdleConfigTests {
    @Test func idleIsAskByDefaultAndTakesAskDiscardOrKeep() throws {
        var c = FocusConfig()
        #expect(try c.value(of: "idle") == "ask")
        try c.set("idle", to: "Discard")
        #expect(c.idle == .discard)
        #expect(try c.value(of: "idle") == "discard")
        try c.set("idle", to: "keep")
        #expect(c.idle == .keep)
        #expect(try ConfigFile.parse("idle = \"discard\"", path: "c.toml").idle == .discard)
    }

    @Test func anotherIdleValueIsRefusedWithTheOnesThatWork() {
        var c = FocusConfig()
        #expect(throws: FocusError.invalidValue(what: "idle", value: "sometimes", expected: "ask, discard or keep")) {
            try c.set("idle", to: "sometimes")
        }
        #expect(c.idle == .ask)
    }
}

/// Issue #43: config keys live in one table (`ConfigKey.all`) that `keys`, `value(of:)` and
/// `set` all read, so a key cannot be listed without being readable and settable.
@Suite struct ConfigKeyTableTests {
    @Test func everyListedKeyReadsItsDefaultAndTakesItBack() throws {
        let names = FocusConfig.keys.map(\.key)
        #expect(Set(names).count == names.count)
        #expect(names.count == ConfigKey.all.count)
        for key in ConfigKey.all {
            var config = FocusConfig()
            #expect(try config.value(of: key.name) == key.defaultValue, "\(key.name)")
            try config.set(key.name, to: key.defaultValue)
            #expect(config == FocusConfig(), "\(key.name): setting its default changed the config")
        }
    }

    @Test func theKeysThatTravelAreTheOnesSyncCarries() {
        let travelling = Set(ConfigKey.all.filter(\.travels).map(\.name))
        #expect(travelling == Set(SyncSettings.configKeys))
    }

    @Test func anUnknownKeyIsRefusedAlikeByGetAndSet() {
        var config = FocusConfig()
        #expect(throws: FocusError.self) { try config.value(of: "wrok") }
        #expect(throws: FocusError.self) { try config.set("wrok", to: "25m") }
    }
}
