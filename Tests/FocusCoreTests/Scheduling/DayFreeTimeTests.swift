import Foundation
import Testing
import FocusCore

/// #41: the agenda's "Free in working hours" is the time the planner could use: the buffer
/// around meetings and the lunch gap are not free.
struct DayFreeTimeTests: SchedulerTestHelpers {
    @Test func theBufferAroundAMeetingAndLunchAreNotFree() {
        var rules = SchedulingRules(config: FocusConfig(), calendar: berlin)
        rules.bufferSeconds = 15 * 60
        let day = LocalDate(year: 2026, month: 12, day: 7)
        let meeting = DayFreeTime.Event(interval: busy("2026-12-07 10:00", "2026-12-07 11:00"), allDay: false)
        let free = DayFreeTime.seconds(day: day, now: local("2026-12-07 07:00"), rules: rules, events: [meeting], planned: [])
        // 09:00–17:00 is 8h; lunch 1h, the meeting 1h and its buffer 30m are not free.
        #expect(free == (8 * 60 - 60 - 60 - 30) * 60)
        rules.lunch = nil
        rules.bufferSeconds = 0
        #expect(DayFreeTime.seconds(day: day, now: local("2026-12-07 07:00"), rules: rules, events: [meeting], planned: []) == 7 * 3600)
    }

    @Test func aWeekendDayOfTheDefaultsHasNoFreeTime() {
        let rules = SchedulingRules(config: FocusConfig(), calendar: berlin)
        #expect(DayFreeTime.seconds(day: LocalDate(year: 2026, month: 12, day: 12), now: local("2026-12-07 07:00"), rules: rules,
                                    events: [], planned: []) == 0)
    }
}
