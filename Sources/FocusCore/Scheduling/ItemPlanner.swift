import FoundationEssentials

/// A free gap one item may use: a free span clipped to the item's window and hours (its `run`,
/// the blocks in a row just before it, kept when it starts where the span does). For a placed
/// block: the block, `run` being its place in its row.
struct ItemGap {
    var span: MinuteSpan
    var day: Int
}

/// Places one item's blocks into the free time, as early as possible, never giving up work
/// that could still fit: before each block it checks that the rest of the work still fits
/// in the time after it (an exact test, see `BlockShape`).
struct ItemPlanner {
    let shape: BlockShape
    /// The item's window [lower, upper) in minutes.
    let lower: Int
    let upper: Int
    /// Not before this local time of day (minutes after midnight); each day's window starts no earlier.
    let earliest: Int?
    /// The daily cap in minutes (README, "Planning"); nil: none. With a cap, fitting is
    /// judged day by day (the work each day's gaps hold, at most what the cap leaves that
    /// day): close, not exact, and a block never takes a day past its cap.
    let cap: Int?
    /// Minutes counted against the cap per day index: work done or promised, and placed blocks.
    private(set) var capUsed: [Int: Int]

    /// The item's gaps in time order, found as far as needed so far.
    private(set) var gaps: [ItemGap] = []
    /// fullPrefix[i] = full slots in gaps[0..<i].
    private var fullPrefix: [Int] = [0]
    /// The partial slot of each gap (0 when none).
    private var partials: [Int] = []
    /// Every gap before the due date has been found.
    private(set) var exhausted: Bool
    private var nextDay: Int
    private var cursor: Int
    /// Counts of partial slot values over gaps[countsFrom...], once the gaps are exhausted.
    private var partialCounts: [Int] = []
    private var countsFrom = -1

    init(shape: BlockShape, lower: Int, upper: Int, earliest: Int?, free: FreeTime, cap: Int? = nil, capUsed: [Int: Int] = [:]) {
        self.shape = shape
        self.lower = lower
        self.upper = upper
        self.earliest = earliest
        self.cap = cap
        self.capUsed = capUsed
        let noHours = !free.hasHours(notBefore: earliest)
        exhausted = lower >= upper || noHours
        nextDay = exhausted ? 0 : max(0, free.dayIndex(of: lower))
        cursor = lower
    }

    // MARK: Gaps

    /// Finds the next gap; false when there is none before the due date.
    private mutating func findNextGap(_ free: inout FreeTime) -> Bool {
        while !exhausted {
            guard free.ensure(nextDay) else { exhausted = true; break }
            let day = free.days[nextDay]
            if day.start >= upper { exhausted = true; break }
            var from = max(day.start, cursor)
            if let earliest { from = max(from, free.start(of: nextDay, notBefore: earliest)) }
            let to = min(day.end, upper)
            if from < to {
                let spans = day.free
                var index = ItemPlanner.firstSpan(endingAfter: from, in: spans)
                while index < spans.count, spans[index].start < to {
                    let start = max(spans[index].start, from)
                    let end = min(spans[index].end, to)
                    if end - start >= shape.gapMinimum {
                        let run = start == spans[index].start ? spans[index].run : 0
                        append(ItemGap(span: MinuteSpan(start: start, end: end, run: run), day: nextDay))
                        cursor = end
                        return true
                    }
                    index += 1
                }
            }
            nextDay += 1
        }
        return false
    }

