import FocusCalendar
import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage

/// `data/sample-calendar.ics` at the package root.
let sampleCalendarPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("data/sample-calendar.ics").path

/// Writes `text` to a fresh temporary file and returns its path.
func temporaryFile(_ name: String, _ text: String) throws -> String {
    let dir = NSTemporaryDirectory() + "focus-cli-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let path = dir + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func oneEventCalendar(_ summary: String, _ start: String, _ end: String, name: String? = nil) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus tests//EN"]
    if let name { lines.append("X-WR-CALNAME:\(name)") }
    lines += ["BEGIN:VEVENT", "UID:\(summary)@test", "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(summary)", "END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
}

@Suite struct CalendarCommandTests {
    @Test func importStoresTheCalendarUnderItsOwnNameAndListsIt() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let r = await world.output("calendar", "import", sampleCalendarPath)
        #expect(r.code == 0)
        #expect(r.out == "Imported calendar Classes: 7 events, 362 busy times stored from 2026-11-08 to 2027-05-21.\n")
        let list = await world.output("calendar", "list", "--json")
        #expect(list.out == """
            [{"name": "Classes", "source": "\(sampleCalendarPath)", "events": 7, "imported_at": "2026-11-22T09:00:00Z", \
            "busy_times": 362, "timezone": "Europe/Berlin", "kind": "file"}]

            """)
        let text = await world.output("calendar", "list")
        #expect(text.out == "Classes  7 events  imported Sun 22 Nov 10:00  \(sampleCalendarPath)\n")
    }

    /// "1 event" is shorter than "7 events": the columns after it stay in line.
    @Test func listKeepsItsColumnsInLineForOneEvent() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", sampleCalendarPath)
        let one = try temporaryFile("gym.ics", oneEventCalendar("Gym", "20261124T170000Z", "20261124T180000Z"))
        await world.run("calendar", "import", one, "--name", "Gym")
        let text = await world.output("calendar", "list")
        let lines = text.out.split(separator: "\n")
        #expect(lines.count == 2, "\(text.out)")
        let columns = lines.map { $0.firstRange(of: "imported")?.lowerBound.utf16Offset(in: $0) }
        #expect(columns[0] != nil && columns[0] == columns[1], "\(text.out)")
        #expect(text.out.contains("Gym      1 event   imported"), "\(text.out)")
    }

    @Test func busyJSONForTheSampleCalendarIsExactlyTheContractsShape() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", sampleCalendarPath)
        let expected = """
            [{"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T09:30:00Z", "summary": "Math 101", "calendar": "Classes"}, \
            {"start": "2026-11-23T11:00:00Z", "end": "2026-11-23T12:00:00Z", "summary": "Lunch", "calendar": "Classes"}]

            """
        let r = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json")
        #expect(r.code == 0)
        #expect(r.out == expected)
        // Another zone: the same instants, expanded from the stored file.
        let ny = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json", "--tz", "America/New_York")
        #expect(ny.out == expected)
    }

    @Test func busyTimeBeyondTheStoredHorizonIsExpandedFromTheStoredFile() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", sampleCalendarPath)
        let r = await world.output("calendar", "busy", "--from", "2028-03-08", "--to", "2028-03-08")
        #expect(r.out == """
            Wed 8 Mar 2028
              09:00–10:30  Math 101 · Classes
              12:00–13:00  Lunch · Classes
              14:00–15:00  Thesis supervisor meeting · Classes

            """)
    }

    @Test func aMalformedFileIsRejectedWithItsLineAndNothingIsStored() async throws {
        let world = try TestWorld()
        world.config = TestWorld.roundTheWeek
        let path = try temporaryFile("bad.ics", """
            BEGIN:VCALENDAR
            VERSION:2.0
            BEGIN:VEVENT
            UID:ok@test
            DTSTART:20261123T080000Z
            DTEND:20261123T090000Z
            SUMMARY:Fine
            END:VEVENT
            BEGIN:VEVENT
            UID:bad@test
            DTSTART:20261323T080000Z
            SUMMARY:Month thirteen
            END:VEVENT
            END:VCALENDAR

