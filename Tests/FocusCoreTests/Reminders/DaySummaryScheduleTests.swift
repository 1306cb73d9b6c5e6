import FocusCore
import Foundation
import Testing

@Suite struct DaySummaryScheduleTests {
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    let day = LocalDate(year: 2026, month: 11, day: 23)
    let time = TimeOfDay(hour: 21, minute: 30)
    /// 21:30 in Berlin on 2026-11-23.
    var moment: Date { berlin.instant(day, time) }

    @Test func offByDefault() {
        let d = DaySummarySchedule.decide(at: nil, lastSent: nil, now: moment, calendar: berlin)
        #expect(d.due == nil && d.next == nil)
    }

    @Test func dueAtTheConfiguredLocalTimeOnceADay() {
        let before = DaySummarySchedule.decide(at: time, lastSent: nil, now: moment.addingTimeInterval(-1), calendar: berlin)
        #expect(before.due == nil)
        #expect(before.next == moment)
        let at = DaySummarySchedule.decide(at: time, lastSent: nil, now: moment, calendar: berlin)
        #expect(at.due == day)
        #expect(at.next == berlin.instant(day.adding(days: 1), time))
        #expect(DaySummarySchedule.decide(at: time, lastSent: day, now: moment.addingTimeInterval(30), calendar: berlin).due == nil)
    }

    @Test func aSummaryMissedByMoreThanTheGraceIsSkipped() {
        #expect(DaySummarySchedule.decide(at: time, lastSent: nil, now: moment.addingTimeInterval(121), calendar: berlin).due == nil)
    }

    @Test func theNoticeTotalsTheDay() {
        let n = DaySummarySchedule.notice(focusedSeconds: 8100, completed: 4, interrupted: 1)
        #expect(n.summary == "Today: 2h 15m focused · 5 sessions")
        #expect(n.body == "4 completed, 1 interrupted")
        #expect(n.kind == .daySummary)
        #expect(DaySummarySchedule.notice(focusedSeconds: 1500, completed: 1, interrupted: 0).summary == "Today: 25m focused · 1 session")
    }
}
