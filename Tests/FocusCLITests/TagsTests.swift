import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing
import ArgumentParser

/// Tags on sessions (issue #30, README "Tags"): given on the command line, filtered on, counted
/// in stats, carried by export and import, read from Timewarrior and Watson, and synced.
@Suite struct TagsTests {
    static func logs(_ world: TestWorld, _ extra: String...) async throws -> [[String: Any]] {
        let r = await world.output(["log", "--json", "--last", "30"] + extra)
        #expect(r.code == 0, "\(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
    }

    static func tags(_ log: [String: Any]?) -> [String] { log?["tags"] as? [String] ?? ["<none>"] }

    /// Two sessions on 21 November (Berlin): A tagged Deep and reading, B untagged.
    static func seeded() async throws -> TestWorld {
        let world = try TestWorld()
        for task in ["A", "B", "C"] { #expect(await world.run("task", "add", task) == 0) }
        #expect(await world.run("log", "add", "A", "--start", "2026-11-21 09:00", "--duration", "25m",
                                "--tag", "reading", "--tag", " Deep ") == 0)
        #expect(await world.run("log", "add", "B", "--start", "2026-11-21 10:00", "--duration", "50m") == 0)
        return world
    }

    @Test func logAddFilesTheSessionUnderItsTagsSortedAndShownInTheListing() async throws {
        let world = try await Self.seeded()
        let logs = try await Self.logs(world)
        #expect(logs.count == 2)
        #expect(Self.tags(logs.first { $0["task"] as? String == "A" }) == ["Deep", "reading"])
        #expect(Self.tags(logs.first { $0["task"] as? String == "B" }) == [])
        let listing = await world.output("log", "--last", "30").out
        #expect(listing.contains("A  +Deep +reading"), "\(listing)")
    }

    @Test func aTagIsOneTagWhateverItsCaseAndKeepsItsFirstSpelling() async throws {
        let world = try await Self.seeded()
        #expect(await world.run("log", "add", "C", "--start", "2026-11-21 12:00", "--duration", "10m", "--tag", "DEEP", "--tag", "deep") == 0)
        let logs = try await Self.logs(world)
        #expect(Self.tags(logs.first { $0["task"] as? String == "C" }) == ["Deep"])
    }

    @Test(arguments: ["", "   ", "a;b", String(repeating: "x", count: 41), "bell\u{07}", "two\nlines"])
    func aBadTagNameIsRefusedWithExit64AndNothingIsRecorded(_ name: String) async throws {
        let world = try TestWorld()
        #expect(await world.run("task", "add", "A") == 0)
        let r = await world.output("log", "add", "A", "--start", "2026-11-21 09:00", "--duration", "25m", "--tag", name)
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("focus: error: invalid tag"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1)
        #expect(try await Self.logs(world).isEmpty)
    }

    @Test func logEditAddsWithTagAndRemovesWithUntag() async throws {
        let world = try await Self.seeded()
        let logs = try await Self.logs(world)
        let id = try #require(logs.first { $0["task"] as? String == "A" }?["id"] as? Int)
        let r = await world.output("log", "edit", String(id), "--tag", "focus-time", "--untag", "DEEP")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("+focus-time +reading"), "\(r.out)")
        let after = try await Self.logs(world)
        #expect(Self.tags(after.first { $0["task"] as? String == "A" }) == ["focus-time", "reading"])
        // An edit of another field keeps the tags.
        #expect(await world.run("log", "edit", String(id), "--note", "kept") == 0)
        #expect(Self.tags(try await Self.logs(world).first { $0["task"] as? String == "A" }) == ["focus-time", "reading"])
    }

    @Test func logTagListsOnlyTheTaggedSessions() async throws {
        let world = try await Self.seeded()
        let tagged = try await Self.logs(world, "--tag", "deep")
        #expect(tagged.map { $0["task"] as? String } == ["A"])
        let none = await world.output("log", "--tag", "nothing")
        #expect(none.code == 0)
        #expect(none.out.contains("No sessions tagged 'nothing'"), "\(none.out)")
    }

    @Test func statsCountsEachTagAndStatsTagKeepsOnlyItsSessions() async throws {
        let world = try await Self.seeded()
        #expect(await world.run("log", "add", "B", "--start", "2026-11-21 14:00", "--duration", "30m", "--tag", "deep", "--interrupted") == 0)
        let r = await world.output("stats", "--last", "7", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let tags = try #require(json["tags"] as? [[String: Any]])
        #expect(tags.map { $0["tag"] as? String } == ["Deep", "reading"])
        #expect(tags.map { $0["focused_seconds"] as? Int } == [3300, 1500])
        #expect(tags.map { $0["completed"] as? Int } == [1, 1])
        #expect(tags.map { $0["interrupted"] as? Int } == [1, 0])
        // The contract's figures are those of every session still.
        #expect((json["totals"] as? [String: Any])?["focused_seconds"] as? Int == 6300)

        let only = await world.output("stats", "--last", "7", "--json", "--tag", "DEEP")
        let filtered = try #require(try JSONSerialization.jsonObject(with: Data(only.out.utf8)) as? [String: Any])
        #expect((filtered["totals"] as? [String: Any])?["focused_seconds"] as? Int == 3300)
        #expect((filtered["tasks"] as? [[String: Any]])?.map { $0["task"] as? String } == ["B", "A"])
        #expect(filtered["tag_filter"] as? String == "DEEP")

        let text = await world.output("stats", "--last", "7").out
        #expect(text.contains("By tag"), "\(text)")
        let filteredText = await world.output("stats", "--last", "7", "--tag", "deep").out
        #expect(filteredText.contains("· +deep"), "\(filteredText)")
        let unknown = await world.output("stats", "--last", "7", "--tag", "nothing", "--json")
        let empty = try #require(try JSONSerialization.jsonObject(with: Data(unknown.out.utf8)) as? [String: Any])
        #expect((empty["totals"] as? [String: Any])?["focused_seconds"] as? Int == 0)
    }

    /// An open session (a stopwatch) counts its time under its tags and in no outcome, as in
    /// the task rows and totals: `writing ✗2` where one was a stopwatch was wrong.
    @Test func anOpenSessionCountsUnderItsTagsNeitherCompletedNorInterrupted() async throws {
        let world = try await Self.seeded()
        let dir = try TempDir()
        let file = try dir.file("open.jsonl", """
            {"task": "C", "start": "2026-11-21T15:00:00+01:00", "end": "2026-11-21T15:40:00+01:00", "status": "open", "tags": ["writing"]}
            {"task": "C", "start": "2026-11-21T16:00:00+01:00", "end": "2026-11-21T16:10:00+01:00", "status": "interrupted", "planned_seconds": 1500, "tags": ["writing"]}

            """)
        #expect(await world.run("import", file) == 0)
        let r = await world.output("stats", "--last", "7", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let writing = try #require((json["tags"] as? [[String: Any]])?.first { $0["tag"] as? String == "writing" })
        #expect(writing["focused_seconds"] as? Int == 3000)
        #expect(writing["completed"] as? Int == 0)
        #expect(writing["interrupted"] as? Int == 1, "\(writing)")
        let task = try #require((json["tasks"] as? [[String: Any]])?.first { $0["task"] as? String == "C" })
        #expect(task["interrupted"] as? Int == writing["interrupted"] as? Int)
    }

    @Test(arguments: ["jsonl", "csv"])
    func exportAndImportCarryTagsAndAReimportAddsNothing(_ format: String) async throws {
        let world = try await Self.seeded()
        let dir = try TempDir()
        let file = dir.path + "/history." + format
        #expect(await world.run("export", "--output", file) == 0)
        let written = try dir.read("history." + format)
        if format == "csv" {
            #expect(written.hasPrefix("task,subtask,start,end,status,focused_seconds,planned_seconds,note,tags\n"), "\(written)")
            #expect(written.contains(",Deep;reading\n"), "\(written)")
        } else {
            #expect(written.contains(#""tags": ["Deep", "reading"]"#), "\(written)")
        }
        let other = try TestWorld()
        #expect(await other.run("import", file) == 0)
        let again = await other.output("import", file)
        #expect(again.out.contains("Imported 0 sessions (2 already present)"), "\(again.out)")
        let logs = try await Self.logs(other)
        #expect(Self.tags(logs.first { $0["task"] as? String == "A" }) == ["Deep", "reading"])
        #expect(Self.tags(logs.first { $0["task"] as? String == "B" }) == [])
    }

    @Test func aReimportAddsTheFileTagsTheSessionLacksOnce() async throws {
        let world = try await Self.seeded()
        let dir = try TempDir()
        let file = try dir.file("more.jsonl", """
            {"task": "B", "start": "2026-11-21T10:00:00+01:00", "end": "2026-11-21T10:50:00+01:00", "status": "completed", "tags": ["admin"]}

            """)
        #expect(await world.run("import", file) == 0)
        #expect(await world.run("import", file) == 0)
        let logs = try await Self.logs(world)
        #expect(logs.count == 2)
        #expect(Self.tags(logs.first { $0["task"] as? String == "B" }) == ["admin"])
    }

    @Test func aBadTagInAnImportRejectsTheFileWithItsLine() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let file = try dir.file("bad.jsonl", """
            {"task": "B", "start": "2026-11-21T10:00:00+01:00", "end": "2026-11-21T10:50:00+01:00", "status": "completed", "tags": ["ok"]}
            {"task": "B", "start": "2026-11-21T11:00:00+01:00", "end": "2026-11-21T11:50:00+01:00", "status": "completed", "tags": [3]}

            """)
        let r = await world.output("import", file)
        #expect(r.code == 65)
        #expect(r.err.contains(":2: tags must be a list of names"), "\(r.err)")
        #expect(try await Self.logs(world).isEmpty)
    }

    @Test func timewarriorTagsBeyondTaskAndSubtaskBecomeTags() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("timew.json", """
            [
            {"id":1,"start":"20261120T080000Z","end":"20261120T082500Z","tags":["Thesis","Intro","deep","morning"]}
            ]

            """)
        #expect(await world.run("import", path) == 0)
        let logs = try await Self.logs(world)
        #expect(logs.first?["task"] as? String == "Thesis")
        #expect(logs.first?["subtask"] as? String == "Intro")
        #expect(Self.tags(logs.first) == ["deep", "morning"])
    }

    @Test func watsonTagsAfterTheSubtaskBecomeTags() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("frames", """
            [[1795161600, 1795163100, "Thesis", "a1b2c3", ["writing", "deep"], 1795163100]]

            """)
        let r = await world.output("import", path, "--format", "watson")
        #expect(r.code == 0, "\(r.err)")
        let logs = try await Self.logs(world)
        #expect(logs.first?["task"] as? String == "Thesis")
        #expect(logs.first?["subtask"] as? String == "writing")
        #expect(Self.tags(logs.first) == ["deep"])
    }
}

