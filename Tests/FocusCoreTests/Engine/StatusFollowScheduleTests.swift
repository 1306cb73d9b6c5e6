import FocusCore
import Foundation
import Testing

/// `focus status --follow`'s decisions: when its reading is stale and when it looks again.
@Suite struct StatusFollowScheduleTests {
    let schedule = StatusFollowSchedule()
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let today = LocalDate(year: 2026, month: 11, day: 18)

    @Test func aReadingIsStaleWhenTheFilesTheDayOrTheBlockItShowsChanged() {
        let fresh = StatusFollowSchedule.Reading(day: today, nextBlockEnd: now.addingTimeInterval(60), nextTick: nil)
        #expect(schedule.isStale(nil, filesChanged: false, versionChanged: false, today: today, now: now))
        #expect(!schedule.isStale(fresh, filesChanged: false, versionChanged: false, today: today, now: now))
        #expect(schedule.isStale(fresh, filesChanged: true, versionChanged: false, today: today, now: now))
        #expect(schedule.isStale(fresh, filesChanged: false, versionChanged: true, today: today, now: now))
        #expect(schedule.isStale(fresh, filesChanged: false, versionChanged: false, today: today.adding(days: 1), now: now))
        #expect(schedule.isStale(fresh, filesChanged: false, versionChanged: false, today: today, now: now.addingTimeInterval(60)))
    }

    @Test func itWakesAtTheFirstOfWhatCanChangeTheText() {
        let idle = StatusFollowSchedule.Reading(day: today, nextBlockEnd: nil, nextTick: nil)
        let midnight = now.addingTimeInterval(7200)
        #expect(schedule.wake(after: now, reading: idle, midnight: midnight, watching: true, failing: false, changedLastTime: false)
                == now.addingTimeInterval(60), "a minute at most")
        #expect(schedule.wake(after: now, reading: idle, midnight: now.addingTimeInterval(30), watching: true, failing: false,
                              changedLastTime: false) == now.addingTimeInterval(30))
        let running = StatusFollowSchedule.Reading(day: today, nextBlockEnd: nil, nextTick: now.addingTimeInterval(0.4))
        #expect(schedule.wake(after: now, reading: running, midnight: midnight, watching: true, failing: false, changedLastTime: false)
                == now.addingTimeInterval(0.4))
        #expect(schedule.wake(after: now, reading: idle, midnight: midnight, watching: false, failing: false, changedLastTime: false)
                == now.addingTimeInterval(1), "every second unwatched")
        #expect(schedule.wake(after: now, reading: idle, midnight: midnight, watching: true, failing: true, changedLastTime: false)
                == now.addingTimeInterval(0.25), "soon while the database fails")
        #expect(schedule.wake(after: now, reading: idle, midnight: midnight, watching: true, failing: false, changedLastTime: true)
                == now.addingTimeInterval(0.05), "a second look after a change")
    }
}
