import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

/// Small things a newcomer trips over (issue 25), in-process.
@Suite struct NewcomerCommandTests {
    /// `#9` and `#10` on one day: the times after them stay in one column.
    @Test func logKeepsItsTimesInOneColumnWhateverTheIdWidth() async throws {
        let world = try TestWorld(now: "2026-11-22T20:00:00Z")
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Thesis") == 0)
        for hour in 8...18 {
            let start = "2026-11-22 \(hour < 10 ? "0" : "")\(hour):00"
            #expect(await world.run("log", "add", "Thesis", "--start", start, "--duration", "25m") == 0)
        }
        let r = await world.output("log", "--last", "1")
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").filter { $0.hasPrefix("  #") }
        #expect(lines.count == 11, "\(r.out)")
        let ids = Set(lines.map { $0.split(separator: " ").first.map(\.count) ?? 0 })
        #expect(ids.count == 2, "ids of one and two digits: \(r.out)")
        let columns = Set(lines.map { line in line.firstRange(of: "–")?.lowerBound.utf16Offset(in: line) ?? -1 })
        #expect(columns.count == 1, "\(r.out)")
    }

    /// `focus start` with no path and nothing left today suggested the README's sample name: it
    /// names the next planned block and the last work, each with the line that starts it.
    @Test func startWithNothingLeftTodaySuggestsTheNextBlockAndTheLastWork() async throws {
        let world = try TestWorld(now: "2026-11-23T21:30:00Z")
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Side/Reading") == 0)
        #expect(await world.run("log", "add", "Side/Reading", "--start", "2026-11-23 18:00", "--duration", "25m") == 0)
        #expect(await world.run("task", "add", "Thesis/Chapter 4", "--estimate", "1h", "--due", "2026-11-27") == 0)
        let r = await world.output("start")
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: nothing is planned for the rest of today. Start the next planned block (Tue 24 Nov 08:00) with `focus start "), "\(r.err)")
        #expect(r.err.contains("Thesis/Chapter 4"), "\(r.err)")
        #expect(r.err.contains(", or the last work, Side/Reading, with `focus start "), "\(r.err)")
        #expect(!r.err.contains("Thesis/Chapter 2"), "\(r.err)")
    }

    /// The agenda showed blocks that passed unworked as planned (or missed) until some write
    /// re-planned: it re-plans first, so their work is placed again from now.
    @Test func theAgendaReplansFirstWhenBlocksHavePassedUnworked() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Thesis/Chapter 4", "--estimate", "50m", "--due", "2026-11-27") == 0)
        let morning = try world.database.blocks(startingFrom: world.now)
        #expect(morning.count == 2 && morning.allSatisfy { $0.status == .planned })
        let later = try #require(ISO8601DateFormatter().date(from: "2026-11-23T09:00:00Z"))
        world.now = later
        let agenda = await world.output("agenda")
        #expect(agenda.code == 0, "\(agenda.err)")
        let all = try world.database.blocks(startingFrom: later.addingTimeInterval(-86_400))
        #expect(all.filter { $0.status == .missed }.count == 2, "\(all)")
        let planned = all.filter { $0.status == .planned }
        #expect(planned.count == 2 && planned.allSatisfy { $0.start >= later }, "\(all)")
        #expect(agenda.out.contains("missed"), "\(agenda.out)")
        // What the agenda shows is the new plan: its planned lines are after 10:00.
        let plannedLines = agenda.out.split(separator: "\n").filter { $0.contains("  planned  block ") }
        #expect(plannedLines.count == 2, "\(agenda.out)")
        for line in plannedLines {
            #expect(String(line.dropFirst(2).prefix(5)) >= "10:00", "\(line)")
        }
    }

    /// `#9` at the end of a plan line read as task 9: it is `block 9`.
    @Test func planLinesNameTheirBlockSoItIsNotReadAsAPath() async throws {
        let world = try TestWorld(now: "2026-11-23T06:30:00Z")
        world.config = TestWorld.roundTheWeek
        #expect(await world.run("task", "add", "Thesis/Chapter 4", "--estimate", "25m", "--due", "2026-11-27") == 0)
        let plan = await world.output("plan")
        let line = try #require(plan.out.split(separator: "\n").first { $0.contains("Thesis/Chapter 4") })
        let id = try #require(try world.database.blocks(startingFrom: world.now).first?.id)
        #expect(line.hasSuffix("planned  block \(id)"), "\(line)")
        #expect(!plan.out.contains("#"), "\(plan.out)")
    }
}
