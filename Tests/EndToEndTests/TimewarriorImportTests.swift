import FocusCoreTestSupport
import Foundation
import Testing

/// A real Timewarrior database, exported by Debian's `timew` and imported by the built binary.
@Suite struct TimewarriorImportTests {
    static let timew = ["/usr/bin/timew", "/usr/local/bin/timew"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `focus log --json` over the whole of November 2026.
    static func logs(_ s: Sandbox) async throws -> [[String: Any]] {
        let r = try await s.run("log", "--json", "--last", "30", env: ["FOCUS_NOW": "2026-11-30T12:00:00Z"])
        return (try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]]) ?? []
    }

    @Test(.enabled(if: timew != nil, "timew is not installed (Debian package timewarrior)"))
    func timewExportImportsIntoTheLog() async throws {
        let timew = try #require(Self.timew)
        let s = try Sandbox()
        defer { s.remove() }
        let twdb = s.dir.appendingPathComponent("timewarrior").path
        try FileManager.default.createDirectory(atPath: twdb, withIntermediateDirectories: true)
        let env = s.environment.merging(["TIMEWARRIORDB": twdb, "TZ": "Europe/Berlin"]) { $1 }
        func run(_ args: [String]) async throws -> TestProcess.Output {
            try await offPool { try TestProcess.run(timew, args, environment: env, stdin: nil, capture: true) }
        }
        for args in [
            ["track", "2026-11-20T09:00", "-", "2026-11-20T09:25", "Thesis", "Intro", ":yes"],
            ["track", "2026-11-20T10:00", "-", "2026-11-20T10:50", "project:Side", "Reading", ":yes"],
            ["track", "2026-11-20T11:00", "-", "2026-11-20T11:15", ":yes"],
            ["annotate", "@1", "slow, then fine"],
            ["start", "2026-11-20T12:00", "Thesis", ":yes"],
        ] {
            let r = try await run(args)
            #expect(r.status == 0, "timew \(args): \(r.err)")
        }
        let export = try await run(["export"])
        #expect(export.status == 0)
        let file = s.dir.appendingPathComponent("timew.json").path
        try Data(export.out.utf8).write(to: URL(fileURLWithPath: file))

        let imported = try await s.run("import", file)
        #expect(imported.code == 0, "\(imported.err)")
        #expect(imported.out == "Imported 3 sessions (0 already present), created 3 tasks and 2 subtasks. Skipped 1 interval still being tracked (no end yet).\n")
        // Timewarrior keeps tags sorted: `Thesis Intro` is exported as Intro, Thesis.
        var logs = try await Self.logs(s).sorted { ($0["start"] as? String ?? "") < ($1["start"] as? String ?? "") }
        #expect(logs.map { $0["task"] as? String } == ["Intro", "Reading", "Untagged"])
        #expect(logs.map { $0["subtask"] as? String } == ["Thesis", "project:Side", nil])
        #expect(logs.map { $0["start"] as? String } == ["2026-11-20T08:00:00Z", "2026-11-20T09:00:00Z", "2026-11-20T10:00:00Z"])
        #expect(logs.map { $0["focused_seconds"] as? Int } == [1500, 3000, 900])
        #expect(logs.map { $0["status"] as? String } == ["completed", "completed", "completed"])
        #expect(logs[2]["note"] as? String == "slow, then fine")
        #expect(try await s.run("import", file).out.hasPrefix("Imported 0 sessions (3 already present)"))

        // With --map, into a fresh database: the project tag names the task.
        let mapped = try Sandbox()
        defer { mapped.remove() }
        let r = try await mapped.run("import", file, "--map", "task=project:*,subtask=1")
        #expect(r.code == 0, "\(r.err)")
        logs = try await Self.logs(mapped).sorted { ($0["start"] as? String ?? "") < ($1["start"] as? String ?? "") }
        #expect(logs.map { $0["task"] as? String } == ["Untagged", "Side", "Untagged"])
        #expect(logs.map { $0["subtask"] as? String } == ["Intro", "Reading", nil])
    }
}
