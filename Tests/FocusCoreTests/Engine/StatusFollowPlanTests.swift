import FocusCore
import FocusText
import Foundation
import Testing

/// `focus status --follow` as a plan: what it saw → what it does next, and when it looks again.
@Suite struct StatusFollowPlanTests {
    typealias Plan = StatusFollowPlan<Int>
    let now = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 11:06:40 UTC
    let today = LocalDate(year: 2026, month: 11, day: 18)
    var midnight: Date { now.addingTimeInterval(7200) }

    func idle(_ day: LocalDate? = nil, blockEnd: Date? = nil, tick: Date? = nil, minuteLabel: Bool = false) -> Plan.Reading {
        Plan.Reading(day: day ?? today, midnight: midnight, nextBlockEnd: blockEnd, nextTick: tick, minuteLabel: minuteLabel)
    }

    func seen(at: Date? = nil, inode: Int64? = 7, initialized: Bool = true, print: Int? = 1, version: Int? = 1,
              reading: Plan.Reading?) -> Plan.Observed {
        Plan.Observed(now: at ?? now, today: today, inode: inode, initialized: initialized, fingerprint: print,
                      dataVersion: version, reading: reading)
    }

    /// A plan that has read the database once (inode 7, fingerprint 1, version 1).
    func reading() -> Plan {
        var plan = Plan()
        let first = seen(version: nil, reading: nil)
        let r1 = plan.look(first)
        #expect(r1 == .reopen)
        plan.read(first, dataVersion: 1)
        return plan
    }

    @Test func itReadsOnlyWhenTheFilesTheCounterTheDayOrTheBlockChanged() {
        var plan = reading()
        let r2 = plan.look(seen(reading: idle()))
        #expect(r2 == .keep)
        let r3 = plan.look(seen(print: 2, reading: idle()))
        #expect(r3 == .read, "the files changed")
        plan = reading()
        let r4 = plan.look(seen(version: 2, reading: idle()))
        #expect(r4 == .read, "SQLite's counter moved (same size and time)")
        plan = reading()
        let r5 = plan.look(seen(reading: idle(today.adding(days: -1))))
        #expect(r5 == .read, "a new day")
        plan = reading()
        let r6 = plan.look(seen(reading: idle(blockEnd: now)))
        #expect(r6 == .read, "the block it shows ended")
    }

    @Test func aReplacedDatabaseIsOpenedAfreshAndAMissingOneShowsTheEmptyReading() {
        var plan = reading()
        let r7 = plan.look(seen(inode: 8, print: 2, reading: idle()))
        #expect(r7 == .reopen, "focus restore renamed another file in")
        plan = reading()
        let gone = seen(inode: nil, print: 3, version: nil, reading: idle())
        let r8 = plan.look(gone)
        #expect(r8 == .empty)
        plan.read(gone, dataVersion: nil)
        let r9 = plan.look(seen(inode: nil, print: 3, version: nil, reading: idle()))
        #expect(r9 == .keep, "nothing to look at again")
        let r10 = plan.look(seen(inode: 9, print: 4, version: nil, reading: idle()))
        #expect(r10 == .reopen, "made again")
    }

