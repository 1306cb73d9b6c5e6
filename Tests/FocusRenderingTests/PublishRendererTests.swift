import FocusCore
import FocusCoreTestSupport
import FocusRendering
import FocusText
import Testing

/// What publishing the plan says, from values (no server).
@Suite struct PublishRendererTests {
    @Test func aPublicationSaysWhatTheCalendarHoldsAndWhatChanged() {
        #expect(PublishRenderer.line(.published(PublishedPlan(calendar: "Focus", blocks: 1, sessions: 0))).string
            == "Published 1 planned block to Focus (nothing changed).")
        #expect(PublishRenderer.line(.published(PublishedPlan(calendar: "Focus", blocks: 3, sessions: 2, created: 1, restored: 1, updated: 2, deleted: 4))).string
            == "Published 3 planned blocks and 2 sessions to Focus (1 new, 1 written again, 2 updated, 4 removed).")
        #expect(PublishRenderer.line(.published(PublishedPlan(calendar: "Focus", blocks: 0, sessions: 1, created: 1))).string
            == "Published 0 planned blocks and 1 session to Focus (1 new).")
    }

    @Test func notesWarningsAndFailuresAreSaidOnStandardError() {
        #expect(PublishRenderer.line(.note("calendar 'Focus' was made again.")).string == "note: calendar 'Focus' was made again.")
        #expect(PublishRenderer.line(.warning("a block was moved in another app.")).string == "warning: a block was moved in another app.")
        #expect(PublishRenderer.line(.failed(calendar: "Focus", reason: "timed out.")).string
            == "warning: the plan was not published to Focus (it will be when the server answers): timed out.")
        #expect(PublishRenderer.line(.gaveUp(calendar: "Plan", blocksThere: 2, host: "desktop", deleted: 1)).string
            == "warning: calendar 'Plan' holds the plan that focus on desktop publishes (2 blocks ahead): one calendar holds one plan. "
            + "Publish from that machine, or stop it there first (`focus calendar publish Plan --stop`), or publish here to another calendar. "
            + "This machine stopped publishing there (1 of its own block ahead deleted).")
        let console = RecordingConsole()
        PublishRenderer.say(.published(PublishedPlan(calendar: "Focus", blocks: 1, sessions: 0, created: 1)), on: console)
        PublishRenderer.say(.failed(calendar: "Focus", reason: "timed out."), on: console)
        #expect(console.stdout == "Published 1 planned block to Focus (1 new).\n")
        #expect(console.stderr == "focus: warning: the plan was not published to Focus (it will be when the server answers): timed out.\n")
    }
}
