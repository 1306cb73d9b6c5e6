import FoundationEssentials

/// Places work blocks for items into free time before their due dates (a pure function).
///
/// Items go earliest due first (ties by id). Each one's blocks are placed as early as
/// possible: every block starts at the earliest free whole minute and is as long as its span
/// allows while the rest of the work still fits in the time after it, so nothing is given up
/// that could still fit. An item that cannot get all its remaining work before its due date
/// waits until every item that fits has been placed, then gets the most that fits in the time
/// left and is reported at risk: work that cannot make its due date (saved with `--force`)
/// never takes time from work that can.
///
/// Planning works on whole minutes: busy time is widened to whole minutes, the remaining work is
/// rounded up to whole minutes, and the leftover seconds are taken off the longest block at
/// the end (the latest of equals), so the planned total is exactly the remaining work.
package enum Scheduler {
    /// Nothing is planned further ahead than this.
    static let horizonDays = 3660

    /// busy: calendar events and anything else that is not free (kept past blocks, the running session).
    /// Returns blocks sorted by start. Deterministic: same inputs → same output, whatever the input order.
    package static func plan(items: [WorkItem], busy: [DateInterval], now: Date, rules: SchedulingRules) -> Schedule {
        let origin = Minutes.up(now)
        let queue = items.filter { $0.remainingSeconds > 0 }.sorted(by: isPlannedBefore)
        guard !queue.isEmpty else { return Schedule(blocks: [], atRisk: []) }
        let horizon = min(queue.map { Minutes.down($0.due) }.max() ?? origin, origin + horizonDays * 1440)
        let shapes = queue.map { shape(for: $0, rules: rules) }
        var free = FreeTime(
            rules: rules, busy: busy, origin: origin, horizon: horizon,
            threshold: shapes.map(\.gapMinimum).min() ?? 1, pause: pauseMinutes(rules)
        )

        var placed: [(item: Int, seconds: Range<Int>, day: Int)] = []
        var atRisk: [AtRiskItem] = []
        // Pass 1 places every item that fits whole; pass 2 the others, in the time left.
        var deferred: [Int] = []
        for pass in 1...2 {
            for index in pass == 1 ? Array(queue.indices) : deferred {
                let item = queue[index]
                let needed = min(Minutes.up(seconds: item.remainingSeconds), maximumWorkMinutes)
                var planner = makePlanner(item, shape: shapes[index], origin: origin, horizon: horizon, rules: rules, free: free)
                let fitsWhole = item.remainingSeconds <= maximumWorkMinutes * 60
                    && planner.fits(needed, room: 0, from: 0, free: &free)
                if pass == 1 && !fitsWhole {
                    deferred.append(index)
                    continue
                }
                let target = fitsWhole ? needed : planner.mostThatFits(needed, free: &free)
                let blocks = planner.place(target, free: &free)
                let complete = fitsWhole && blocks.reduce(0) { $0 + $1.span.length } == needed
                if !complete {
                    atRisk.append(AtRiskItem(
                        itemID: item.id, label: item.label, due: item.due, neededSeconds: item.remainingSeconds,
                        freeSeconds: planner.capacity(free: &free) * 60,
                        competitors: competitorLabels(for: planner, placed: placed, queue: queue, free: free)
                    ))
                }
                var seconds = blocks.map { ($0.span.start * 60)..<($0.span.end * 60) }
                if complete {
                    trim(&seconds, by: needed * 60 - item.remainingSeconds)
                }
                for (block, range) in zip(blocks, seconds) {
                    placed.append((item: index, seconds: range, day: block.day))
                }
            }
        }

        let blocks = placed.map { entry in
            PlannedBlock(
                itemID: queue[entry.item].id,
                start: Date(timeIntervalSince1970: Double(entry.seconds.lowerBound)),
                end: Date(timeIntervalSince1970: Double(entry.seconds.upperBound))
            )
        }.sorted {
            if $0.start != $1.start { return $0.start < $1.start }
            if $0.end != $1.end { return $0.end < $1.end }
            return $0.itemID < $1.itemID
        }
        return Schedule(blocks: blocks, atRisk: atRisk)
    }

    /// Free time (seconds) usable for `item` if nothing else were planned — for messages.
    /// Counted as work: the most the rules (hours, its earliest time, its span, the minimum
    /// block, breaks) would let it place before its due date.
    package static func freeSeconds(for item: WorkItem, busy: [DateInterval], now: Date, rules: SchedulingRules) -> Int {
        let origin = Minutes.up(now)
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

    /// Earliest due first, then id; the other fields only make the order total.
    static func isPlannedBefore(_ a: WorkItem, _ b: WorkItem) -> Bool {
        if a.due != b.due { return a.due < b.due }
        if a.id != b.id { return a.id < b.id }
        if a.label != b.label { return a.label < b.label }
        if a.remainingSeconds != b.remainingSeconds { return a.remainingSeconds < b.remainingSeconds }
        let aStart = a.notBefore ?? .distantPast
        let bStart = b.notBefore ?? .distantPast
        if aStart != bStart { return aStart < bStart }
        if (a.spanSeconds ?? 0) != (b.spanSeconds ?? 0) { return (a.spanSeconds ?? 0) < (b.spanSeconds ?? 0) }
        return (a.earliest?.minutes ?? -1) < (b.earliest?.minutes ?? -1)
    }

    static func pauseMinutes(_ rules: SchedulingRules) -> Int {
        Minutes.up(seconds: rules.breakSeconds)
    }

    /// The block shape of an item, in minutes. The span is rounded down to whole minutes
    /// (at least 1, at most a day), the minimum and the break up; a minimum above the span
    /// is lowered to the span.
    static func shape(for item: WorkItem, rules: SchedulingRules) -> BlockShape {
        let spanSeconds = item.spanSeconds.flatMap { $0 > 0 ? $0 : nil } ?? rules.defaultSpanSeconds
        let span = min(max(1, spanSeconds / 60), 1500)
        let remaining = min(Minutes.up(seconds: item.remainingSeconds), maximumWorkMinutes)
        return BlockShape(
            remaining: remaining, span: span,
            minimum: max(1, Minutes.up(seconds: rules.minimumBlockSeconds)), pause: pauseMinutes(rules)
        )
    }

    static func makePlanner(
        _ item: WorkItem, shape: BlockShape, origin: Int, horizon: Int, rules: SchedulingRules, free: FreeTime
    ) -> ItemPlanner {
        let lower = max(origin, item.notBefore.map(Minutes.up) ?? origin)
        let upper = min(Minutes.down(item.due), horizon)
        let earliest = item.earliest?.minutes
        return ItemPlanner(shape: shape, lower: lower, upper: upper, earliest: earliest, free: free)
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

    /// Earlier-planned items whose blocks lie in this item's window and hours, most time first.
    static func competitorLabels(
        for planner: ItemPlanner, placed: [(item: Int, seconds: Range<Int>, day: Int)], queue: [WorkItem], free: FreeTime
    ) -> [String] {
        guard planner.lower < planner.upper else { return [] }
        let bounds = (planner.lower * 60)..<(planner.upper * 60)
        var taken = [Int](repeating: 0, count: queue.count)
        var windows = [Range<Int>?](repeating: nil, count: free.days.count)
        for entry in placed where entry.seconds.overlaps(bounds) {
            let window: Range<Int>
            if let known = windows[entry.day] {
                window = known
            } else {
                let span = planner.window(on: entry.day, free: free)
                window = span.end > span.start ? (span.start * 60)..<(span.end * 60) : 0..<0
                windows[entry.day] = window
            }
            let overlap = entry.seconds.clamped(to: window).count
            taken[entry.item] += overlap
        }
        return taken.indices.filter { taken[$0] > 0 }
            .sorted { taken[$0] != taken[$1] ? taken[$0] > taken[$1] : $0 < $1 }
            .map { queue[$0].label }
    }
}
