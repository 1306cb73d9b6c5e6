import Foundation
import Testing

/// Two focus processes on one database at the same moment (README, Files: creating and
/// migrating a database is one transaction, safe against a second process).
@Suite struct TwoProcessTests {
    /// Commands started together on a file that does not exist yet: whichever creates and
    /// migrates it first, the others wait and find it ready. (Before: 13 of 30 runs of two
    /// failed with "an SQLite database of another program", exit 74.) `scripts/torture/concurrent-open`
    /// does the same by hand.
    @Test func commandsStartedTogetherOnANewDatabaseAllSucceed() async throws {
        for run in 0..<10 {
            let s = try Sandbox()
            defer { s.remove() }
            let results = try await withThrowingTaskGroup(of: Sandbox.Result.self) { group in
                for k in 1...4 { group.addTask { try await s.run("task", "add", "Task \(k)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for r in results {
                #expect(r.code == 0, "run \(run): exit \(r.code): \(r.err)")
            }
            let list = try await s.run("task", "list").out
            #expect((1...4).allSatisfy { list.contains("Task \($0)") }, "run \(run): \(list)")
        }
    }
}
