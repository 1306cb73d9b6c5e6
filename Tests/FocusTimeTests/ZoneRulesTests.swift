import FocusTime
import Foundation
import Testing

/// focus reads the zone database itself (TZif files and their POSIX footers); these hold it to
/// Foundation's answers, and to the rules of the formats.
@Suite struct ZoneRulesTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Australia/Sydney", "Australia/Lord_Howe",
        "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns", "Europe/Dublin",
        "Europe/London", "Asia/Tokyo", "America/Santiago", "Pacific/Auckland", "UTC",
    ]

    @Test(arguments: zones)
    func offsetsAgreeWithFoundationFrom1970To2100(_ name: String) throws {
        let ours = try #require(ZoneRules.named(name))
        let theirs = try #require(TimeZone(identifier: name))
        // Every 7 hours 13 minutes: lands on every hour of the day and every day of the week.
        var t: Int64 = 0
        let step: Int64 = 7 * 3600 + 13 * 60
        var mismatches: [String] = []
        while t < 4_102_444_800 {  // 2100-01-01
            let expected = theirs.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t)))
            let got = ours.offset(atUTC: t)
            if got != expected, mismatches.count < 5 { mismatches.append("\(t): \(got) vs \(expected)") }
            t += step
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches)")
    }

    @Test func berlinChangesAtOneUTCOnTheLastSundays() throws {
        let berlin = try #require(ZoneRules.named("Europe/Berlin"))
        // 2026-03-29 01:00:00Z: CET → CEST; 2026-10-25 01:00:00Z: CEST → CET.
        #expect(berlin.offset(atUTC: 1_774_746_000 - 1) == 3600)
        #expect(berlin.offset(atUTC: 1_774_746_000) == 7200)
        #expect(berlin.offset(atUTC: 1_792_890_000 - 1) == 7200)
        #expect(berlin.offset(atUTC: 1_792_890_000) == 3600)
        // Far past the file's last transition the footer rule goes on.
        #expect(berlin.offset(atUTC: 7_258_118_400) == 3600)  // 2200-01-01
    }

    @Test(arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", Int64(1_773_000_000), -14_400),  // 2026-03-08T20:00Z: EDT
        ("EST5EDT,M3.2.0,M11.1.0", Int64(1_767_225_600), -18_000),  // 2026-01-01: EST
        ("CET-1CEST,M3.5.0,M10.5.0/3", Int64(1_781_000_000), 7200),  // June: CEST
        ("<+0330>-3:30", Int64(1_781_000_000), 12_600),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", Int64(1_767_225_600), 39_600),  // January: AEDT (south)
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", Int64(1_781_000_000), 36_000),  // June: AEST
        ("IST-1GMT0,M10.5.0,M3.5.0/1", Int64(1_767_225_600), 0),  // Dublin's negative DST: winter GMT
        ("IST-1GMT0,M10.5.0,M3.5.0/1", Int64(1_781_000_000), 3600),  // summer IST
        ("UTC0", Int64(1_781_000_000), 0),
    ])
    func posixRulesGiveTheirOffsets(rule: String, t: Int64, offset: Int) throws {
        let zone = try #require(ZoneRules.fromTZ(rule))
        #expect(zone.offset(atUTC: t) == offset)
    }

    @Test(arguments: ["", "Nowhere/Atlantis", "../../etc/passwd", "/etc/passwd", "Europe/", "Europe//Berlin", "E", "CET-1CEST,M13.5.0,M10.5.0"])
    func namesOutsideTheDatabaseAreNotZones(_ text: String) {
        #expect(ZoneRules.named(text) == nil)
        if text != "/etc/passwd" && text != "E" {
            #expect(ZoneRules.fromTZ(text) == nil)
        }
    }

    @Test func tzValuesNameZonesTheWaysLibcReadsThem() throws {
        #expect(ZoneRules.fromTZ(":Europe/Berlin")?.identifier == "Europe/Berlin")
        #expect(ZoneRules.fromTZ("/usr/share/zoneinfo/America/New_York")?.identifier == "America/New_York")
        let posix = try #require(ZoneRules.fromTZ("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(posix.identifier == "CET-1CEST,M3.5.0,M10.5.0/3")
    }

    @Test func aFileThatIsNotTZifIsRefused() {
        #expect(ZoneRules.parse(Data("TZif".utf8), identifier: "x") == nil)
        #expect(ZoneRules.parse(Data(repeating: 0x41, count: 200), identifier: "x") == nil)
        // A valid header whose counts run past the end of the file.
        var bytes = Array("TZif2".utf8) + Array(repeating: 0, count: 15)
        bytes += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0, 4]
        #expect(ZoneRules.parse(Data(bytes), identifier: "x") == nil)
    }

    @Test func localCalendarResolvesGapsForwardAndOverlapsToTheFirst() throws {
        let cal = LocalCalendar(zone: try #require(ZoneRules.named("America/New_York")))
        // 2026-03-08 02:30 does not exist: read with EST (-5) it is 07:30Z, which is 03:30 EDT.
        let gap = cal.instant(LocalDate(year: 2026, month: 3, day: 8), TimeOfDay(minutes: 150))
        #expect(gap == utcInstant(2026, 3, 8, 7, 30))
        // 2026-11-01 01:30 happens twice: the first is EDT (-4), 05:30Z.
        let overlap = cal.instant(LocalDate(year: 2026, month: 11, day: 1), TimeOfDay(minutes: 90))
        #expect(overlap == utcInstant(2026, 11, 1, 5, 30))
        #expect(cal.ambiguity(LocalDate(year: 2026, month: 11, day: 1), TimeOfDay(minutes: 90)) == .repeated(firstOf: overlap))
        // Days are 23 and 25 hours long.
        let march8 = cal.startOfDay(LocalDate(year: 2026, month: 3, day: 8))
        let march9 = cal.startOfDay(LocalDate(year: 2026, month: 3, day: 9))
        #expect(march9.timeIntervalSince(march8) == 23 * 3600)
    }
}

/// An instant from UTC fields, by the civil arithmetic under test elsewhere.
func utcInstant(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Date {
    Date(timeIntervalSince1970: Double(CivilCalendar.wall(year: y, month: m, day: d, hour: h, minute: min)))
}
