import FocusCore
import FocusCoreTestSupport
import Foundation
import Testing

/// Blocks the person moved in a calendar app (README, "Your real calendar"): pinned where they
/// were put, planned around, and counted against their subtask's estimate.
@Suite struct BlockPinTests {
    typealias F = SchedulerFixtures
    let now = F.local("2026-11-23 11:00")

    func interval(_ start: String, _ end: String) -> DateInterval { DateInterval(start: F.local(start), end: F.local(end)) }

    @Test func aMoveIsAPinAndOnlyAMove() {
        let written = interval("2026-11-24 09:00", "2026-11-24 09:25")
        #expect(BlockPin.decide(written: written, found: interval("2026-11-24 14:00", "2026-11-24 14:25"), cancelled: false)
            == .pin(start: F.local("2026-11-24 14:00"), end: F.local("2026-11-24 14:25")))
        // Made longer in the app: the person's length too.
        #expect(BlockPin.decide(written: written, found: interval("2026-11-24 09:00", "2026-11-24 10:00"), cancelled: false)
            == .pin(start: F.local("2026-11-24 09:00"), end: F.local("2026-11-24 10:00")))
        // A new ETag with the same times (a note added, a colour): not a move.
        #expect(BlockPin.decide(written: written, found: written, cancelled: false) == .unchanged)
        // Made all-day or unreadable, or cancelled: left as it is.
        #expect(BlockPin.decide(written: written, found: nil, cancelled: false) == .edited)
        #expect(BlockPin.decide(written: written, found: interval("2026-11-24 14:00", "2026-11-24 14:25"), cancelled: true) == .edited)
    }

    func subtask(_ id: Int64, estimate: Int, due: String) -> PlanSubtask {
        PlanSubtask(subtask: Subtask(id: id, taskID: 9, title: "Part \(id)", estimateSeconds: estimate, due: F.local(due), createdAt: now),
                    label: "Thesis/Part \(id)", loggedSeconds: 0)
    }

    @Test func aPinnedBlockStaysIsPlannedAroundAndCountsAgainstTheEstimate() {
        // 50 minutes of work; the person moved one 25-minute block to 15:00 tomorrow.
        let pinned = ScheduledBlock(id: 4, subtaskID: 1, startedAt: F.local("2026-11-24 15:00"), endedAt: F.local("2026-11-24 15:25"),
                                    pinnedUID: "focus-block-x-20261124-1@focus")
        let other = ScheduledBlock(id: 5, subtaskID: 1, startedAt: F.local("2026-11-24 09:00"), endedAt: F.local("2026-11-24 09:25"))
        let input = ReplanInput(now: now, rules: F.rules, planned: [pinned, other], sessions: [],
                                subtasks: [subtask(1, estimate: 3000, due: "2026-11-25 00:00"), subtask(2, estimate: 36_000, due: "2026-11-25 00:00")],
                                running: nil, events: [])
        let result = Replanner.replan(input)
        #expect(result.kept == [pinned])
        #expect(result.replaced == [other])
        #expect(result.items.first { $0.id == 1 }?.remainingSeconds == 1500, "the pinned block's 25 minutes are promised work")
        let pinTime = DateInterval(start: pinned.startedAt, end: pinned.endedAt.addingTimeInterval(Double(F.rules.breakSeconds)))
        #expect(!result.schedule.blocks.contains { $0.start < pinTime.end && $0.end > pinTime.start },
                "nothing is planned over the pinned block")
    }

    @Test func aPinnedBlockOfWorkDoneOrRemovedGoes() {
        let pinned = ScheduledBlock(id: 4, subtaskID: 1, startedAt: F.local("2026-11-24 15:00"), endedAt: F.local("2026-11-24 15:25"),
                                    pinnedUID: "focus-block-x-20261124-1@focus")
        let input = ReplanInput(now: now, rules: F.rules, planned: [pinned], sessions: [], subtasks: [], running: nil, events: [])
        let result = Replanner.replan(input)
        #expect(result.kept.isEmpty && result.replaced == [pinned])
    }

    /// Random instances with random pinned blocks: every plan keeps every rule around the pinned
    /// blocks (the checker sees them as busy time), keeps each pinned block as it is, and asks
    /// for each subtask's estimate less the pinned time still ahead.
    @Test(arguments: Array(0..<3))
    func randomInstancesWithPinnedBlocks(group: Int) {
        var pinnedSeen = 0
        for seed in UInt64(group * 100)..<UInt64(group * 100 + 100) {
            let instance = RandomSchedulingInstance(seed: seed)
            var random = SeededRandom(seed: seed &+ 7)
            var subtasks: [PlanSubtask] = []
            var pinned: [ScheduledBlock] = []
            for item in instance.items where item.remainingSeconds > 0 {
                subtasks.append(PlanSubtask(subtask: Subtask(id: item.id, taskID: 1, title: item.label, estimateSeconds: item.remainingSeconds,
                                                             due: item.due, spanSeconds: item.spanSeconds, earliest: item.earliest, createdAt: instance.now),
                                            label: item.label, loggedSeconds: 0))
                for n in 0..<random.int(0...2) {
                    let start = instance.now.addingTimeInterval(Double(random.int(1...3 * 1440) * 60))
                    pinned.append(ScheduledBlock(id: item.id * 10 + Int64(n), subtaskID: item.id, startedAt: start,
                                                 endedAt: start.addingTimeInterval(Double(random.int(10...90) * 60)), pinnedUID: "p\(item.id)-\(n)"))
                }
            }
            let input = ReplanInput(now: instance.now, rules: instance.rules, planned: pinned, sessions: [], subtasks: subtasks,
                                    running: nil, events: instance.busy)
            let result = Replanner.replan(input)
            #expect(Set(result.kept) == Set(pinned), "seed \(seed): every pinned block of open work is kept as it is")
            let problems = ScheduleChecker.violations(result.schedule, items: result.items, busy: result.busy, now: instance.now, rules: instance.rules)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
            for item in result.items {
                let promised = pinned.filter { $0.subtaskID == item.id }.reduce(0) { $0 + Int($1.endedAt.timeIntervalSince($1.startedAt).rounded()) }
                let estimate = subtasks.first { $0.subtask.id == item.id }?.subtask.estimateSeconds ?? 0
                #expect(item.remainingSeconds == estimate - promised, "seed \(seed): item \(item.id)")
            }
            pinnedSeen += pinned.count
        }
        #expect(pinnedSeen > 50)
    }
}
