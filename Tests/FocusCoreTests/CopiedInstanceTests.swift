import FocusCore
import Foundation
import Testing

/// Another app's copy of focus's to-do is that app's own to-do (issue #39).
@Suite struct CopiedInstanceTests {
    /// A to-do as another app copies focus's instance: a new UID and title, focus's X- properties kept.
    func todo(uid: String) -> String {
        """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Other//App//EN\r
        BEGIN:VTODO\r
        UID:\(uid)\r
        DTSTAMP:20261124T100000Z\r
        SUMMARY:Copy of weekly review\r
        RELATED-TO;RELTYPE=PARENT:focus-task-1@focus\r
        X-FOCUS-KIND:subtask\r
        X-FOCUS-SERIES:focus-subtask-1@focus\r
        X-FOCUS-PERIOD:2026-11-23\r
        END:VTODO\r
        END:VCALENDAR\r

        """
    }

    @Test func anotherAppsCopyOfAnInstanceIsPlainWorkNotThePeriodsInstance() throws {
        guard case let .subtask(copy)? = try SyncCodec.decode(Data(todo(uid: "8A1F0C3E-copy@other.example").utf8), zone: LocalCalendar(zone: .utc))
        else { Issue.record("not read as a subtask"); return }
        #expect(copy.seriesUID == nil && copy.periodStart == nil)
        // focus's own instance, named from its series and period, still is one.
        let own = SyncIdentity.instanceUID(seriesUID: "focus-subtask-1@focus", periodStart: LocalDate(year: 2026, month: 11, day: 23))
        guard case let .subtask(instance)? = try SyncCodec.decode(Data(todo(uid: own).utf8), zone: LocalCalendar(zone: .utc))
        else { Issue.record("not read as a subtask"); return }
        #expect(instance.seriesUID == "focus-subtask-1@focus" && instance.periodStart == "2026-11-23")
        #expect(!SyncIdentity.isInstanceName(own, periodStart: "2026-11-30"), "another period's name")
    }
}