private let tagCalendarURL = "https://dav.example.org/calendars/alice/focus/"
private let tagEndpoint = CalDAVEndpoint(url: "https://dav.example.org/", user: "alice", password: "secret")

/// A machine set up to sync with `server`'s calendar (as SyncFactsTests' machines are).
private func tagMachine(_ server: FakeCalDAVServer) throws -> TestWorld {
    let world = try TestWorld(now: "2026-11-24T19:00:00Z")
    let account = try world.database.saveAccount(url: "https://dav.example.org/", principalURL: "https://dav.example.org/principals/alice/",
                                                 homeURLs: [server.home], user: "alice", passwordCommand: nil, caFile: nil, insecure: false,
                                                 at: world.now)
    _ = try server.makeCalendar(tagCalendarURL, displayName: "Focus", components: ["VEVENT", "VTODO"], tagEndpoint)
    try world.database.setSyncTarget(accountID: account, url: tagCalendarURL, name: "Focus", machineID: UUID().uuidString, at: world.now)
    return world
}

private func tagSync(_ world: TestWorld, _ server: FakeCalDAVServer) throws {
    let env = try world.environment(global: GlobalOptions.parse([]))
    guard let target = try world.database.syncTarget() else { throw FocusError.usage("no target") }
    _ = try SyncEngine(env: env.services, client: server, db: world.database).run(target, endpoint: tagEndpoint)
}

