import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

/// Issue #40: an edit made in the calendar app that lands between focus's look at the calendar
/// and its write (the server refuses the write, 412) is one edit: one warning, whatever the
/// next publications do, and the edit stays (README, "Your real calendar").
@Suite struct PublishEditInterleavedTests {
    /// `deletes`: the plan's change removes the edited block (its work done) rather than moving it.
    @Test(arguments: [false, true])
    func anEditBetweenTheLookAndTheWriteIsSaidOnceAndKept(deletes: Bool) async throws {
        let server = FakeCalDAVServer()
        let laptop = try publishingMachine(server)
        #expect(await laptop.run("task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27") == 0)
        #expect(await laptop.run("task", "add", "Thesis/Notes", "--estimate", "25m", "--due", "2026-11-27") == 0)
        #expect(await laptop.output("calendar", "publish", "Focus plan").code == 0)
        let (url, text) = try #require(planTexts(server).first { $0.value.contains("SUMMARY:Thesis/Draft") })
        let edited = text.replacingOccurrences(of: "END:VEVENT", with: "DESCRIPTION:Bring the printed draft\r\nEND:VEVENT")
        // The phone writes its edit after focus looked, before focus's write arrives.
        server.beforeNextWrite(to: url) { server.store(url, edited) }

        let change = deletes ? await laptop.output("task", "done", "Thesis/Draft")
                             : await laptop.output("task", "edit", "Thesis/Draft", "--notes", "Outline first")
        let againOne = await laptop.output("task", "edit", "Thesis/Notes", "--notes", "Keep it short")
        let againTwo = await laptop.output("calendar", "publish", "Focus plan")
        let said = [change.err, againOne.err, againTwo.err, againTwo.out].joined(separator: "\n")
        #expect(said.components(separatedBy: "changed in the calendar").count == 2, "one warning for one edit: \(said)")
        #expect(planTexts(server)[url]?.contains("DESCRIPTION:Bring the printed draft") == true, "the edit stays: \(planTexts(server)[url] ?? "gone")")
    }
}
