import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Working hours per weekday (`hours.mon = "09:00-17:00"`, `hours.sat = "off"`) and dated days
/// off (`focus config set off 2026-12-24`), honoured by the planner, the agenda and refusals.
/// Sunday 29 November 2026, 20:00 in Berlin.
@Suite struct WorkingHoursTests {
    static let sundayEvening = "2026-11-29T19:00:00Z"

    func world() throws -> TestWorld {
        let world = try TestWorld(now: Self.sundayEvening)
        world.config = TestWorld.roundTheWeek
        return world
    }

    /// Local (Berlin) start and end of the stored planned blocks, `Mon 09:00-09:25`.
    func blocks(_ world: TestWorld) throws -> [String] {
        try world.database.blocks(startingFrom: TestWorld.instant(Self.sundayEvening)).filter { $0.status == .planned }.map { b in
            let day = world.calendar.day(of: b.start)
            return "\(RelativeTime.shortDay(day).prefix(3)) \(world.calendar.timeOfDay(of: b.start))-\(world.calendar.timeOfDay(of: b.end))"
        }
    }

    @Test func aWeekdayWindowIsWhereThatDaysBlocksGo() async throws {
        let world = try world()
        world.config.dayEnd = TimeOfDay(hour: 20, minute: 0)  // no time left on Sunday evening
        try world.config.set("hours.mon", to: "10:00-11:00")
        await world.run("task", "add", "Thesis/Intro", "--estimate", "2h", "--due", "2026-12-01 22:00")
        #expect(try blocks(world) == ["Mon 10:00-10:25", "Mon 10:30-10:55", "Tue 08:00-08:25", "Tue 08:30-08:55", "Tue 09:00-09:20"])
    }

    @Test func daysOffHoldNoBlocksAndTheRefusalCountsOnlyWorkingTime() async throws {
        let world = try world()
        world.config.dayEnd = TimeOfDay(hour: 20, minute: 0)
        try world.config.set("hours.mon", to: "off")
        try world.config.set("off", to: "2026-12-01")
        // Monday off and Tuesday off: nothing before Wednesday.
        let refused = await world.output("task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2026-12-01 22:00")
        #expect(refused.code == 65)
        #expect(refused.err.contains("there is no free time left before then"))
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-12-03 22:00")
        #expect(try blocks(world) == ["Wed 08:00-08:25"])
    }

