import FocusCLI
import Testing

/// Which command lines the entry point runs on a thread of their own rather than the
/// concurrency pool, whose first thread starts a timer that wakes the process every second:
/// the two that sleep for hours between changes, and no other (README "Status bars").
struct LongLivedCommandTests {
    @Test(arguments: [
        (["ui"], true),
        (["--db", "/tmp/x.sqlite", "ui"], true),
        (["status", "--follow"], true),
        (["status", "--i3blocks", "--follow"], true),
        (["--tz", "Europe/Berlin", "status", "--follow", "--format", "{next}"], true),
        (["status"], false),
        (["status", "--json"], false),
        (["task", "add", "ui"], false),
        (["note", "--", "status", "--follow"], false),
        (["agenda"], false),
        ([], false),
    ])
    func onlyTheViewAndTheFollowerGetAThreadOfTheirOwn(arguments: [String], ownThread: Bool) {
        #expect(FocusMain.sleepsBetweenChanges(arguments) == ownThread)
    }
}