    @Test func aDatabaseBeingMadeIsLeftAloneForAMomentThenOpened() {
        var plan = Plan()
        let r11 = plan.look(seen(initialized: false, version: nil, reading: nil))
        #expect(r11 == .waitForCreator)
        let r12 = plan.look(seen(at: now.addingTimeInterval(1), initialized: false, version: nil, reading: idle()))
        #expect(r12 == .waitForCreator)
        let r13 = plan.look(seen(at: now.addingTimeInterval(3), initialized: false, version: nil, reading: idle()))
        #expect(r13 == .reopen,
                "still unfinished after the patience: opened, so that what is wrong is said")
    }

    @Test func theFirstFailureEndsItLaterOnesAreSaidOnceAfterThePatience() {
        var first = Plan()
        _ = first.look(seen(version: nil, reading: nil))
        let r14 = first.failed("locked", at: now)
        #expect(r14 == .exit, "the first look fails like focus status")

        var plan = reading()
        _ = plan.look(seen(print: 2, reading: idle()))
        let r15 = plan.failed("locked", at: now)
        #expect(r15 == .retry)
        #expect(plan.wake(after: now, reading: idle(), watching: true) == now.addingTimeInterval(WakeRule.failingSeconds))
        _ = plan.look(seen(at: now.addingTimeInterval(3), print: 2, version: nil, reading: idle()))
        let r16 = plan.failed("locked", at: now.addingTimeInterval(3))
        #expect(r16 == .warn("warning: locked Trying again."))
        _ = plan.look(seen(at: now.addingTimeInterval(4), print: 2, version: nil, reading: idle()))
        let r17 = plan.failed("locked", at: now.addingTimeInterval(4))
        #expect(r17 == .retry, "said once")
        let r18 = plan.look(seen(at: now.addingTimeInterval(5), print: 2, version: nil, reading: idle()))
        #expect(r18 == .reopen,
                "the connection was dropped: opened afresh")
    }

    @Test func itRedrawsOnlyWhenTheTextChanged() {
        var plan = Plan()
        let r19 = plan.redraw("idle")
        #expect(r19)
        let r20 = plan.redraw("idle")
        #expect(!r20)
        let r21 = plan.redraw("Write · work · 24:59")
        #expect(r21)
    }

    @Test func idleItSleepsUntilWhatItShowsCanChange() {
        var plan = reading()
        #expect(plan.wake(after: now, reading: idle(), watching: true) == midnight, "nothing shown ages before midnight")
        #expect(plan.wake(after: now, reading: idle(blockEnd: now.addingTimeInterval(30)), watching: true) == now.addingTimeInterval(30))
        #expect(plan.wake(after: now.addingTimeInterval(5), reading: idle(minuteLabel: true), watching: true)
                == now.addingTimeInterval(20.01), "the next whole minute, for an \"in 25m\"")
        #expect(plan.wake(after: now, reading: idle(tick: now.addingTimeInterval(0.4)), watching: true) == now.addingTimeInterval(0.4))
        #expect(plan.wake(after: now, reading: idle(), watching: false) == now.addingTimeInterval(1), "every second unwatched")
        plan.woke(changed: true)
        #expect(plan.wake(after: now, reading: idle(), watching: true) == now.addingTimeInterval(0.05), "a second look after a change")
        plan.woke(changed: false)
        #expect(plan.wake(after: now, reading: idle(), watching: true) == midnight)
    }
}

/// The one rule for when a live view looks next (`status --follow` and `focus ui`).
@Suite struct WakeRuleTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000.5)

    @Test func clocksTurnJustPastTheirSecondAndMinute() {
        #expect(WakeRule.nextSecond(after: now) == Date(timeIntervalSince1970: 1_795_000_001.01))
        #expect(WakeRule.nextMinute(after: now) == Date(timeIntervalSince1970: 1_795_000_020.01))
        let justPast = Date(timeIntervalSince1970: 1_795_000_020.01)
        #expect(WakeRule.nextMinute(after: justPast) == Date(timeIntervalSince1970: 1_795_000_080.01), "not the same minute again")
    }

    @Test func withNothingToChangeItSleepsUntilWoken() {
        #expect(WakeRule.next(after: now, changes: [nil], watching: true) == nil)
        #expect(WakeRule.next(after: now, changes: [], watching: false) == now.addingTimeInterval(1))
        let soon = now.addingTimeInterval(3)
        #expect(WakeRule.next(after: now, changes: [now.addingTimeInterval(9), soon, nil], watching: true) == soon)
        #expect(WakeRule.next(after: now, changes: [soon], watching: true, settling: true) == now.addingTimeInterval(0.05))
    }
}
