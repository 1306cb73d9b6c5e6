import FocusCore
import FocusRendering
import FocusText
import Testing

/// What `focus restore` says, from values (no backup file, no trust file).
@Suite struct RestoreRendererTests {
    @Test func theRestoredFileItsSessionsAndWhereTheOldOneIsKept() {
        #expect(RestoreRenderer.restored(path: "/home/me/focus.sqlite", from: "backup.sqlite", sessions: 1, schema: 12, aside: nil).string
            == "Restored /home/me/focus.sqlite from backup.sqlite (1 session, schema 12).\n")
        #expect(RestoreRenderer.restored(path: "/db", from: "b", sessions: 3, schema: 12, aside: "/db.before-restore-1").string
            == "Restored /db from b (3 sessions, schema 12).\nThe database it replaced is kept as /db.before-restore-1.\n")
    }

    @Test func settingsAreMarkedByWhoSetThemUpAndTheForeignOnesWarned() {
        let mine = StoredSetting(kind: .feed, url: "https://example.org/work.ics")
        let theirs = StoredSetting(kind: .account, url: "https://dav.example.org/", user: "alice", passwordCommand: "pass show dav")
        #expect(RestoreRenderer.settings([], trusted: []).lines.string.isEmpty)
        let one = RestoreRenderer.settings([mine], trusted: [mine.digest])
        #expect(one.lines.string == "It brings in 1 calendar setting that contact a server:\n  ✓ feed https://example.org/… (set up by you on this machine)\n")
        #expect(one.warning == nil)
        let two = RestoreRenderer.settings([mine, theirs], trusted: [mine.digest])
        #expect(two.lines.string == """
            It brings in 2 calendar settings that contact a server or run a password command:
              ✓ feed https://example.org/… (set up by you on this machine)
              ! CalDAV account https://dav.example.org/ (user alice), password command 'pass show dav': not set up by you on this machine

            """)
        #expect(two.warning?.string
            == "warning: focus will not use that one marked ! until you say yes: `focus calendar refresh` at a terminal asks (`focus doctor` lists them).")
        #expect(RestoreRenderer.settings([mine, theirs], trusted: []).warning?.string.hasPrefix("warning: focus will not use those 2 marked !") == true)
    }

    @Test func valuesOutOfRangeAreWarnedWithHowManyMore() {
        #expect(RestoreRenderer.outOfRange(total: 0, listed: []).isEmpty)
        #expect(RestoreRenderer.outOfRange(total: 3, listed: ["timeLog 4 focusedSeconds = -5"]).map(\.string) == [
            "warning: 3 stored values are out of range and read clamped; `focus doctor` lists them:",
            "warning:   timeLog 4 focusedSeconds = -5",
            "warning:   ... and 2 more",
        ])
    }
}
