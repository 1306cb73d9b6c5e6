import FocusCore
import FocusTestSupport
import Foundation
import Testing

/// `focus import` of Timewarrior, Watson and Open Pomodoro files, with the same guarantees as
/// focus's own formats: checked first, all or nothing, nothing added twice.
@Suite struct ForeignImportCommandTests {
    typealias F = CLIFixtures

    /// What `timew export` prints (tags sorted, one interval per line), one still open.
    static let timewarrior = """
        [
        {"id":5,"start":"20261120T080000Z","end":"20261120T082500Z","tags":["Intro","Thesis"]},
        {"id":4,"start":"20261120T090000Z","end":"20261120T095000Z","tags":["Intro","Thesis"],"annotation":"slow, then fine"},
        {"id":3,"start":"20261120T100000Z","end":"20261120T101500Z"},
        {"id":2,"start":"20261121T080000Z","end":"20261121T082500Z","tags":["Reading","project:Side"]},
        {"id":1,"start":"20261122T080000Z","tags":["Reading"]}
        ]

        """

    static func logs(_ world: TestWorld) async throws -> [[String: Any]] {
        let r = await world.output("log", "--json", "--last", "30")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
    }

    static func paths(_ logs: [[String: Any]]) -> [String] {
        logs.map { log in
            let task = log["task"] as? String ?? "?"
            return (log["subtask"] as? String).map { "\(task)/\($0)" } ?? task
        }
    }

    @Test func timewarriorExportImportsOnceAndSaysWhatItSkipped() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        // A .json file that holds a JSON array is recognised as a Timewarrior export.
        let path = try dir.file("timew.json", Self.timewarrior)
        let r = await world.output("import", path)
        #expect(r.err == "")
        #expect(r.code == 0)
        #expect(r.out == "Imported 4 sessions (0 already present), created 3 tasks and 2 subtasks. Skipped 1 interval still being tracked (no end yet).\n")
        let logs = try await Self.logs(world)
        #expect(Self.paths(logs) == ["Reading/project:Side", "Untagged", "Intro/Thesis", "Intro/Thesis"])
        #expect(logs.map { $0["status"] as? String } == Array(repeating: "completed", count: 4))
        #expect(logs.map { $0["focused_seconds"] as? Int } == [1500, 900, 3000, 1500])
        #expect(logs[2]["note"] as? String == "slow, then fine")

        let again = await world.output("import", path, "--format", "timewarrior")
        #expect(again.out == "Imported 0 sessions (4 already present), created 0 tasks and 0 subtasks. Skipped 1 interval still being tracked (no end yet).\n")
        #expect(try F.count(world, "timeLog") == 4)
    }

    /// The same Timewarrior data imported again under other `--map` rules (the first ones named
    /// the wrong tags) adds nothing: its intervals are the same time.
    @Test func aSecondImportOfTheSameTimewarriorDataAddsNothingWhateverTheMap() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("timew.json", Self.timewarrior)
        let first = await world.output("import", path, "--map", "task=2,subtask=1")
        #expect(first.code == 0, "\(first.err)")
        #expect(first.out.hasPrefix("Imported 4 sessions (0 already present)"), "\(first.out)")
        for map in [[], ["--map", "task=T*,subtask=1"], ["--map", "task=project:*,subtask=1"]] {
            let again = await world.output(["import", path] + map)
            #expect(again.code == 0, "\(again.err)")
            #expect(again.out.hasPrefix("Imported 0 sessions (4 already present), created 0 tasks and 0 subtasks."), "\(map): \(again.out)")
        }
        #expect(try F.count(world, "timeLog") == 4)
        let stats = await world.output("stats", "--from", "2026-11-20", "--to", "2026-11-22", "--json")
        #expect(stats.out.contains(#""totals": {"focused_seconds": 6900"#), "\(stats.out)")
    }

    @Test func mapPutsTheRightTagsInPlaceWhenTimewarriorSortedThem() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("export.json", Self.timewarrior)
        let r = await world.output("import", path, "--map", "task=project:*,subtask=1")
        #expect(r.code == 0)
        #expect(Self.paths(try await Self.logs(world)) == ["Side/Reading", "Untagged", "Untagged/Intro", "Untagged/Intro"])
        let swapped = try TestWorld()
        #expect(await swapped.run("import", path, "--map", "task=2,subtask=1") == 0)
        #expect(Self.paths(try await Self.logs(swapped)) == ["project:Side/Reading", "Untagged", "Thesis/Intro", "Thesis/Intro"])
    }

    @Test func aBadIntervalRejectsTheWholeFileWithItsLineAndNothingIsWritten() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let bad = Self.timewarrior.replacingOccurrences(of: #""start":"20261121T080000Z""#, with: #""start":"20261121T090000Z""#)
        let path = try dir.file("timew.json", bad)
        let r = await world.output("import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path):5: entry 4 (interval @2): end 2026-11-21T08:25:00Z is before start 2026-11-21T09:00:00Z\n")
        #expect(r.out == "")
        #expect(try F.count(world, "timeLog") == 0)
        #expect(try F.count(world, "task") == 0)
    }

    @Test func watsonFramesAreFoundByTheirFileName() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("frames", """
            [
             [
              1795161600,
              1795163100,
              "Thesis",
              "a6c4c6a37c5d4a3ab6e9ac8c1e7cc0a1",
              [
               "Chapter 2"
              ],
              1795163100
             ],
             [
              1795168800,
              1795171800,
              "Thesis",
              "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
              [],
              1795171800
             ]
            ]
            """)
        let r = await world.output("import", path)
        #expect(r.out == "Imported 2 sessions (0 already present), created 1 task and 1 subtask.\n")
        #expect(Self.paths(try await Self.logs(world)) == ["Thesis", "Thesis/Chapter 2"])
        #expect(await world.output("import", path).out == "Imported 0 sessions (2 already present), created 0 tasks and 0 subtasks.\n")
    }

    @Test func openPomodoroHistoryIsFoundByItsFileName() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("history", """
            2026-11-20T09:00:00+01:00 description="Write intro" duration=25 tags=thesis,writing
            2026-11-20T10:00:00+01:00 description="Write intro" duration=50 tags=thesis

            """)
        let r = await world.output("import", path, "--map", "subtask=1")
        #expect(r.out == "Imported 2 sessions (0 already present), created 1 task and 1 subtask.\n")
        let logs = try await Self.logs(world)
        #expect(Self.paths(logs) == ["Write intro/thesis", "Write intro/thesis"])
        #expect(logs.map { $0["end"] as? String } == ["2026-11-20T09:50:00Z", "2026-11-20T08:25:00Z"])
    }

    @Test func aBadPomodoroLineNamesItsLine() async throws {
        let world = try TestWorld()
        let dir = try TempDir()
        let path = try dir.file("history", "2026-11-20T09:00:00+01:00 description=\"ok\"\n\n2026-11-20T10:00:00+01:00 duration=soon\n")
        let r = await world.output("import", path)
        #expect(r.code == 65)
        #expect(r.err == "focus: error: \(path):3: duration 'soon' is not a number of minutes, like duration=25\n")
        #expect(try F.count(world, "timeLog") == 0)
    }
}
