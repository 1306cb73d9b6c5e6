import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusText
import Testing

/// What `focus sync` says about one sync, from its summary (no server, no database).
@Suite struct SyncRendererTests {
    @Test func aQuietSyncIsOneLine() {
        let said = SyncRenderer.lines(SyncSummary(), calendar: "focus")
        #expect(said.map(\.line.string) == ["Synced with focus: nothing changed."])
        #expect(said.map(\.isWarning) == [false])
    }

    @Test func everythingASyncDidInOrderWithTheWarningsMarked() {
        var summary = SyncSummary()
        summary.backup = "/home/me/focus.sqlite.before-sync"
        summary.received = 2
        summary.sent = 1
        summary.deletedHere = 1
        summary.deletedThere = 3
        summary.conflicts = 1
        summary.settings = ["Working hours from the other machines: 09:00-17:00."]
        summary.kept = ["Code"]
        summary.deletedElsewhere = ["Thesis/Intro"]
        summary.seriesTicked = ["Gym"]
        summary.cameBack = ["Notes"]
        summary.warnings = ["one item could not be read."]
        let said = SyncRenderer.lines(summary, calendar: "focus")
        #expect(said.map(\.line.string) == [
            "Backed up the database to /home/me/focus.sqlite.before-sync first.",
            "Synced with focus: 2 received, 1 sent, 1 deleted here, 3 deleted there.",
            "1 field was changed on both machines: the newer kept; see `focus sync status`.",
            "Working hours from the other machines: 09:00-17:00.",
            "warning: 'Code' was deleted on one machine but holds work the other recorded: kept on both (`focus sync status`). "
                + "To delete it again: focus task rm Code --force",
            "'Thesis/Intro' was deleted in another app: archived here with its sessions, which still count (`focus task list --all`). "
                + "To delete it with them: focus task rm 'Thesis/Intro' --force",
            "'Gym' was ticked done in another app: this period's work is done here, and the series goes on (to end it: focus task rm 'Gym').",
            "warning: 'Notes', deleted here, is back: another machine recorded work in it meanwhile (`focus sync status`). "
                + "To delete it again: focus task rm 'Notes' --force",
            "warning: one item could not be read.",
        ])
        #expect(said.map(\.isWarning) == [false, false, false, false, true, false, false, true, true])
        let console = RecordingConsole()
        summary = SyncSummary()
        summary.received = 1
        summary.conflicts = 2
        summary.warnings = ["late."]
        SyncRenderer.say(summary, calendar: "focus", on: console)
        #expect(console.stdout == "Synced with focus: 1 received.\n2 fields were changed on both machines: the newer kept; see `focus sync status`.\n")
        #expect(console.stderr == "focus: warning: late.\n")
    }
}