    private static func firstSpan(endingAfter minute: Int, in spans: [MinuteSpan]) -> Int {
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].end <= minute { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private mutating func append(_ gap: ItemGap) {
        gaps.append(gap)
        fullPrefix.append(fullPrefix[fullPrefix.count - 1] + shape.fullSlots(in: gap.span.length, run: gap.span.run))
        partials.append(shape.partialSlot(in: gap.span.length, run: gap.span.run))
    }

    private mutating func findAllGaps(_ free: inout FreeTime) {
        while findNextGap(&free) {}
    }

    private func fullSlots(from index: Int) -> Int {
        fullPrefix[gaps.count] - fullPrefix[min(index, gaps.count)]
    }

    /// Sum of the `count` largest partial slots of gaps[index...] and `extra` (0 = none).
    /// Only called once every gap has been found.
    private mutating func largestPartials(_ count: Int, extra: Int, from index: Int) -> Int {
        if countsFrom < 0 || index < countsFrom {
            let largest = max(extra, partials.max() ?? 0)
            partialCounts = [Int](repeating: 0, count: largest + 1)
            for i in index..<gaps.count { partialCounts[partials[i]] += 1 }
            countsFrom = index
        }
        while countsFrom < index, countsFrom < gaps.count {
            partialCounts[partials[countsFrom]] -= 1
            countsFrom += 1
        }
        var left = count
        var sum = 0
        var value = max(extra, partialCounts.count - 1)
        while left > 0, value > 0 {
            var available = value < partialCounts.count ? partialCounts[value] : 0
            if value == extra { available += 1 }
            let taken = min(available, left)
            sum += taken * value
            left -= taken
            value -= 1
        }
        return sum
    }

    // MARK: Fitting

    /// Whether `work` minutes fit in a gap of `room` minutes (room ≤ 0: none; after `roomRun`
    /// blocks in a row) followed by gaps[index...]. Exact: `k` blocks hold any amount from
    /// `k·minimum` up to the sum of the `k` largest slots, and fewer than ⌈work/span⌉ blocks
    /// cannot hold the work.
    mutating func fits(_ work: Int, room: Int, from index: Int, roomCapLeft: Int = 0, roomRun: Int = 0, free: inout FreeTime) -> Bool {
        if work == 0 { return true }
        guard shape.isSplittable(work) else { return false }
        if cap != nil {
            let roomDay = index > 0 && index <= gaps.count ? gaps[index - 1].day : nil
            return cappedMost(room: room, roomDay: roomDay, roomCapLeft: roomCapLeft, roomRun: roomRun, from: index, free: &free) >= work
        }
        let needed = (work + shape.span - 1) / shape.span
        let inRoom = shape.fullSlots(in: room, run: roomRun)
        while inRoom + fullSlots(from: index) < needed, findNextGap(&free) {}
        let full = inRoom + fullSlots(from: index)
        if full >= needed { return true }
        let blocks = work / shape.minimum
        let most = full * shape.span + largestPartials(blocks - full, extra: shape.partialSlot(in: room, run: roomRun), from: index)
        return most >= work
    }

    /// The most work up to `work` minutes that fits in all the item's gaps.
    mutating func mostThatFits(_ work: Int, free: inout FreeTime) -> Int {
        findAllGaps(&free)
        if cap != nil { return min(work, cappedMost(room: 0, roomDay: nil, roomCapLeft: 0, roomRun: 0, from: 0, free: &free)) }
        let full = fullSlots(from: 0)
        let slots = full + partials.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        let blocks = min(work / shape.minimum, slots)
        let most = blocks <= full
            ? blocks * shape.span
            : full * shape.span + largestPartials(blocks - full, extra: 0, from: 0)
        return min(most, work)
    }

    /// The most work the rules could place in all the item's gaps (its free time, as work).
    mutating func capacity(free: inout FreeTime) -> Int {
        findAllGaps(&free)
        if cap != nil { return cappedMost(room: 0, roomDay: nil, roomCapLeft: 0, roomRun: 0, from: 0, free: &free) }
        return uncappedCapacity(free: &free)
    }

    /// The most work all the item's gaps could hold if it had no daily cap.
    mutating func uncappedCapacity(free: inout FreeTime) -> Int {
        findAllGaps(&free)
        return fullSlots(from: 0) * shape.span + partials.reduce(0, +)
    }

    /// Minutes the cap leaves on a day (unbounded without a cap), down to the grain.
    func capLeft(on day: Int) -> Int {
        guard let cap else { return Int.max }
        return Minutes.down(max(0, cap - (capUsed[day] ?? 0)), grain: shape.grain)
    }

    /// The most work a capped item could place in a gap of `room` minutes on `roomDay` (with
    /// `roomCapLeft` of that day's cap left) and in gaps[index...]: per day, what its gaps
    /// hold, at most what the cap leaves (nothing when that is below the shortest block).
    private mutating func cappedMost(room: Int, roomDay: Int?, roomCapLeft: Int, roomRun: Int, from index: Int, free: inout FreeTime) -> Int {
        findAllGaps(&free)
        func bounded(_ work: Int, _ left: Int) -> Int { left < shape.minimum ? 0 : min(work, left) }
        var total = 0
        var day = roomDay
        var dayWork = room > 0 ? shape.capacity(of: room, run: roomRun) : 0
        var dayLeft = roomCapLeft
        for gap in gaps[min(index, gaps.count)...] {
            if gap.day != day {
                total += bounded(dayWork, dayLeft)
                day = gap.day
                dayWork = 0
                dayLeft = capLeft(on: gap.day)
            }
            dayWork += shape.capacity(of: gap.span.length, run: gap.span.run)
        }
        return total + bounded(dayWork, dayLeft)
    }

    // MARK: Placing

    /// Places `work` minutes, block by block, each at the earliest free minute and as long as
    /// the span allows while the rest still fits afterwards; takes each block (with its
    /// breaks) out of the free time. Call with work that fits.
    mutating func place(_ work: Int, free: inout FreeTime) -> [ItemGap] {
        var placed: [ItemGap] = []
        var left = work
        var index = 0
        guard left > 0, !gaps.isEmpty || findNextGap(&free) else { return placed }
        var position = gaps[0].span.start
        var run = gaps[0].span.run
        while left > 0 {
            let gap = gaps[index]
            let room = gap.span.end - position
            let dayLeft = capLeft(on: gap.day)
            var chosen: Int?
            if room >= shape.minimum, dayLeft >= shape.minimum {
                var length = Minutes.down(min(shape.span, left, room, dayLeft), grain: shape.grain)
                if left - length > 0, left - length < shape.minimum { length = left - shape.minimum }
                // The break after this block, and the blocks in a row the room after it follows.
                let after = shape.pause(after: run + 1)
                let nextRun = (shape.cycles.map { (run + 1) % $0 == 0 } ?? false) ? 0 : run + 1
                while length >= shape.minimum {
                    let roomCapLeft = dayLeft == Int.max ? 0 : dayLeft - length
                    if length == left
                        || fits(left - length, room: room - length - after, from: index + 1, roomCapLeft: roomCapLeft, roomRun: nextRun,
                                free: &free)
                    {
                        chosen = length
                        break
                    }
                    length -= shape.grain
                }
            }
            if let length = chosen {
                run += 1
                let block = MinuteSpan(start: position, end: position + length, run: run)
                placed.append(ItemGap(span: block, day: gap.day))
                free.occupy(block, day: gap.day, run: run)
                if cap != nil { capUsed[gap.day, default: 0] += length }
                left -= length
                position = block.end + shape.pause(after: run)
                if shape.cycles.map({ run % $0 == 0 }) ?? false { run = 0 }
            } else {
                index += 1
                guard index < gaps.count || findNextGap(&free) else { break }
                position = gaps[index].span.start
                run = gaps[index].span.run
            }
        }
        return placed
    }

    /// The item's window on a built day, in minutes (empty when end ≤ start).
    func window(on day: Int, free: FreeTime) -> MinuteSpan {
        let workday = free.days[day]
        var from = max(workday.start, lower)
        if let earliest { from = max(from, free.start(of: day, notBefore: earliest)) }
        return MinuteSpan(start: from, end: min(workday.end, upper))
    }
}