            """)
        // --strict: all or nothing.
        let strict = await world.output("calendar", "import", path, "--strict")
        #expect(strict.code == 65)
        #expect(strict.err.hasPrefix("focus: error: \(path):11: "))
        #expect(strict.out.isEmpty)
        #expect(try world.database.calendars().isEmpty)
        // By default the broken event is dropped, with one warning naming it, and the rest imported.
        let r = await world.output("calendar", "import", path)
        #expect(r.code == 0)
        #expect(r.err == "focus: warning: \(path):11: dropped the event 'Month thirteen' (UID bad@test): DTSTART value '20261323T080000Z' "
            + "is not a valid date or date-time (expected e.g. 20261123, 20261123T080000Z or 20261123T090000)\n")
        #expect(r.out.hasPrefix("Imported calendar bad: 1 event, 1 busy time stored"))
    }

    @Test func aFileWhoseEveryEventIsBrokenIsRefused() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let path = try temporaryFile("allbad.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:2026-11-23\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let r = await world.output("calendar", "import", path)
        #expect(r.code == 65)
        #expect(r.err.contains("no event could be read (1 dropped)"))
        #expect(try world.database.calendars().isEmpty)
    }

    @Test func reimportingANameReplacesThatCalendar() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let first = try temporaryFile("work.ics", oneEventCalendar("Standup", "20261123T080000Z", "20261123T081500Z"))
        let second = try temporaryFile("other.ics", oneEventCalendar("Review", "20261123T100000Z", "20261123T110000Z", name: "Ignored"))
        #expect(await world.output("calendar", "import", first).out.hasPrefix("Imported calendar work: 1 event, 1 busy time stored"))
        let again = await world.output("calendar", "import", second, "--name", "WORK")
        #expect(again.out.hasPrefix("Replaced calendar WORK: 1 event, 1 busy time stored"))
        let busy = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json")
        #expect(busy.out == "[{\"start\": \"2026-11-23T10:00:00Z\", \"end\": \"2026-11-23T11:00:00Z\", \"summary\": \"Review\", \"calendar\": \"WORK\"}]\n")
        #expect(try world.database.calendars().map(\.name) == ["WORK"])
    }

    @Test func focusOwnPublishedEventsAreNotReadBackAsBusyTime() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus tests//EN",
            "BEGIN:VEVENT", "UID:standup@example.com", "DTSTART:20261123T080000Z", "DTEND:20261123T081500Z", "SUMMARY:Standup", "END:VEVENT",
            "BEGIN:VEVENT", "UID:block-7@caldav.example.com", "X-FOCUS-BLOCK:7", "DTSTART:20261123T090000Z", "DTEND:20261123T100000Z",
            "SUMMARY:Thesis/Intro", "END:VEVENT",
            "BEGIN:VEVENT", "UID:session-thesis-intro-20261123T100000Z@focus", "DTSTART:20261123T100000Z", "DTEND:20261123T102500Z",
            "SUMMARY:✓ Thesis/Intro", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        let path = try temporaryFile("shared.ics", text)
        let r = await world.output("calendar", "import", path)
        #expect(r.err == "")
        #expect(r.out.hasPrefix("Imported calendar shared: 1 event, 1 busy time stored"))
        let busy = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json")
        #expect(busy.out == "[{\"start\": \"2026-11-23T08:00:00Z\", \"end\": \"2026-11-23T08:15:00Z\", \"summary\": \"Standup\", \"calendar\": \"shared\"}]\n")
        // Expanded again from the stored file (another zone), they stay out.
        let ny = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json", "--tz", "America/New_York")
        #expect(ny.out == busy.out)
    }

    @Test func removingACalendarFreesItsTime() async throws {
        let world = try TestWorld()
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", sampleCalendarPath)
        #expect(await world.output("calendar", "rm", "classes").out == "Removed calendar Classes.\n")
        #expect(await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json").out == "[]\n")
        let missing = await world.output("calendar", "rm", "classes")
        #expect(missing.code == 64)
        #expect(missing.err == "focus: error: no calendar is named 'classes'. Run `focus calendar list` to see them.\n")
    }

    @Test func exportWritesPlannedBlocksWhoseUIDsSurviveARePlan() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-23")
        let path = try temporaryFile("plan.ics", "")
        #expect(await world.output("calendar", "export", path).out == "Wrote 2 planned blocks to \(path).\n")
        let first = try ICSReader.parse(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(first.events.map(\.uid) == ["2-20261122-1@focus", "2-20261122-2@focus"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("DTSTART:20261122T090000Z") && text.contains("DTSTART:20261122T093000Z"))
        // focus's own blocks, read back (a calendar app's feed of an imported export), are not busy time.
        #expect(first.busyOccurrences(from: world.now, to: world.now + 86_400, local: world.calendar).isEmpty)
        // More work: the same blocks keep their UIDs, the new one gets the next.
        await world.run("task", "edit", "Thesis/Intro", "--estimate", "75m")
        await world.run("calendar", "export", path)
        let second = try ICSReader.parse(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(second.events.map(\.uid) == ["2-20261122-1@focus", "2-20261122-2@focus", "2-20261122-3@focus"])
        #expect(second.events.map(\.summary) == ["Thesis/Intro", "Thesis/Intro", "Thesis/Intro"])
    }
}

@Suite struct CalendarImportLimitTests {
    @Test func aCalendarFileOverTheCapIsRefusedWithoutReadingItAll() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        let dir = try TempDir()
        let path = dir.path + "/huge.ics"
        // A sparse 100 MB file: costs no disk, reads as zeros.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("BEGIN:VCALENDAR\r\n".utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let r = await world.output("calendar", "import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path): the file is larger than 32 MB, the most focus reads from one calendar. Export a shorter range of the calendar, or split it into several files\n")
        #expect(try CLIFixtures.count(world, "calendar") == 0)
    }
}

/// `TZ='CET-1CEST,M3.5.0,M10.5.0/3'` (a POSIX rule, no zone name): a calendar imported in
/// January is read with the rule's summer offset for July, all-day and floating events alike.
@Suite struct PosixZoneCalendarCommandTests {
    @Test func summerEventsImportedInWinterUseTheSummerOffset() async throws {
        let world = try TestWorld(now: "2026-01-15T08:00:00Z", zone: "CET-1CEST,M3.5.0,M10.5.0/3")
        world.config = TestWorld.roundTheWeek
        let file = try temporaryFile("summer.ics", """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//focus tests//EN\r
            BEGIN:VEVENT\r
            UID:allday@test\r
            DTSTART;VALUE=DATE:20260710\r
            DTEND;VALUE=DATE:20260711\r
            SUMMARY:Holiday\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:floating@test\r
            DTSTART:20260710T090000\r
            DTEND:20260710T100000\r
            SUMMARY:Floating\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        let imported = await world.output("calendar", "import", file, "--name", "Summer")
        #expect(imported.code == 0)
        let r = await world.output("calendar", "busy", "--from", "2026-07-10", "--to", "2026-07-10", "--json")
        #expect(r.out == """
            [{"start": "2026-07-09T22:00:00Z", "end": "2026-07-10T22:00:00Z", "summary": "Holiday", "calendar": "Summer"}, \
            {"start": "2026-07-10T07:00:00Z", "end": "2026-07-10T08:00:00Z", "summary": "Floating", "calendar": "Summer"}]