@Suite struct TagSyncTests {
    /// Tags travel as CATEGORIES on the session's event (RFC 5545 section 3.8.1.2), with the
    /// `focus` marker kept apart; a change of tags on one machine reaches the other.
    @Test func tagsTravelAsCategoriesAndTheirChangesReachTheOtherMachine() async throws {
        let server = FakeCalDAVServer()
        let one = try tagMachine(server), two = try tagMachine(server)
        #expect(await one.run("task", "add", "Code") == 0)
        #expect(await one.run("log", "add", "Code", "--start", "2026-11-24 10:00", "--duration", "25m",
                              "--tag", "deep", "--tag", "a, b") == 0)
        try tagSync(one, server)
        let events = server.contents(tagCalendarURL).values.map { String(decoding: $0, as: UTF8.self) }.filter { $0.contains("BEGIN:VEVENT") }
        #expect(events.count == 1)
        #expect(events.first?.contains("CATEGORIES:focus\r\n") == true)
        #expect(events.first?.contains("CATEGORIES:a\\, b,deep\r\n") == true, "\(events)")
        try tagSync(two, server)
        var logs = try await TagsTests.logs(two)
        #expect(TagsTests.tags(logs.first) == ["a, b", "deep"])

        let id = try #require(logs.first?["id"] as? Int)
        #expect(await two.run("log", "edit", String(id), "--untag", "deep", "--tag", "review") == 0)
        try tagSync(two, server)
        try tagSync(one, server)
        logs = try await TagsTests.logs(one)
        #expect(TagsTests.tags(logs.first) == ["a, b", "review"])
        // And a session untagged everywhere loses its tags on the other machine too.
        let first = try #require(logs.first?["id"] as? Int)
        #expect(await one.run("log", "edit", String(first), "--untag", "a, b", "--untag", "review") == 0)
        try tagSync(one, server)
        try tagSync(two, server)
        #expect(TagsTests.tags(try await TagsTests.logs(two).first) == [])
    }
}
