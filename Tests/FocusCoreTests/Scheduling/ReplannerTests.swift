import FocusCore
import Foundation
import Testing

@Suite struct ReplannerTests {
    typealias F = SchedulerFixtures
    let now = F.local("2026-11-23 11:00")

    func block(_ id: Int64, _ start: String, _ end: String, subtask: Int64 = 1) -> ScheduledBlock {
        ScheduledBlock(id: id, subtaskID: subtask, startedAt: F.local(start), endedAt: F.local(end))
    }

    func session(_ start: String, _ end: String, focused: Int, block: Int64? = nil, subtask: Int64 = 1) -> TimeLog {
        TimeLog(taskID: 9, subtaskID: subtask, startedAt: F.local(start), endedAt: F.local(end),
                plannedSeconds: 1500, focusedSeconds: focused, status: .completed, blockID: block)
    }

    func subtask(estimate: Int, due: String, id: Int64 = 1) -> PlanSubtask {
        PlanSubtask(subtask: Subtask(id: id, taskID: 9, title: "Intro", estimateSeconds: estimate, due: F.local(due), createdAt: now),
                    label: "Thesis/Intro", loggedSeconds: 0)
    }

    @Test func pastBlocksBecomeDonePartialOrMissedByTheSessionsInThem() {
        let input = ReplanInput(
            now: now, rules: F.rules,
            planned: [block(1, "2026-11-23 08:00", "2026-11-23 08:25"), block(2, "2026-11-23 08:30", "2026-11-23 08:55"),
                      block(3, "2026-11-23 09:00", "2026-11-23 09:25"), block(4, "2026-11-23 09:30", "2026-11-23 09:55")],
            sessions: [
                // Linked, started 30 s late: still the whole block.
                session("2026-11-23 08:00:30", "2026-11-23 08:25:30", focused: 1500, block: 1),
                // Not linked, overlapping half of block 2.
                session("2026-11-23 08:40", "2026-11-23 09:05", focused: 1500),
            ],
            subtasks: [], running: nil, events: [])
        let result = Replanner.replan(input)
        #expect(result.settled.map(\.status) == [.done, .partial, .partial, .missed])
        #expect(result.kept.isEmpty && result.replaced.isEmpty)
    }

    @Test func aBlockWorkedAheadOfItsTimeMovesToItsSessions() {
        let input = ReplanInput(
            now: now, rules: F.rules, planned: [block(7, "2026-11-23 15:00", "2026-11-23 15:25")],
            sessions: [session("2026-11-23 10:00", "2026-11-23 10:25", focused: 1500, block: 7)],
            subtasks: [], running: nil, events: [])
        let settled = Replanner.replan(input).settled
        #expect(settled == [ScheduledBlock(id: 7, subtaskID: 1, startedAt: F.local("2026-11-23 10:00"),
                                           endedAt: F.local("2026-11-23 10:25"), status: .done)])
    }

    @Test func aRunningBlockAlreadyWorkedOnIsKeptAndItsRestCountsAsPlannedWork() {
        // 75 minutes of work, 5 logged in the block running now, which holds 15 more: 55 are
        // placed again after its end and a break, and the old future block is replaced.
        var sub = subtask(estimate: 4500, due: "2026-11-24 00:00")
        sub.loggedSeconds = 300
        let input = ReplanInput(
            now: F.local("2026-11-23 10:10"), rules: F.rules,
            planned: [block(1, "2026-11-23 10:00", "2026-11-23 10:25"), block(2, "2026-11-23 14:00", "2026-11-23 14:25")],
            sessions: [session("2026-11-23 10:00", "2026-11-23 10:05", focused: 300, block: 1)],
            subtasks: [sub], running: nil, events: [])
        let result = Replanner.replan(input)
        #expect(result.kept.map(\.id) == [1])
        #expect(result.replaced.map(\.id) == [2])
        #expect(result.items.map(\.remainingSeconds) == [3300])
        #expect(result.schedule.blocks.reduce(0) { $0 + $1.seconds } == 3300)
        #expect(result.schedule.blocks.first?.start == F.local("2026-11-23 10:30"))
    }

    /// #41: a block nobody started is "starting" for 10 minutes (kept, same id), then missed:
    /// settled where it was, its time spent, its work planned after it, once.
    @Test func aBlockNobodyStartedIsStartingForTenMinutesThenMissedAndItsWorkGoesAfterIt() {
        func replan(at time: String, spent: [DateInterval] = []) -> ReplanResult {
            var input = ReplanInput(
                now: F.local(time), rules: F.rules, planned: [block(1, "2026-11-23 10:00", "2026-11-23 10:25")],
                sessions: [], subtasks: [subtask(estimate: 1500, due: "2026-11-24 00:00")], running: nil, events: [])
            input.spent = spent
            return Replanner.replan(input)
        }
        let starting = replan(at: "2026-11-23 10:09")
        #expect(starting.kept.map(\.id) == [1])
        #expect(starting.schedule.blocks.isEmpty)
        let missed = replan(at: "2026-11-23 10:10")
        #expect(missed.kept.isEmpty && missed.replaced.isEmpty)
        #expect(missed.settled.map(\.status) == [.missed])
        #expect(missed.schedule.blocks == [PlannedBlock(itemID: 1, start: F.local("2026-11-23 10:30"), end: F.local("2026-11-23 10:55"))])
    }

    @Test func theRunningSessionIsBusyAndItsWorkIsCounted() {
        let running = RunningWork(subtaskID: 1, blockID: nil, focusedSeconds: 600, remainingSeconds: 900,
                                  busy: DateInterval(start: F.local("2026-11-23 10:50"), end: F.local("2026-11-23 11:20")))
        let input = ReplanInput(now: now, rules: F.rules, planned: [], sessions: [],
                                subtasks: [subtask(estimate: 3000, due: "2026-11-24 00:00")], running: running, events: [])
        let result = Replanner.replan(input)
        #expect(result.items.map(\.remainingSeconds) == [1500])
        #expect(result.schedule.blocks.map(\.start) == [F.local("2026-11-23 11:20")])
    }
}

@Suite struct BlockSelectionTests {
    typealias F = SchedulerFixtures
    let blocks = [
        ScheduledBlock(id: 1, subtaskID: 10, startedAt: F.local("2026-11-23 08:00"), endedAt: F.local("2026-11-23 08:25"), status: .missed),
        ScheduledBlock(id: 2, subtaskID: 11, startedAt: F.local("2026-11-23 09:00"), endedAt: F.local("2026-11-23 09:25")),
        ScheduledBlock(id: 3, subtaskID: 12, startedAt: F.local("2026-11-23 14:00"), endedAt: F.local("2026-11-23 14:25")),
        ScheduledBlock(id: 4, subtaskID: 13, startedAt: F.local("2026-11-24 08:00"), endedAt: F.local("2026-11-24 08:25")),
    ]

    @Test(arguments: [
        ("2026-11-23 07:00", Int64?.some(2)),  // the next one today
        ("2026-11-23 08:10", 2),  // the block running now is missed already: the next planned one
        ("2026-11-23 09:10", 2),  // running now
        ("2026-11-23 09:25", 3),  // just ended: the next one
        ("2026-11-23 15:00", nil),  // nothing left today (tomorrow's does not count)
    ])
    func startWithoutAPathPicksTheBlockRunningNowElseTheNextToday(now: String, expected: Int64?) {
        #expect(BlockSelection.pick(blocks, now: F.local(now), calendar: F.berlin)?.id == expected)
    }
}
