import Foundation
import Testing

/// `focus start` and `focus continue` on a series of recurring work record into its current
/// instance (README, "Planning"), through the real countdown.
@Suite(.serialized, .enabled(if: Terminal.available, "tmux is not installed"))
struct RecurringWorkEndToEndTests {
    @Test func startAndContinueOnASeriesRecordIntoItsCurrentInstance() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        #expect(try await s.run("task", "add", "Admin/Weekly review", "--estimate", "1h", "--every", "day").code == 0)
        let focus = Sandbox.binary
        try await t.start("\(focus) start 'Admin/Weekly review' --duration 2s --no-break; echo FIRST=$?; "
            + "\(focus) continue --duration 2s --no-break; echo SECOND=$?")
        try await t.waitFor("SECOND=0", seconds: 30)
        let logs = try await s.logs()
        #expect(logs.count == 2)
        let title = try #require(logs.first?["subtask"] as? String)
        #expect(title.hasPrefix("Weekly review · "), "the day's instance, not the series: \(logs)")
        #expect(logs.allSatisfy { $0["subtask"] as? String == title && $0["status"] as? String == "completed" }, "\(logs)")
        let list = try await s.run("task", "list")
        #expect(list.out.contains("every day") && !list.out.contains("Weekly review · "), "\(list.out)")
    }
}
