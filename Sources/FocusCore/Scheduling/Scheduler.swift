import FoundationEssentials

/// Places work blocks for items into free time before their due dates (a pure function).
///
/// Work due first gets the time first (README, "Planning"): items go by the local day they
/// are due, then priority (high first), then due instant, then label and sync name (never the
/// local id, README "Two machines"). Each one's blocks are placed
/// as early as possible: every block starts at the earliest free whole minute and is as long as
/// its span (and its daily cap) allows while the rest of the work still fits in the time after
/// it, so nothing is given up that could still fit.
///
/// Work that cannot get all its remaining work before its due date is at risk, and a repair
/// keeps two promises at once. Work that fits is never pushed out by work at risk: a first
/// pass finds, in order, the items that fit whole in what the earlier fitting ones leave. And
/// work due later that has room gives up its earlier time to work at risk due sooner: in the
/// second pass each item at risk, in its turn, takes the most that still lets every later
/// fitting item fit whole (a binary search over the amount, each amount tried by placing the
/// rest). Last, each item at risk is placed again, in order, in all the time the fitting work
/// and the earlier items at risk leave, so it gets the most that fits there; one that now
/// fits whole is no longer at risk.
///
/// Planning works on whole minutes: busy time is widened to whole minutes, the remaining work is
/// rounded up to whole minutes, and the leftover seconds are taken off the longest block at
/// the end (the latest of equals), so the planned total is exactly the remaining work.
package enum Scheduler {
    /// Nothing is planned further ahead than this.
    static let horizonDays = 3660

    /// One placed block: the queue index of its item, its seconds, its day index.
    typealias Placed = (item: Int, span: MinuteSpan, day: Int)

    /// What one plan works with: the queue, each item's shape, the planning window.
    struct Problem {
        let queue: [WorkItem]
        let shapes: [BlockShape]
        let needed: [Int]
        let origin: Int
        let horizon: Int
        let rules: SchedulingRules
        let empty: FreeTime

        func planner(_ index: Int, _ free: FreeTime) -> ItemPlanner {
            Scheduler.makePlanner(queue[index], shape: shapes[index], origin: origin, horizon: horizon, rules: rules, free: free)
        }

        /// Whether the item may be planned whole at all (not more than ten years of work).
        func plannable(_ index: Int) -> Bool { queue[index].remainingSeconds <= maximumWorkMinutes * 60 }

        /// Places the item's whole work if it fits; nil (and `free` untouched) if it does not.
        func placeWhole(_ index: Int, _ free: inout FreeTime) -> [ItemGap]? {
            guard plannable(index) else { return nil }
            var trial = free
            var planner = planner(index, trial)
            guard planner.fits(needed[index], room: 0, from: 0, free: &trial) else { return nil }
            let blocks = planner.place(needed[index], free: &trial)
            guard blocks.reduce(0, { $0 + $1.span.length }) == needed[index] else { return nil }
            free = trial
            return blocks
        }
    }

    /// busy: calendar events and anything else that is not free (kept past blocks, the running session).
    /// Returns blocks sorted by start. Deterministic: same inputs → same output, whatever the input order.
    package static func plan(items: [WorkItem], busy: [DateInterval], now: Date, rules: SchedulingRules) -> Schedule {
        let origin = Minutes.up(Minutes.up(now), grain: grain(rules))
        let queue = order(items.filter { $0.remainingSeconds > 0 }, calendar: rules.calendar)
        guard !queue.isEmpty else { return Schedule(blocks: [], atRisk: []) }
        let horizon = min(queue.map { Minutes.down($0.due) }.max() ?? origin, origin + horizonDays * 1440)
        let shapes = queue.map { shape(for: $0, rules: rules) }
        let free = FreeTime(
            rules: rules, busy: busy, origin: origin, horizon: horizon,
            threshold: shapes.map(\.gapMinimum).min() ?? 1, pause: pauseMinutes(rules)
        )
        let problem = Problem(
            queue: queue, shapes: shapes, needed: queue.map { neededMinutes($0, rules: rules) },
            origin: origin, horizon: horizon, rules: rules, empty: free
        )

        // Pass 1: which items fit whole, each in what the earlier fitting ones leave.
        var first = free
        var placed: [Placed] = []
        var fitting = [Bool](repeating: false, count: queue.count)
        for index in queue.indices {
            guard let blocks = problem.placeWhole(index, &first) else { continue }
            fitting[index] = true
            placed += blocks.map { (item: index, span: $0.span, day: $0.day) }
        }
        var atRisk: [AtRiskItem] = []
        if fitting.contains(false) {
            placed = repair(problem, fitting: fitting)
            atRisk = risks(problem, placed: &placed)
        }
        return Schedule(blocks: finish(problem, placed: placed, atRisk: atRisk), atRisk: atRisk)
    }

    /// Pass 2: in order, fitting items whole and each item at risk with the most that still
    /// lets every later fitting item fit whole. Returns the fitting items' blocks only.
    static func repair(_ problem: Problem, fitting: [Bool]) -> [Placed] {
        var free = problem.empty
        var placed: [Placed] = []
        for index in problem.queue.indices {
            if fitting[index] {
                guard let blocks = problem.placeWhole(index, &free) else { continue }
                placed += blocks.map { (item: index, span: $0.span, day: $0.day) }
                continue
            }
            var trial = free
            var planner = problem.planner(index, trial)
            let most = planner.mostThatFits(problem.needed[index], free: &trial)
            func laterFit(_ amount: Int) -> Bool {
                var attempt = free
                var own = problem.planner(index, attempt)
                _ = own.place(amount, free: &attempt)
                return ((index + 1)..<problem.queue.count).allSatisfy { !fitting[$0] || problem.placeWhole($0, &attempt) != nil }
            }
            // Amounts in steps of the grain, so every block keeps its marks.
            let step = grain(problem.rules)
            var low = 0
            var high = most / step
            if laterFit(high * step) { low = high }
            while low < high {
                let middle = (low + high + 1) / 2
                if laterFit(middle * step) { low = middle } else { high = middle - 1 }
            }
            var own = problem.planner(index, free)
            _ = own.place(low * step, free: &free)
        }
        return placed
    }

    /// Pass 3: each item at risk, in order, gets the most that fits in what the fitting work
    /// and the earlier items at risk leave; those still short are reported at risk.
    static func risks(_ problem: Problem, placed: inout [Placed]) -> [AtRiskItem] {
        var free = problem.empty
        let fittingIDs = Set(placed.map(\.item))
        for block in placed { _ = free.ensure(block.day); free.occupy(block.span, day: block.day, run: block.span.run) }
        var atRisk: [AtRiskItem] = []
        for index in problem.queue.indices where !fittingIDs.contains(index) {
            let item = problem.queue[index]
            var planner = problem.planner(index, free)
            let target = planner.mostThatFits(problem.needed[index], free: &free)
            let capacity = planner.capacity(free: &free)
            let uncapped = planner.uncappedCapacity(free: &free)
            let blocks = planner.place(target, free: &free)
            placed += blocks.map { (item: index, span: $0.span, day: $0.day) }
            let total = blocks.reduce(0) { $0 + $1.span.length }
            if problem.plannable(index), total == problem.needed[index] { continue }
            // The cap is what binds when the free time would hold the work without it: the time
            // the other work leaves, or all the time before the due date, which the cap alone
            // keeps from holding it.
            var alone = problem.empty
            var lone = problem.planner(index, alone)
            let capped = planner.cap != nil && (uncapped >= problem.needed[index]
                || (lone.capacity(free: &alone) < problem.needed[index] && lone.uncappedCapacity(free: &alone) >= problem.needed[index]))
            atRisk.append(AtRiskItem(
                itemID: item.id, label: item.label, due: item.due, neededSeconds: item.remainingSeconds,
                freeSeconds: capacity * 60, competitors: [], capSeconds: capped ? item.maxPerDaySeconds : nil
            ))
        }
        for index in atRisk.indices {
            guard let queueIndex = problem.queue.firstIndex(where: { $0.id == atRisk[index].itemID }) else { continue }
            let planner = problem.planner(queueIndex, free)
            atRisk[index].competitors = competitorLabels(for: planner, item: queueIndex, placed: placed, queue: problem.queue, free: free)
        }
        return atRisk
    }

    /// Blocks in seconds, sorted; a complete item's leftover seconds trimmed off its longest block.
    static func finish(_ problem: Problem, placed: [Placed], atRisk: [AtRiskItem]) -> [PlannedBlock] {
        let risky = Set(atRisk.map(\.itemID))
        var byItem: [Int: [Range<Int>]] = [:]
        for entry in placed { byItem[entry.item, default: []].append((entry.span.start * 60)..<(entry.span.end * 60)) }
        var blocks: [PlannedBlock] = []
        for (index, ranges) in byItem {
            var seconds = ranges
            let item = problem.queue[index]
            if !risky.contains(item.id), grain(problem.rules) == 1 {
                trim(&seconds, by: problem.needed[index] * 60 - item.remainingSeconds)
            }
            blocks += seconds.map {
                PlannedBlock(itemID: item.id, start: Date(timeIntervalSince1970: Double($0.lowerBound)),
                             end: Date(timeIntervalSince1970: Double($0.upperBound)))
            }
        }
        return blocks.sorted {
            if $0.start != $1.start { return $0.start < $1.start }
            if $0.end != $1.end { return $0.end < $1.end }
            return $0.itemID < $1.itemID
        }
    }

    /// Free time (seconds) usable for `item` if nothing else were planned — for messages.
    /// Counted as work: the most the rules (hours, its earliest time, its span, the minimum
    /// block, breaks) would let it place before its due date.
    package static func freeSeconds(for item: WorkItem, busy: [DateInterval], now: Date, rules: SchedulingRules) -> Int {
        let origin = Minutes.up(Minutes.up(now), grain: grain(rules))
        let horizon = min(Minutes.down(item.due), origin + horizonDays * 1440)
        let shape = shape(for: item, rules: rules)
        var free = FreeTime(
            rules: rules, busy: busy, origin: origin, horizon: horizon,
            threshold: shape.gapMinimum, pause: pauseMinutes(rules)
        )
        var planner = makePlanner(item, shape: shape, origin: origin, horizon: horizon, rules: rules, free: free)
        return planner.capacity(free: &free) * 60
    }

    // MARK: Helpers

    /// More work than ten years hold is never planned whole.
    static let maximumWorkMinutes = horizonDays * 1440

    /// The planning order: the local day work is due (a due time of midnight belongs to the day
    /// before), then priority (high first), then `isPlannedBefore`.
    static func order(_ items: [WorkItem], calendar: LocalCalendar) -> [WorkItem] {
        let keyed = items.map { item in
            (item: item, day: calendar.day(of: Minutes.date(Minutes.up(item.due) - 1)).dayNumber)
        }
        return keyed.sorted { a, b in
            if a.day != b.day { return a.day < b.day }
            if a.item.priority != b.item.priority { return a.item.priority > b.item.priority }
            return isPlannedBefore(a.item, b.item)
        }.map(\.item)
    }

    /// Earliest due first, then what every synced machine shares (README, "Two machines"): the
    /// label, the sync name, then the other fields; the local id only between items equal in
    /// all of them, which then plan alike whichever goes first.
    static func isPlannedBefore(_ a: WorkItem, _ b: WorkItem) -> Bool {
        if a.due != b.due { return a.due < b.due }
        if a.label != b.label { return a.label < b.label }
        if a.syncName != b.syncName { return (a.syncName ?? "") < (b.syncName ?? "") }
        if a.remainingSeconds != b.remainingSeconds { return a.remainingSeconds < b.remainingSeconds }
        let aStart = a.notBefore ?? .distantPast
        let bStart = b.notBefore ?? .distantPast
        if aStart != bStart { return aStart < bStart }
        if (a.spanSeconds ?? 0) != (b.spanSeconds ?? 0) { return (a.spanSeconds ?? 0) < (b.spanSeconds ?? 0) }
        if (a.maxPerDaySeconds ?? 0) != (b.maxPerDaySeconds ?? 0) { return (a.maxPerDaySeconds ?? 0) < (b.maxPerDaySeconds ?? 0) }
        if (a.earliest?.minutes ?? -1) != (b.earliest?.minutes ?? -1) { return (a.earliest?.minutes ?? -1) < (b.earliest?.minutes ?? -1) }
        return a.id < b.id
    }

    static func pauseMinutes(_ rules: SchedulingRules) -> Int {
        Minutes.up(Minutes.up(seconds: rules.breakSeconds), grain: grain(rules))
    }

    /// The marks blocks keep, in minutes (at least 1, at most an hour).
    static func grain(_ rules: SchedulingRules) -> Int { min(60, max(1, rules.grainMinutes)) }

    /// The minutes of work planned for an item: its remaining work rounded up to the grain.
    static func neededMinutes(_ item: WorkItem, rules: SchedulingRules) -> Int {
        let step = grain(rules)
        return Minutes.down(min(Minutes.up(Minutes.up(seconds: item.remainingSeconds), grain: step), maximumWorkMinutes), grain: step)
    }

    /// The block shape of an item, in minutes. The span is rounded down to whole minutes
    /// (at least 1, at most a day), the minimum and the break up, each to the grain; a minimum
    /// above the span is lowered to the span.
    static func shape(for item: WorkItem, rules: SchedulingRules) -> BlockShape {
        let step = grain(rules)
        let spanSeconds = item.spanSeconds.flatMap { $0 > 0 ? $0 : nil } ?? rules.defaultSpanSeconds
        let span = max(step, Minutes.down(min(max(1, spanSeconds / 60), 1500), grain: step))
        return BlockShape(
            remaining: neededMinutes(item, rules: rules), span: span,
            minimum: Minutes.up(max(1, Minutes.up(seconds: rules.minimumBlockSeconds)), grain: step), pause: pauseMinutes(rules),
            grain: step, cycles: rules.cycles, longPause: Minutes.up(Minutes.up(seconds: rules.longBreakSeconds), grain: step)
        )
    }

    static func makePlanner(
        _ item: WorkItem, shape: BlockShape, origin: Int, horizon: Int, rules: SchedulingRules, free: FreeTime
    ) -> ItemPlanner {
        let step = grain(rules)
        let lower = max(origin, item.notBefore.map { Minutes.up(Minutes.up($0), grain: step) } ?? origin)
        let upper = min(Minutes.down(Minutes.down(item.due), grain: step), horizon)
        let earliest = item.earliest?.minutes
        guard let capSeconds = item.maxPerDaySeconds else {
            return ItemPlanner(shape: shape, lower: lower, upper: upper, earliest: earliest, free: free)
        }
        // Work already done or promised on a day counts against its cap, rounded up to minutes.
        var used: [Int: Int] = [:]
        for (day, seconds) in item.usedPerDay where seconds > 0 {
            used[day.dayNumber - free.firstDayNumber, default: 0] += Minutes.up(seconds: seconds)
        }
        return ItemPlanner(shape: shape, lower: lower, upper: upper, earliest: earliest, free: free,
                           cap: max(0, capSeconds / 60), capUsed: used)
    }

    /// Takes `seconds` (< 60) off the longest block, the latest of equals.
    static func trim(_ blocks: inout [Range<Int>], by seconds: Int) {
        guard seconds > 0, !blocks.isEmpty else { return }
        var longest = 0
        for index in blocks.indices where blocks[index].count >= blocks[longest].count {
            longest = index
        }
        let block = blocks[longest]
        blocks[longest] = block.lowerBound..<(block.upperBound - min(seconds, block.count - 1))
    }

    /// The other items whose blocks lie in this item's window and hours, most time first.
    static func competitorLabels(
        for planner: ItemPlanner, item: Int, placed: [Placed], queue: [WorkItem], free: FreeTime
    ) -> [String] {
        guard planner.lower < planner.upper else { return [] }
        let bounds = (planner.lower * 60)..<(planner.upper * 60)
        var taken = [Int](repeating: 0, count: queue.count)
        var windows = [Range<Int>?](repeating: nil, count: free.days.count)
        for entry in placed where entry.item != item {
            let seconds = (entry.span.start * 60)..<(entry.span.end * 60)
            guard seconds.overlaps(bounds) else { continue }
            let window: Range<Int>
            if let known = windows[entry.day] {
                window = known
            } else {
                let span = planner.window(on: entry.day, free: free)
                window = span.end > span.start ? (span.start * 60)..<(span.end * 60) : 0..<0
                windows[entry.day] = window
            }
            let overlap = seconds.clamped(to: window).count
            taken[entry.item] += overlap
        }
        return taken.indices.filter { taken[$0] > 0 }
            .sorted { taken[$0] != taken[$1] ? taken[$0] > taken[$1] : $0 < $1 }
            .map { queue[$0].label }
    }
}
