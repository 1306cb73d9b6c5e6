import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// #40, "The same plan on every machine": two machines hold the same subtasks under different
/// local ids (each numbers its rows in the order it learnt of them) and plan the same blocks.
struct SharedPlanTests {
    /// One machine's view of a random instance: its subtasks under ids from `numbering`
    /// (shared id → local id), in the order its store returned them.
    static func machine(_ instance: RandomSchedulingInstance, tied: [WorkItem], numbering: [Int64: Int64], seed: UInt64) -> [PlanSubtask] {
        let calendar = instance.rules.calendar
        var random = SeededRandom(seed: seed)
        let subtasks = tied.filter { $0.remainingSeconds > 0 }.map { item in
            var s = Subtask(id: numbering[item.id], taskID: 0, title: "Part", estimateSeconds: item.remainingSeconds,
                            startDate: item.notBefore.map { calendar.day(of: $0) }, due: item.due,
                            spanSeconds: item.spanSeconds, earliest: item.earliest, createdAt: instance.now)
            s.priority = Priority(rawValue: item.priority) ?? .normal
            s.maxPerDaySeconds = item.maxPerDaySeconds
            return PlanSubtask(subtask: s, label: item.label, loggedSeconds: 0, syncName: item.syncName)
        }
        return random.shuffled(subtasks)
    }

    /// The instance's items with ties made common: most share one due instant and priority, and
    /// labels and sync names come from the item, never from its id.
    static func tiedItems(_ instance: RandomSchedulingInstance, seed: UInt64) -> [WorkItem] {
        var random = SeededRandom(seed: seed ^ 0x71E5)
        let shared = instance.items.first?.due ?? instance.now
        return instance.items.enumerated().map { index, item in
            var tied = item
            if random.chance(70) { tied.due = shared; tied.priority = 0 }
            tied.label = "Book/Part \(Character(UnicodeScalar(UInt8(65 + index))))"
            tied.syncName = random.chance(60) ? "uid-\(random.int(0...999))-\(index)" : nil
            return tied
        }
    }

    /// A plan as every machine can compare it: blocks and work at risk by label.
    static func shared(_ result: ReplanResult) -> [String] {
        let labels = Dictionary(result.items.map { ($0.id, $0.label) }, uniquingKeysWith: { a, _ in a })
        return result.schedule.blocks.map { "\(labels[$0.itemID] ?? "?") \($0.start.timeIntervalSince1970)–\($0.end.timeIntervalSince1970)" }
            + result.schedule.atRisk.map { "at risk \($0.label) \($0.freeSeconds) \($0.competitors)" }
    }

    @Test(arguments: SchedulerPropertyTests.groups)
    func twoMachinesNumberingTheSameSubtasksDifferentlyPlanTheSameBlocks(group: Int) {
        var compared = 0
        for seed in SchedulerPropertyTests.seeds(group) {
            let instance = RandomSchedulingInstance(seed: seed)
            let tied = Self.tiedItems(instance, seed: seed)
            var random = SeededRandom(seed: seed ^ 0x40)
            let ids = tied.map(\.id)
            // Machine A numbers them one way; machine B learnt of them in another order.
            let numberingA = Dictionary(uniqueKeysWithValues: zip(ids, ids))
            let numberingB = Dictionary(uniqueKeysWithValues: zip(ids, random.shuffled(ids.map { $0 + 100 })))
            func plan(_ numbering: [Int64: Int64], _ order: UInt64) -> ReplanResult {
                Replanner.replan(ReplanInput(
                    now: instance.now, rules: instance.rules, planned: [], sessions: [],
                    subtasks: Self.machine(instance, tied: tied, numbering: numbering, seed: order), running: nil, events: instance.busy))
            }
            let a = Self.shared(plan(numberingA, seed))
            let b = Self.shared(plan(numberingB, seed ^ 0xB))
            #expect(a == b, "seed \(seed): machine A and machine B planned differently")
            compared += a.count
        }
        #expect(compared > 100, "group \(group): only \(compared) blocks compared")
    }

    @Test func equalWorkAddedOnTwoMachinesIsOrderedByItsNameNotItsRowID() {
        let now = SchedulerFixtures.local("2026-11-23 08:00")
        let due = SchedulerFixtures.local("2026-11-23 22:00")
        func subtask(_ id: Int64, _ title: String) -> PlanSubtask {
            PlanSubtask(subtask: Subtask(id: id, taskID: 1, title: title, estimateSeconds: 1500, due: due, createdAt: now),
                        label: "Book/\(title)", loggedSeconds: 0)
        }
        // A added Intro first (id 1); B received it after adding Outro (id 2 there).
        let onA = Replanner.replan(ReplanInput(now: now, rules: SchedulerFixtures.rules, planned: [], sessions: [],
                                               subtasks: [subtask(1, "Intro"), subtask(2, "Outro")], running: nil, events: []))
        let onB = Replanner.replan(ReplanInput(now: now, rules: SchedulerFixtures.rules, planned: [], sessions: [],
                                               subtasks: [subtask(2, "Intro"), subtask(1, "Outro")], running: nil, events: []))
        #expect(Self.shared(onA) == Self.shared(onB))
        let first = onB.schedule.blocks.first.flatMap { block in onB.items.first { $0.id == block.itemID } }
        #expect(first?.label == "Book/Intro")
    }
}
