import FocusCore
import Testing

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("25m", 1500), ("1h30m", 5400), ("1h 30m", 5400), ("90s", 90), ("1.5h", 5400), ("25", 1500),
        ("0.5", 30), ("2h", 7200), ("45 min", 2700), ("1H", 3600), ("1h0m30s", 3630), (" 10m ", 600), ("0", 0),
    ])
    func acceptsTheWaysPeopleWriteDurations(text: String, seconds: Int) throws {
        #expect(try DurationParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "abc", "25x", "-5m", "m", "1..5h", "30m1h", "1h1h", "5m3", "1e3", "99999999999", "10000h", "h30"])
    func rejectsMalformedDurationsWithTheValueInTheMessage(text: String) {
        #expect(throws: FocusError.self) { try DurationParser.seconds(text) }
        do {
            _ = try DurationParser.seconds(text, what: "duration")
        } catch {
            #expect(error.description.contains("'\(text)'"))
            #expect(error.exitCode == 64)
        }
    }

    @Test(arguments: [(0, "0m"), (42, "42s"), (60, "1m"), (1500, "25m"), (5400, "1h 30m"), (7200, "2h"), (89, "1m"), (91, "2m")])
    func formatsDurationsForPeople(seconds: Int, text: String) {
        #expect(DurationParser.format(seconds) == text)
    }

    @Test(arguments: [(0, "0:00"), (59, "0:59"), (1500, "25:00"), (3725, "1:02:05"), (-3, "0:00")])
    func formatsTheCountdownClockFace(seconds: Int, text: String) {
        #expect(DurationParser.clock(seconds) == text)
    }
}

@Suite struct QuotedCommandTests {
    @Test(arguments: [("Thesis", "Thesis"), ("Thesis/Chapter 2", "\"Thesis/Chapter 2\""), ("Bob's talk", "\"Bob's talk\""),
                      ("say \"hi\" $now", "'say \"hi\" $now'"), ("it's $5", "'it'\\''s $5'")])
    func suggestedCommandsQuoteNamesForTheShell(name: String, quoted: String) {
        #expect(Quoted.shell(name) == quoted)
        #expect(FocusError.hasHistory(path: name, sessions: 2).description.contains("focus task rm \(quoted) --force"))
    }
}
