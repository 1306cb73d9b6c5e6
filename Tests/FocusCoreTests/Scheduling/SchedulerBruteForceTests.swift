import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// A small problem on a 15-minute grid: two Berlin days (2026-11-24 and 25), 1–3 items,
/// every time and length a multiple of 15 minutes, so exhaustive search is cheap.
struct GridSchedulingInstance {
    static let slot = 900
    static let slots = 2 * 96
    static let origin = SchedulerFixtures.local("2026-11-24 00:00")

    let seed: UInt64
    let rules: SchedulingRules
    let now: Date
    let items: [WorkItem]
    let busy: [DateInterval]

    static func time(_ slot: Int) -> Date { origin.addingTimeInterval(Double(slot * Self.slot)) }

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        let startSlot = random.pick([32, 36, 40])
        let endSlot = startSlot + random.pick([12, 16, 24, 32])
        rules = SchedulingRules(
            calendar: SchedulerFixtures.berlin,
            workdayStart: TimeOfDay(minutes: startSlot * 15), workdayEnd: TimeOfDay(minutes: endSlot * 15),
            minimumBlockSeconds: random.pick([900, 900, 1800]), breakSeconds: random.pick([0, 900, 900, 1800]),
            defaultSpanSeconds: random.pick([900, 1800, 2700, 3600])
        )
        let nowSlot = random.int(24...(endSlot - 4))
        now = Self.time(nowSlot)
        var busy: [DateInterval] = []
        for _ in 0..<random.int(0...5) {
            let from = random.int(0...1) * 96 + random.int((startSlot - 4)...(endSlot))
            busy.append(DateInterval(start: Self.time(from), end: Self.time(from + random.int(1...6))))
        }
        self.busy = busy
        var items: [WorkItem] = []
        let ids = random.shuffled([Int64(1), 2, 3])
        for index in 0..<random.int(1...3) {
            let due = random.chance(15) ? endSlot - random.int(0...6) : random.int((nowSlot + 2)...Self.slots)
            items.append(WorkItem(
                id: ids[index], label: "Item\(ids[index])", remainingSeconds: random.int(1...12) * Self.slot,
                notBefore: random.chance(20) ? Self.time(96) : nil, due: Self.time(due),
                spanSeconds: random.chance(50) ? nil : random.pick([900, 1800, 2700, 3600]),
                earliest: random.chance(30) ? TimeOfDay(minutes: (startSlot + random.int(1...8)) * 15) : nil,
                priority: random.pick([-1, 0, 0, 1])
            ))
        }
        self.items = items
    }

    /// Every total (in slots, bit k = k slots) that `item`'s work could reach in the time the
    /// `earlier` blocks leave, by exhaustive search over the grid, with the rules restated:
    /// working hours, its window and earliest time, no busy time, a break from every other
    /// block unless an event lies between, gaps shorter than the minimum unused, each block
    /// within minimum…span.
    func reachableTotals(for item: WorkItem, earlier: [PlannedBlock]) -> UInt64 {
        let calendar = rules.calendar
        let events = busy.filter { $0.duration > 0 }
        func eventBetween(_ from: Date, _ to: Date) -> Bool { events.contains { $0.start < to && $0.end > from } }
        let pause = Double(rules.breakSeconds)

        var usable = [Bool](repeating: false, count: Self.slots)
        for t in 0..<Self.slots {
            let from = Self.time(t)
            let to = Self.time(t + 1)
            let day = calendar.day(of: from)
            guard from >= now, from >= (item.notBefore ?? now), to <= item.due else { continue }
            guard from >= calendar.instant(day, rules.workdayStart), to <= calendar.instant(day, rules.workdayEnd) else { continue }
            if let earliest = item.earliest, from < calendar.instant(day, earliest) { continue }
            if events.contains(where: { $0.start < to && from < $0.end }) { continue }
            let clear = earlier.allSatisfy { other in
                if other.start < to && from < other.end { return false }
                if to <= other.start { return other.start.timeIntervalSince(to) >= pause || eventBetween(to, other.start) }
                return from.timeIntervalSince(other.end) >= pause || eventBetween(other.end, from)
            }
            usable[t] = clear
        }
        var runEnd = [Int](repeating: 0, count: Self.slots)
        var runLength = [Int](repeating: 0, count: Self.slots)
        var t = Self.slots - 1
        while t >= 0 {
            if usable[t] { runEnd[t] = (t + 1 < Self.slots && usable[t + 1]) ? runEnd[t + 1] : t + 1 }
            t -= 1
        }
        for t in 0..<Self.slots where usable[t] {
            var first = t
            while first > 0, usable[first - 1] { first -= 1 }
            runLength[t] = runEnd[t] - first
        }

        let spanMinutes = (item.spanSeconds ?? rules.defaultSpanSeconds) / 60
        let gapMinimum = min(rules.minimumBlockSeconds / 60, spanMinutes)
        let smallest = ScheduleChecker.smallestBlock(for: item, rules: rules) / 60
        let lengths = (1...8).filter { $0 * 15 >= smallest && $0 * 15 <= spanMinutes }
        let needed = item.remainingSeconds / Self.slot
        let mask: UInt64 = (1 << UInt64(needed + 1)) - 1

        var memo: [Int: UInt64] = [:]
        func totals(from position: Int, previousEnd: Int?) -> UInt64 {
            let key = position * 2 + (previousEnd == nil ? 0 : 1)
            if let known = memo[key] { return known }
            var result: UInt64 = 1
            for start in position..<Self.slots where usable[start] && runLength[start] * 15 >= gapMinimum {
                if let end = previousEnd {
                    let apart = Self.time(start).timeIntervalSince(Self.time(end))
                    if apart < pause, !eventBetween(Self.time(end), Self.time(start)) { continue }
                }
                for length in lengths where start + length <= runEnd[start] {
                    result |= (totals(from: start + length, previousEnd: start + length) << UInt64(length)) & mask
                }
            }
            memo[key] = result
            return result
        }
        return totals(from: 0, previousEnd: nil)
    }
}