            """)
    }
}

/// Zero-length events and events across midnight, as `calendar busy`, `agenda` and `plan` show them.
@Suite struct CalendarMomentsAndNightsTests {
    static let file = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VEVENT\r
        UID:cut@test\r
        DTSTART:20261130T110000Z\r
        SUMMARY:Release branch cut\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:night@test\r
        DTSTART:20261201T220000Z\r
        DTEND:20261202T003000Z\r
        SUMMARY:Night shift\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aMomentIsNotBusyButTheAgendaMarksIt() async throws {
        let world = try TestWorld(now: "2026-11-29T19:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", try temporaryFile("moments.ics", Self.file), "--name", "Work")
        let busy = await world.output("calendar", "busy", "--from", "2026-11-30", "--to", "2026-11-30", "--json")
        #expect(busy.out == "[]\n")
        let agenda = await world.output("agenda", "2026-11-30")
        #expect(agenda.out.contains("  12:00 · Release branch cut · Work\n"))
        // A block may sit across the moment: it holds no time.
        await world.run("task", "add", "Thesis/Intro", "--estimate", "14h", "--due", "2026-11-30 22:00")
        #expect(try world.database.savedRisks().isEmpty)
    }

    @Test func anEventAcrossMidnightShowsOnBothDaysByWhenItCoversThem() async throws {
        let world = try TestWorld(now: "2026-11-29T19:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("calendar", "import", try temporaryFile("nights.ics", Self.file), "--name", "Work")
        await world.run("log", "add", "Thesis/Intro", "--start", "2026-11-29 19:00", "--duration", "10m")
        let tuesday = await world.output("agenda", "2026-12-01")
        #expect(tuesday.out.contains("  23:00–(01:30)  Night shift · Work\n"))
        let wednesday = await world.output("agenda", "2026-12-02")
        #expect(wednesday.out.hasPrefix("Wed 2 Dec 2026\n  (23:00)–01:30  Night shift · Work\n"))
    }
}
