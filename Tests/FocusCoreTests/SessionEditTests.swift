import FocusCore
import Foundation
import Testing

/// `focus log edit`'s rules, without a database: what a session becomes, and what is refused.
@Suite struct SessionEditTests {
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    /// Sunday 22 November 2026, 09:00–09:50 in Berlin (08:00Z), 40 minutes focused.
    let start = Date(timeIntervalSince1970: 1_795_334_400)
    var session: TimeLog {
        TimeLog(id: 7, taskID: 1, subtaskID: 2, startedAt: start, endedAt: start.addingTimeInterval(3000), plannedSeconds: 3000,
                focusedSeconds: 2400, status: .completed, note: "draft")
    }
    var now: Date { start.addingTimeInterval(86_400) }

    func edit(_ change: (inout SessionEdit) -> Void) -> SessionEdit {
        var e = SessionEdit()
        change(&e)
        return e
    }

    @Test func aNewStartAloneMovesTheSessionAndKeepsItsLengthAndFocus() throws {
        let moved = try edit { $0.start = start.addingTimeInterval(-3600) }.applied(to: session, now: now, calendar: berlin)
        #expect(moved.startedAt == start.addingTimeInterval(-3600) && moved.endedAt == start.addingTimeInterval(-600))
        #expect(moved.focusedSeconds == 2400 && moved.note == "draft" && moved.taskID == 1)
    }

    @Test func aSessionFocusedThroughoutStaysSoAtItsNewLengthAndFocusNeverExceedsTheLength() throws {
        var full = session
        full.focusedSeconds = 3000
        #expect(try edit { $0.lengthSeconds = 3600 }.applied(to: full, now: now, calendar: berlin).focusedSeconds == 3600)
        #expect(try edit { $0.lengthSeconds = 3600 }.applied(to: session, now: now, calendar: berlin).focusedSeconds == 2400)
        #expect(try edit { $0.lengthSeconds = 1200 }.applied(to: session, now: now, calendar: berlin).focusedSeconds == 1200)
        #expect(try edit { $0.focused = (1800, "30m") }.applied(to: session, now: now, calendar: berlin).focusedSeconds == 1800)
    }

    @Test func statusNoteAndTargetChangeOnlyWhatTheySay() throws {
        let e = edit {
            $0.status = .interrupted
            $0.note = ""
            $0.target = .subtask(taskID: 3, id: 4)
        }
        let after = try e.applied(to: session, now: now, calendar: berlin)
        #expect(after.status == .interrupted && after.note == nil && after.taskID == 3 && after.subtaskID == 4)
        #expect(after.startedAt == session.startedAt && after.endedAt == session.endedAt && after.focusedSeconds == 2400)
        #expect(!e.changesTimes)
    }

    @Test(arguments: [
        ("end before start", "end"),
        ("focus over length", "focused time"),
        ("more than a day", "--allow-long"),
        ("after now", "--allow-future"),
    ])
    func refusals(_ case: String, _ said: String) {
        let e: SessionEdit
        switch `case` {
        case "end before start": e = edit { $0.end = start.addingTimeInterval(-60); $0.endText = "08:59" }
        case "focus over length": e = edit { $0.focused = (4000, "1h6m40s") }
        case "more than a day": e = edit { $0.lengthSeconds = 90_000 }
        default: e = edit { $0.end = start.addingTimeInterval(3600) }
        }
        // For "after now": the edit is made 55 minutes after the session began.
        let now = `case` == "after now" ? start.addingTimeInterval(3300) : self.now
        #expect(throws: FocusError.self) { try e.applied(to: session, now: now, calendar: berlin) }
        do {
            _ = try e.applied(to: session, now: now, calendar: berlin)
        } catch {
            #expect(error.description.contains(said), "\(error.description)")
        }
    }

    @Test func aLongSessionMayKeepItsLengthWithoutTheFlagAndGrowOnlyWithIt() throws {
        var long = session
        long.endedAt = start.addingTimeInterval(27 * 3600)
        let later = edit { $0.start = start.addingTimeInterval(-3600) }
        #expect(try later.applied(to: long, now: now.addingTimeInterval(86_400), calendar: berlin).endedAt == start.addingTimeInterval(26 * 3600))
        #expect(throws: FocusError.self) { try edit { $0.lengthSeconds = 28 * 3600 }.applied(to: long, now: now.addingTimeInterval(86_400), calendar: berlin) }
        #expect(try edit { $0.lengthSeconds = 28 * 3600; $0.allowLong = true }.applied(to: long, now: now.addingTimeInterval(86_400), calendar: berlin)
            .endedAt == start.addingTimeInterval(28 * 3600))
    }
}