    /// #41: `focus config` says the defaults a working week has, its help in one column.
    @Test func configListsTheWorkingWeekDefaultsInOneColumn() async throws {
        let world = try TestWorld(now: "2026-12-07T08:00:00Z")
        let lines = await world.output("config").out.split(separator: "\n").map(String.init)
        let lunch = try #require(lines.first { $0.hasPrefix("lunch ") })
        #expect(lunch.contains(" 12:00-13:00  a gap kept free every working day"), "\(lunch)")
        #expect(lines.contains { $0.hasPrefix("max_per_day ") && $0.contains(" 4h ") && $0.hasSuffix("(4h)") })
        #expect(lines.contains { $0.hasPrefix("hours.sat ") && $0.contains(" off ") })
        #expect(lines.contains { $0.hasPrefix("day_start ") && $0.contains(" 09:00 ") })
        let columns = Set(lines.filter { $0.contains("(") }.compactMap { line in
            line.range(of: #"\S+\s+\S+\s+"#, options: .regularExpression).map { line.distance(from: line.startIndex, to: $0.upperBound) }
        })
        #expect(columns.count == 1, "\(columns)")
    }

    /// #41: `config set off -DATE`, the README's way to remove a day off, is a value, not an option.
    @Test func aDayOffIsRemovedWithAMinusAsTheReadmeSays() async throws {
        let world = try TestWorld(now: "2026-12-07T08:00:00Z")
        #expect(await world.run("config", "set", "off", "2026-12-11,2026-12-12") == 0)
        world.config = try ConfigFile.parse(String(contentsOfFile: world.configPath, encoding: .utf8), path: world.configPath)
        let removed = await world.output("config", "set", "off", "-2026-12-11")
        #expect(removed.code == 0, "\(removed.err)")
        #expect(removed.out == "off = 2026-12-12\n")
        world.config = try ConfigFile.parse(String(contentsOfFile: world.configPath, encoding: .utf8), path: world.configPath)
        #expect(await world.output("config", "set", "off", "--", "-2026-12-12").out == "off = none\n")
        let two = await world.output("config", "set", "work", "50", "m")
        #expect(two.code == 64 && two.err.contains("takes one value"), "\(two.err)")
    }

    @Test func configTakesWeekdayHoursAndAddsOrRemovesDaysOff() async throws {
        let world = try world()
        #expect(await world.output("config", "set", "hours.mon", "09:00-17:00").out == "hours.mon = 09:00-17:00\n")
        #expect(await world.output("config", "set", "hours.sat", "off").out == "hours.sat = off\n")
        var config = world.config
        try config.set("off", to: "2026-12-24")
        try config.set("off", to: "2026-12-31")
        #expect(try config.value(of: "off") == "2026-12-24,2026-12-31")
        try config.set("off", to: "-2026-12-24")
        #expect(try config.value(of: "off") == "2026-12-31")
        try config.set("off", to: "none")
        #expect(try config.value(of: "off") == "none")
        let bad = await world.output("config", "set", "hours.tue", "17:00-09:00")
        #expect(bad.code == 64)
        #expect(bad.err.contains("expected working hours like 09:00-17:00 or 9am-5pm (start before end), off, or default"))
        let file = try ConfigFile.parse("hours.mon = \"09:00-17:00\"\nhours.sun = \"off\"\noff = \"2026-12-24\"\n", path: "config.toml")
        #expect(file.workingHours.hours(on: LocalDate(year: 2026, month: 11, day: 30))?.description == "09:00-17:00")
        #expect(file.workingHours.hours(on: LocalDate(year: 2026, month: 11, day: 29)) == nil)
        #expect(file.workingHours.hours(on: LocalDate(year: 2026, month: 12, day: 24)) == nil)
        #expect(file.workingHours.hours(on: LocalDate(year: 2026, month: 12, day: 1))?.description == "09:00-17:00")
    }

    @Test func timesOfDayAsPeopleSayThemAreTakenAndStoredAsHHMM() async throws {
        let world = try world()
        #expect(await world.output("config", "set", "day_start", "9am").out == "day_start = 09:00\n")
        #expect(await world.output("config", "set", "day_end", "9:30pm").out == "day_end = 21:30\n")
        #expect(await world.output("config", "set", "hours.mon", "9am-5pm").out == "hours.mon = 09:00-17:00\n")
        #expect(await world.output("config", "set", "hours.fri", "12pm - midnight").out == "hours.fri = 12:00-24:00\n")
        let text = FileManager.default.contents(atPath: world.configPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(text.contains("09:00") && text.contains("21:30") && text.contains("09:00-17:00") && !text.contains("9am"), "\(text)")
        // A hand-written file may say them too.
        let file = try ConfigFile.parse("day_start = \"8am\"\nhours.tue = \"10-4pm\"\n", path: "config.toml")
        #expect(try file.value(of: "day_start") == "08:00")
        #expect(try file.value(of: "hours.tue") == "10:00-16:00")

        let added = await world.output("task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2026-12-04", "--earliest", "9am")
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out.contains("not before 09:00"), "\(added.out)")
        #expect(await world.run("task", "edit", "Thesis/Intro", "--earliest", "7:30pm") == 0)
        #expect(await world.output("task", "list", "--json").out.contains("\"earliest_time\": \"19:30\""))
        // Ambiguous forms are refused with the forms that work, and nothing changes.
        let refused = await world.output("task", "edit", "Thesis/Intro", "--earliest", "930")
        #expect(refused.code == 64)
        #expect(refused.err.contains("invalid earliest time '930'") && refused.err.contains("9:30pm"), "\(refused.err)")
        #expect(await world.output("task", "list", "--json").out.contains("\"earliest_time\": \"19:30\""))
        #expect(await world.run("config", "set", "hours.tue", "5pm-9am") == 64)
    }

    @Test func theAgendaCountsEachDaysOwnHoursAndSaysWhenADayIsOff() async throws {
        let world = try world()
        try world.config.set("hours.mon", to: "09:00-17:00")
        try world.config.set("hours.tue", to: "off")
        let monday = await world.output("agenda", "2026-11-30")
        #expect(monday.out.hasSuffix("Free in working hours: 8h.\n"))
        let tuesday = await world.output("agenda", "2026-12-01")
        #expect(tuesday.out.hasSuffix("Day off: nothing is planned.\n"))
    }

    @Test func agendaWeekShowsSevenDaysWithTheirFreeTimeAndDueWork() async throws {
        let world = try world()
        try world.config.set("hours.sat", to: "off")
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-12-01")
        let r = await world.output("agenda", "--week")
        #expect(r.code == 0)
        let headings = r.out.split(separator: "\n").filter { $0.hasSuffix(" 2026") }
        #expect(headings == ["Sun 29 Nov 2026", "Mon 30 Nov 2026", "Tue 1 Dec 2026", "Wed 2 Dec 2026", "Thu 3 Dec 2026",
                             "Fri 4 Dec 2026", "Sat 5 Dec 2026"])
        #expect(r.out.contains("  Due end of day: Thesis/Intro  0m / 25m\n"))
        #expect(r.out.contains("Sat 5 Dec 2026\n  Nothing scheduled.\nDay off: nothing is planned.\n"))
        #expect(r.out.split(separator: "\n").allSatisfy { $0.count <= 100 })
        let three = await world.output("agenda", "2026-12-01", "--days", "3", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(three.out.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2026-12-01")
        #expect(object["to"] as? String == "2026-12-03")
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.map { $0["date"] as? String } == ["2026-12-01", "2026-12-02", "2026-12-03"])
        #expect(days.first?["working_hours"] as? String == "08:00-22:00")
        let both = await world.output("agenda", "--week", "--days", "3")
        #expect(both.code == 64)
    }
}

