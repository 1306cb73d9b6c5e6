import FocusCore
import Foundation
import Testing

/// Recurring work as calendar objects (README, "Planning", "Two machines"): the rule travels on
/// the series' to-do, an instance names its series and period, and other subtasks are unchanged.
private let berlin = LocalCalendar(zone: ZoneRules.fromTZ("Europe/Berlin") ?? .utc)

@Suite struct RecurringSyncCodecTests {
    func subtask(_ uid: String) -> SyncedSubtask {
        SyncedSubtask(uid: uid, taskUID: "focus-task-1@focus", title: "Weekly review", notes: nil, estimateSeconds: 3600,
                      startDate: nil, due: nil, spanSeconds: nil, earliestMinutes: nil, done: false, modified: 1_795_529_642_839)
    }

    @Test func aSeriesAndAnInstanceReadBackAsWritten() throws {
        var series = subtask("focus-subtask-1@focus")
        series.every = "week"
        series.onDay = 5
        let period = LocalDate(year: 2026, month: 11, day: 23)
        var instance = subtask(SyncIdentity.instanceUID(seriesUID: series.uid, periodStart: period))
        instance.title = "Weekly review · 2026-11-27"
        instance.startDate = "2026-11-23"
        instance.due = Date(timeIntervalSince1970: 1_796_252_400)
        instance.seriesUID = series.uid
        instance.periodStart = "2026-11-23"
        for item in [SyncItem.subtask(series), .subtask(instance)] {
            let text = SyncCodec.encode(item, stamp: Date(timeIntervalSince1970: 1_795_546_800))
            #expect(try SyncCodec.decode(Data(text.utf8), zone: berlin) == item, "\(text)")
        }
        let text = SyncCodec.encode(.subtask(series), stamp: Date(timeIntervalSince1970: 1_795_546_800))
        #expect(text.contains("X-FOCUS-EVERY:week\r\n") && text.contains("X-FOCUS-ON:5\r\n"), "\(text)")
        #expect(!text.contains("RRULE"), "\(text)")
    }

    @Test func anInstancesNameIsTheSameOnEveryMachineAndOnePerPeriod() {
        let week = LocalDate(year: 2026, month: 11, day: 23)
        let a = SyncIdentity.instanceUID(seriesUID: "focus-subtask-1@focus", periodStart: week)
        #expect(a == SyncIdentity.instanceUID(seriesUID: "focus-subtask-1@focus", periodStart: week))
        #expect(a != SyncIdentity.instanceUID(seriesUID: "focus-subtask-1@focus", periodStart: week.adding(days: 7)))
        #expect(a != SyncIdentity.instanceUID(seriesUID: "focus-subtask-2@focus", periodStart: week))
        #expect(a.hasPrefix("focus-subtask-") && a.hasSuffix("-20261123@focus"), "\(a)")
    }

    @Test func aPlainSubtaskKeepsTheFieldsAndDigestItHadBeforeRecurringWork() {
        let plain = SyncItem.subtask(subtask("focus-subtask-9@focus"))
        #expect(!plain.fields.contains { ["every", "on", "series", "period"].contains($0.name) })
        var series = subtask("focus-subtask-9@focus")
        series.every = "day"
        #expect(SyncItem.subtask(series).digest != plain.digest, "a rule is a change to send")
    }

    @Test func aRuleOnOneSideOnlyIsKeptByTheMerge() {
        let plain = subtask("focus-subtask-1@focus")
        var series = plain
        series.every = "week"
        series.onDay = 5
        series.modified += 1
        // This machine made the to-do plain before the rule came: the rule arrives.
        let merged = SyncMerge.merge(base: .subtask(plain), local: .subtask(plain), remote: .subtask(series))
        #expect(merged.result == .subtask(series))
        var instance = plain
        instance.seriesUID = "focus-subtask-0@focus"
        instance.periodStart = "2026-11-23"
        #expect(SyncMerge.merge(base: nil, local: .subtask(plain), remote: .subtask(instance)).result == .subtask(instance))
    }

    @Test func anUnknownRuleOrABadPeriodReadsAsPlainWork() throws {
        let text = """
            BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:focus-subtask-5@focus\r\nSUMMARY:Review\r\n\
            RELATED-TO;RELTYPE=PARENT:focus-task-1@focus\r\nX-FOCUS-KIND:subtask\r\nX-FOCUS-EVERY:fortnight\r\n\
            X-FOCUS-SERIES:focus-subtask-1@focus\r\nX-FOCUS-PERIOD:2026-02-30\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        guard case let .subtask(s)? = try SyncCodec.decode(Data(text.utf8), zone: berlin) else {
            Issue.record("not a subtask")
            return
        }
        #expect(s.every == nil && s.seriesUID == nil && s.periodStart == nil)
    }
}
