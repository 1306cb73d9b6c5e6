import FocusCalendar
import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// `focus export --format ics`: worked sessions as calendar events.
@Suite struct ExportICSCommandTests {
    typealias F = CLIFixtures

    static let history = """
        {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-20T09:00:00+01:00", "end": "2026-11-20T09:25:00+01:00", "status": "completed"}
        {"task": "Thesis", "subtask": "Chapter 2", "start": "2026-11-21T23:30:00+01:00", "end": "2026-11-22T00:20:00+01:00", "status": "interrupted", "focused_seconds": 2400, "note": "late; tired, stopped\\nback tomorrow \\\\ maybe"}
        {"task": "Reading, mostly", "start": "2026-11-22T08:00:00Z", "end": "2026-11-22T08:50:00Z", "status": "completed"}

        """

    /// A session's figures to the second where minutes would round the difference away (90 s
    /// of 120 read "Focused 2 min of 2 planned"); an open session has no planned length.
    @Test func shortAndOpenSessionsSayTheirTimeAsItWas() async throws {
        let world = try TestWorld()
        try F.seed(world, """
            {"task": "Quick", "start": "2026-11-23T08:00:00Z", "end": "2026-11-23T08:02:00Z", "status": "interrupted", "focused_seconds": 90}
            {"task": "Quick", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T09:45:00Z", "status": "open"}

            """)
        let r = await world.output("export", "--format", "ics")
        let doc = try ICSReader.parse(r.out)
        #expect(doc.events.map(\.description) == ["Focused 1 min 30 s of 2 min planned.", "Focused 45 min."])
    }

    @Test func sessionsReadBackAsTheSameEvents() async throws {
        let world = try TestWorld()
        try F.seed(world, Self.history)
        let r = await world.output("export", "--format", "ics")
        #expect(r.code == 0)
        #expect(r.err == "")
        let doc = try ICSReader.parse(r.out)
        #expect(doc.name == "focus sessions")
        #expect(doc.events.map(\.summary) == ["✓ Thesis/Chapter 2", "✗ Thesis/Chapter 2 (interrupted)", "✓ Reading, mostly"])
        #expect(doc.events.map(\.description) == [
            "Focused 25 min.", "Focused 40 min of 50 min planned.\nlate; tired, stopped\nback tomorrow \\ maybe", "Focused 50 min.",
        ])
        #expect(doc.events.map(\.start.description) == ["20261120T080000Z", "20261121T223000Z", "20261122T080000Z"])
        #expect(doc.events.map { $0.end?.description } == ["20261120T082500Z", "20261121T232000Z", "20261122T085000Z"])
        // They are focus's own sessions: read back from a calendar, they are never busy time.
        #expect(doc.events.allSatisfy { $0.publishedByFocus })
        let occurrences = doc.busyOccurrences(from: TestWorld.instant("2026-11-01T00:00:00Z"), to: TestWorld.instant("2026-12-01T00:00:00Z"),
                                              local: LocalCalendar(zone: .utc))
        #expect(occurrences.isEmpty)
        // RFC 5545 on the wire: CRLF only, lines of at most 75 octets, times in UTC.
        let lines = r.out.components(separatedBy: "\r\n")
        #expect(lines.last == "")
        #expect(!lines.contains { $0.contains("\n") || $0.utf8.count > 75 })
        #expect(lines.contains("DTSTART:20261121T223000Z"))
        #expect(lines.contains("SUMMARY:✓ Reading\\, mostly"))
    }

    @Test func uidsComeFromTheSessionAndStayTheSameAcrossExports() async throws {
        let world = try TestWorld()
        try F.seed(world, Self.history)
        let first = try ICSReader.parse(await world.output("export", "--format", "ics").out).events.map(\.uid)
        #expect(Set(first).count == 3)
        #expect(first.allSatisfy { $0.hasPrefix("session-") && $0.hasSuffix("@focus") })
        // Later, with a new session logged before the others: the old ones keep their UIDs.
        world.now = TestWorld.instant("2026-11-25T09:00:00Z")
        #expect(await world.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-19 09:00", "--duration", "25m") == 0)
        let second = try ICSReader.parse(await world.output("export", "--format", "ics").out).events.map(\.uid)
        #expect(second.count == 4)
        #expect(Array(second.dropFirst()) == first)
    }

    @Test func fromToAndAnIcsFileNameChooseWhatAndHow() async throws {
        let world = try TestWorld()
        try F.seed(world, Self.history)
        let dir = try TempDir()
        let r = await world.output("export", "--from", "2026-11-21", "--to", "2026-11-21", "--output", dir.path + "/week.ics")
        #expect(r.out == "Exported 1 session to \(dir.path)/week.ics.\n")
        let doc = try ICSReader.parse(dir.read("week.ics"))
        #expect(doc.events.map(\.summary) == ["✗ Thesis/Chapter 2 (interrupted)"])
        let empty = await world.output("export", "--format", "ics", "--from", "2026-10-01", "--to", "2026-10-31")
        #expect(try ICSReader.parse(empty.out).events.isEmpty)
    }
}