/// `focus plan` over the sample calendar keeps every constraint, read back from its own JSON:
/// no overlap with busy time, inside that weekday's working hours, spans respected, before
/// each due date, after each start date and earliest time.
@Suite struct SamplePlanConstraintTests {
    @Test func thePlanOverTheSampleCalendarKeepsEveryConstraint() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")
        world.config = TestWorld.roundTheWeek
        try world.config.set("hours.fri", to: "09:00-13:00")
        try world.config.set("hours.sat", to: "off")
        try world.config.set("off", to: "2026-11-26")
        #expect(await world.run("calendar", "import", sampleCalendarPath) == 0)
        let work: [(String, [String])] = [
            ("Thesis/Chapter 4", ["--estimate", "6h", "--due", "2026-11-27 17:00", "--span", "50m", "--earliest", "09:00"]),
            ("Teaching/Exam questions", ["--estimate", "3h", "--due", "2026-11-25"]),
            ("Side/Later", ["--estimate", "2h", "--due", "2026-12-04", "--start", "2026-11-30"]),
            ("Side/Evening", ["--estimate", "90m", "--due", "2026-12-02", "--earliest", "18:00", "--span", "30m"]),
        ]
        for (path, flags) in work { #expect(await world.run(["task", "add", path] + flags + ["--force"]) == 0) }
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(await world.output("plan", "--json").out.utf8)) as? [String: Any])
        let busyText = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-12-05", "--json").out
        let busy = try #require(try JSONSerialization.jsonObject(with: Data(busyText.utf8)) as? [[String: Any]]).map {
            (TestWorld.instant($0["start"] as? String ?? ""), TestWorld.instant($0["end"] as? String ?? ""))
        }
        let blocks = try #require(plan["blocks"] as? [[String: Any]]).filter { $0["status"] as? String == "planned" }
        #expect(blocks.count > 10)
        let hours = world.config.workingHours
        let cal = world.calendar
        for b in blocks {
            let path = "\(b["task"] as? String ?? "")/\(b["subtask"] as? String ?? "")"
            let start = TestWorld.instant(b["start"] as? String ?? ""), end = TestWorld.instant(b["end"] as? String ?? "")
            let name = "\(path) \(start)–\(end)"
            let day = cal.day(of: start)
            let window = try #require(hours.hours(on: day), "\(name) lies on a day off")
            #expect(cal.timeOfDay(of: start) >= window.start && (cal.day(of: end) == day ? cal.timeOfDay(of: end) <= window.end : window.end.minutes == 1440),
                    "\(name) outside \(window)")
            #expect(!busy.contains { $0.0 < end && start < $0.1 }, "\(name) overlaps busy time")
            let (_, flags) = try #require(work.first { $0.0 == path })
            func flag(_ f: String) -> String? { flags.firstIndex(of: f).map { flags[$0 + 1] } }
            let span = try flag("--span").map { try DurationParser.seconds($0) } ?? 1500
            #expect(Int(end.timeIntervalSince(start)) <= span, "\(name) longer than its span")
            if let earliest = flag("--earliest") { #expect(cal.timeOfDay(of: start) >= (try DateParser.timeOfDay(earliest)), "\(name) before earliest") }
            if let first = flag("--start") { #expect(day >= (try DateParser.date(first, today: day)), "\(name) before its start date") }
            let due = try DateParser.resolve(DateParser.dateTime(try #require(flag("--due")), today: day), in: cal, endOfDay: true)
            #expect(end <= due, "\(name) after its due date")
        }
    }
}
