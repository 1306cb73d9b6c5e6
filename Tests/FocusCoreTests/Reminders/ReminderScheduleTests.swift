import FocusCore
import Foundation
import Testing

@Suite struct ReminderScheduleTests {
    /// 2026-11-23 14:00:00 UTC.
    let start = Date(timeIntervalSince1970: 1_795_442_400)
    var block: ReminderBlock { ReminderBlock(id: 7, path: "Thesis/Chapter 2", start: start, end: start.addingTimeInterval(3000)) }

    func at(_ offset: TimeInterval) -> Date { start.addingTimeInterval(offset) }

    func decide(_ now: Date, blocks: [ReminderBlock]? = nil, sent: Set<SentReminder> = [], running: Int64? = nil,
                lead: Int = 300) -> ReminderDecision {
        ReminderSchedule.decide(blocks: blocks ?? [block], sent: sent, runningBlockID: running, leadSeconds: lead, now: now,
                                calendar: LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!))
    }

    func summaries(_ d: ReminderDecision) -> [String] { d.due.map(\.notice.summary) }

    @Test func theEarlyReminderComesLeadTimeBeforeTheStart() {
        let d = decide(at(-300))
        #expect(summaries(d) == ["Thesis/Chapter 2 — 50 min block in 5 min"])
        #expect(d.due.map(\.reminder) == [SentReminder(blockID: 7, kind: .before)])
        #expect(d.due.first?.notice.kind == .blockReminder)
        #expect(d.due.first?.notice.body == "15:00–15:50", "local times in Berlin")
        #expect(d.nextWake == start)
    }

    @Test func nothingIsDueJustBeforeTheLeadTimeAndTheWakeUpIsAtIt() {
        let d = decide(at(-301))
        #expect(d.due.isEmpty)
        #expect(d.nextWake == at(-300))
    }

    @Test func theStartReminderComesAtTheStartAndTellsHowToBegin() {
        let d = decide(start, sent: [SentReminder(blockID: 7, kind: .before)])
        #expect(summaries(d) == ["Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])
        #expect(d.due.first?.notice.kind == .blockStarts)
        #expect(d.nextWake == at(3000), "next: the block's end, to settle it")
    }

    @Test func aSentReminderIsNeverRepeated() {
        let sent: Set = [SentReminder(blockID: 7, kind: .before), SentReminder(blockID: 7, kind: .start)]
        #expect(decide(at(-300), sent: sent).due.isEmpty)
        #expect(decide(at(1), sent: sent).due.isEmpty)
        #expect(decide(at(1), sent: sent).nextWake == at(3000))
    }

    @Test func theRunningSessionsBlockGetsNoReminders() {
        #expect(decide(at(-300), running: 7).due.isEmpty)
        #expect(decide(start, running: 7).due.isEmpty)
        let other = ReminderBlock(id: 8, path: "Thesis/Intro", start: at(3600), end: at(5100))
        let d = decide(at(3300), blocks: [block, other], running: 7)
        #expect(summaries(d) == ["Thesis/Intro — 25 min block in 5 min"])
    }

    @Test func leadTimeZeroSendsOnlyTheStartReminder() {
        let early = decide(at(-300), lead: 0)
        #expect(early.due.isEmpty)
        #expect(early.nextWake == start)
        #expect(decide(start, lead: 0).due.map(\.reminder) == [SentReminder(blockID: 7, kind: .start)])
    }

    @Test(arguments: [
        (60.0, true), (120.0, true), (121.0, false), (1800.0, false),
    ])
    func aStartReminderLaterThanTheGraceIsSkippedNotSentLate(lateness: TimeInterval, sent: Bool) {
        let d = decide(at(lateness), sent: [SentReminder(blockID: 7, kind: .before)])
        #expect(d.due.isEmpty == !sent)
    }

    @Test func aDaemonStartedAfterTheBlockBeganSkipsTheEarlyReminder() {
        // The early moment is 5 min 30 s ago; the start moment 30 s ago: only the start is sent.
        let d = decide(at(30))
        #expect(d.due.map(\.reminder) == [SentReminder(blockID: 7, kind: .start)])
    }

    @Test func aLateEarlyReminderSaysTheTimeReallyLeft() {
        #expect(summaries(decide(at(-200))) == ["Thesis/Chapter 2 — 50 min block in 3 min"])
    }

    @Test func blocksThatEndedAreHandedBackForSettlingAndGetNoReminders() {
        let past = ReminderBlock(id: 3, path: "Thesis/Intro", start: at(-7200), end: at(-5400))
        let d = decide(at(-400), blocks: [past, block])
        #expect(d.endedBlockIDs == [3])
        #expect(d.due.isEmpty)
        #expect(d.nextWake == at(-300))
    }

    @Test func theNextWakeUpIsTheEarliestMomentAcrossBlocks() {
        let later = ReminderBlock(id: 9, path: "Math/Sheet 4", start: at(600), end: at(2400))
        let sent: Set = [SentReminder(blockID: 7, kind: .before), SentReminder(blockID: 7, kind: .start)]
        // Block 9's early reminder (at +300) comes before block 7's end (+3000).
        #expect(decide(at(10), blocks: [later, block], sent: sent).nextWake == at(300))
        #expect(decide(at(10), blocks: [], sent: sent).nextWake == nil)
    }

    @Test func twoBlocksDueTogetherComeInStartOrder() {
        // At 14:01 block 7 has started a minute ago and block 9 starts now: no early reminder is
        // sent once its block has begun.
        let second = ReminderBlock(id: 9, path: "Math/Sheet 4", start: at(60), end: at(960))
        let d = decide(at(60), blocks: [second, block], lead: 120)
        #expect(d.due.map(\.reminder) == [SentReminder(blockID: 7, kind: .start), SentReminder(blockID: 9, kind: .start)])
    }
}
