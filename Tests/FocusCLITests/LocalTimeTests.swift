import FocusCLI
import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// Local date-times that name no instant or two (DST changes), and a person who travels.
@Suite struct LocalTimeTests {
    static let gap = "2026-03-08 02:30"      // New York springs forward 02:00 → 03:00
    static let overlap = "2026-11-01 01:30"  // New York falls back 02:00 → 01:00

    static func newYork(_ now: String) throws -> TestWorld {
        try TestWorld(now: now, zone: "America/New_York")
    }

    @Test func everyOptionTakingALocalDateTimeSaysHowAGapWasRead() async throws {
        let world = try Self.newYork("2026-03-09T12:00:00Z")
        #expect(await world.run("task", "add", "Taxes") == 0)
        var r = await world.output("log", "add", "Taxes", "--start", Self.gap, "--duration", "25m")
        #expect(r.code == 0)
        #expect(r.err == "focus: 2026-03-08 02:30 does not exist in America/New_York (clocks jump forward); using 2026-03-08T03:30:00-04:00.\n")
        r = await world.output("log", "add", "Taxes", "--start", "2026-03-08 01:40", "--end", Self.gap)
        #expect(r.code == 0)
        #expect(r.err.contains("2026-03-08 02:30 does not exist in America/New_York"))
        r = await world.output("log", "edit", "2", "--end", "2026-03-08 02:45")
        // (It now reaches into session 1, which starts at 03:30: the overlap is said too.)
        #expect(r.err == "focus: 2026-03-08 02:45 does not exist in America/New_York (clocks jump forward); using 2026-03-08T03:45:00-04:00.\nfocus: warning: this overlaps 1 recorded session.\n")
        #expect(await world.run("task", "add", "Taxes/Forms") == 0)
        r = await world.output("task", "edit", "Taxes/Forms", "--due", Self.gap)
        #expect(r.code == 0)
        #expect(r.err.contains("2026-03-08 02:30 does not exist in America/New_York"))
        // The instants stored are the documented ones: the reading moved forward by the gap.
        let log = await world.output("log", "--json", "--last", "3")
        #expect(log.out.contains("\"start\": \"2026-03-08T07:30:00Z\""))
    }

    @Test func everyOptionTakingALocalDateTimeSaysHowAnOverlapWasRead() async throws {
        let world = try Self.newYork("2026-11-02T12:00:00Z")
        #expect(await world.run("task", "add", "Taxes") == 0)
        var r = await world.output("log", "add", "Taxes", "--start", Self.overlap, "--duration", "20m")
        #expect(r.code == 0)
        #expect(r.err == "focus: 2026-11-01 01:30 happens twice in America/New_York (clocks go back); using the first, 2026-11-01T01:30:00-04:00.\n")
        r = await world.output("task", "add", "Taxes/Forms", "--due", Self.overlap)
        #expect(r.err.contains("2026-11-01 01:30 happens twice in America/New_York"))
        // The first of the two: 01:30 EDT is 05:30Z.
        let log = await world.output("log", "--json", "--last", "3")
        #expect(log.out.contains("\"start\": \"2026-11-01T05:30:00Z\""))
        r = await world.output("task", "show", "Taxes/Forms", "--json")
        #expect(r.out.contains("\"due\": \"2026-11-01T05:30:00Z\""))
    }

    @Test func anOrdinaryLocalTimeOrAnInstantWithAnOffsetSaysNothing() async throws {
        let world = try Self.newYork("2026-11-02T12:00:00Z")
        #expect(await world.run("task", "add", "Taxes") == 0)
        var r = await world.output("log", "add", "Taxes", "--start", "2026-11-01 03:30", "--duration", "20m")
        #expect(r.err == "")
        r = await world.output("log", "add", "Taxes", "--start", "2026-11-01T01:30:00-05:00", "--duration", "20m")
        #expect(r.err == "")
    }

    /// Sessions recorded in Berlin, read in New York after a flight: the instants stay as they
    /// were, and days are cut at New York's midnights.
    @Test func travellingKeepsEveryInstantAndRebucketsDays() async throws {
        let world = try TestWorld(now: "2026-11-20T22:00:00Z", zone: "Europe/Berlin")
        #expect(await world.run("task", "add", "Thesis") == 0)
        // 01:00 and 10:00 Berlin on the 20th: 00:00Z and 09:00Z, i.e. 19:00 on the 19th and
        // 04:00 on the 20th in New York.
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-20 01:00", "--duration", "30m") == 0)
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-20 10:00", "--duration", "20m") == 0)
        let before = await world.output("log", "--json", "--last", "3")

        let berlin = await world.output("stats", "--from", "2026-11-19", "--to", "2026-11-20", "--json")
        #expect(berlin.out.contains("{\"date\": \"2026-11-19\", \"focused_seconds\": 0"))
        #expect(berlin.out.contains("{\"date\": \"2026-11-20\", \"focused_seconds\": 3000"))

        let newYork = await world.output("stats", "--from", "2026-11-19", "--to", "2026-11-20", "--json", "--tz", "America/New_York")
        #expect(newYork.out.contains("\"timezone\": \"America/New_York\""))
        #expect(newYork.out.contains("{\"date\": \"2026-11-19\", \"focused_seconds\": 1800"))
        #expect(newYork.out.contains("{\"date\": \"2026-11-20\", \"focused_seconds\": 1200"))

        // Reading in another zone changed nothing stored.
        let after = await world.output("log", "--json", "--last", "3", "--tz", "America/New_York")
        #expect(after.out == before.out)
        #expect(after.out.contains("\"start\": \"2026-11-20T00:00:00Z\""))
        #expect(after.out.contains("\"start\": \"2026-11-20T09:00:00Z\""))
    }
}

@Suite struct ZoneChoiceTests {
    @Test func aTZThatNamesNoZoneIsSaidOnceWithTheZoneUsedInstead() throws {
        var warnings: [String] = []
        let zone = try FocusEnvironment.timeZone(option: nil, environment: ["TZ": "Bogus"], warn: { warnings.append($0) })
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("warning: TZ='Bogus' names no zone in /usr/share/zoneinfo and is not a POSIX TZ rule; using \(zone.identifier).") == true)
        warnings = []
        _ = try FocusEnvironment.timeZone(option: nil, environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"], warn: { warnings.append($0) })
        #expect(warnings.isEmpty)
    }

    @Test func aMissingZoneDatabaseIsNamedAsTheProblem() {
        #expect(throws: FocusError.unavailable("the zone database /nonexistent is missing, so the time zone 'Europe/Berlin' cannot be read. Install it (Debian: apt-get install tzdata), or unset TZDIR.")) {
            try FocusEnvironment.timeZone(option: "Europe/Berlin", environment: ["TZDIR": "/nonexistent"])
        }
        #expect(throws: FocusError.invalidValue(what: "time zone", value: "Mars/Olympus", expected: "an IANA zone name like Europe/Berlin or America/New_York")) {
            try FocusEnvironment.timeZone(option: "Mars/Olympus", environment: [:])
        }
    }
}