struct SchedulerBruteForceTests {
    static let groups = Array(0..<6)
    static let perGroup: UInt64 = 100

    @Test(arguments: groups)
    func workReportedAtRiskHasNoPlacementAndGetsTheMostThatFits(group: Int) {
        var atRiskChecked = 0
        var placedChecked = 0
        for seed in (UInt64(group) * Self.perGroup)..<(UInt64(group + 1) * Self.perGroup) {
            let instance = GridSchedulingInstance(seed: seed + 10_000)
            let schedule = Scheduler.plan(items: instance.items, busy: instance.busy, now: instance.now, rules: instance.rules)
            let problems = ScheduleChecker.violations(
                schedule, items: instance.items, busy: instance.busy, now: instance.now, rules: instance.rules
            )
            #expect(problems.isEmpty, "seed \(instance.seed): \(problems.prefix(5))")

            // Work goes by the local day it is due, then priority, then due time, then id. An item
            // at risk has no placement in the time the fitting items and the items at risk before
            // it leave, and gets the most that fits there; every other item gets all its work.
            let calendar = instance.rules.calendar
            func day(_ item: WorkItem) -> Int { calendar.day(of: item.due.addingTimeInterval(-1)).dayNumber }
            let order = instance.items.sorted { a, b in
                if day(a) != day(b) { return day(a) < day(b) }
                if a.priority != b.priority { return a.priority > b.priority }
                return (a.due, a.id) < (b.due, b.id)
            }
            let risky = Set(schedule.atRisk.map(\.itemID))
            for (index, item) in order.enumerated() {
                let before = Set(order.map(\.id)).subtracting(risky).union(order[..<index].map(\.id)).subtracting([item.id])
                let reachable = instance.reachableTotals(for: item, earlier: schedule.blocks.filter { before.contains($0.itemID) })
                let needed = item.remainingSeconds / GridSchedulingInstance.slot
                let planned = schedule.blocks.filter { $0.itemID == item.id }.reduce(0) { $0 + $1.seconds }
                let most = 63 - reachable.leadingZeroBitCount
                if risky.contains(item.id) {
                    atRiskChecked += 1
                    #expect(reachable & (1 << UInt64(needed)) == 0,
                            "seed \(instance.seed): item \(item.id) reported at risk but a placement exists")
                    #expect(planned >= most * GridSchedulingInstance.slot,
                            "seed \(instance.seed): item \(item.id) got \(planned) s, \(most * 15) min fit")
                } else {
                    placedChecked += 1
                    #expect(planned == item.remainingSeconds, "seed \(instance.seed): item \(item.id)")
                }
            }
        }
        #expect(atRiskChecked > 20, "group \(group): only \(atRiskChecked) items at risk")
        #expect(placedChecked > 20, "group \(group): only \(placedChecked) items placed")
    }
}
