import FoundationEssentials

/// The shape of one item's blocks, in whole minutes, and what a free gap can hold of it.
///
/// A gap of `g` minutes holding `n` blocks (each `minimum...span`, `pause` apart) can take any
/// amount of work in `n·minimum ... min(n·span, g − (n−1)·pause)`. Read as marginal gains,
/// a gap offers some *full* slots worth `span` each and at most one *partial* slot worth less;
/// the most work `k` blocks can hold across several gaps is the sum of the `k` largest slots.
struct BlockShape: Equatable {
    /// Longest block (attention span).
    let span: Int
    /// Shortest block for this item (the rules' minimum, or less for the exceptions below).
    let minimum: Int
    /// Break between two blocks in the same gap.
    let pause: Int
    /// Shortest gap that is used at all.
    let gapMinimum: Int
    /// Every length is a multiple of it (the 5-minute marks; 1 when blocks may end on any minute).
    let grain: Int
    /// The Pomodoro rhythm: after every `cycles` blocks in a row the break is `longPause`
    /// (nil: always `pause`). A gap then holds fewer blocks, counted from the blocks in a row
    /// that end just before it (`run`).
    let cycles: Int?
    let longPause: Int

    /// The shape for `remaining` minutes of work.
    /// - Remaining below the minimum block: one block of exactly the remaining.
    /// - Remaining that no count of blocks within `minimum...span` can make (for example
    ///   28 minutes with a 25-minute span and a 15-minute minimum): the fewest blocks the span
    ///   allows, of equal length, so the span always holds.
    /// With a grain, every length given is a multiple of it, and so is the minimum chosen.
    init(remaining: Int, span: Int, minimum: Int, pause: Int, grain: Int = 1, cycles: Int? = nil, longPause: Int = 0) {
        let s = max(1, span)
        let m = max(1, min(minimum, s))
        self.span = s
        self.pause = max(0, pause)
        self.cycles = cycles.flatMap { $0 > 0 ? $0 : nil }
        self.longPause = max(self.pause, longPause)
        self.gapMinimum = m
        self.grain = max(1, grain)
        if remaining > 0 {
            let blocks = (remaining + s - 1) / s
            self.minimum = blocks * m > remaining ? max(self.grain, Minutes.down(remaining / blocks, grain: self.grain)) : m
        } else {
            self.minimum = m
        }
    }

    /// The break after the `run`-th block in a row.
    func pause(after run: Int) -> Int {
        guard let cycles, run > 0, run % cycles == 0 else { return pause }
        return longPause
    }

    /// Blocks of a full span that fit in `length` minutes, after `run` blocks in a row.
    func fullSlots(in length: Int, run: Int = 0) -> Int {
        guard length > 0 else { return 0 }
        guard cycles != nil else { return (length + pause) / (span + pause) }
        var count = 0
        var used = span
        while used <= length {
            count += 1
            used += pause(after: run + count) + span
        }
        return count
    }

    /// The minutes `count` full blocks and the break after them take, after `run` in a row.
    private func taken(_ count: Int, run: Int) -> Int {
        guard cycles != nil else { return count * (span + pause) }
        var used = 0
        for index in stride(from: 1, through: count, by: 1) { used += span + pause(after: run + index) }
        return used
    }

    /// The extra work one more, shorter, block adds after the full ones (0 when none fits).
    func partialSlot(in length: Int, run: Int = 0) -> Int {
        guard length > 0 else { return 0 }
        let full = fullSlots(in: length, run: run)
        let extra = length - taken(full, run: run)
        guard extra >= 1, (full + 1) * minimum <= full * span + extra else { return 0 }
        return extra
    }

    /// The most work a gap of `length` minutes can hold, after `run` blocks in a row.
    func capacity(of length: Int, run: Int = 0) -> Int {
        fullSlots(in: length, run: run) * span + partialSlot(in: length, run: run)
    }

    /// Whether `work` minutes can be split into blocks of this shape at all (ignoring room):
    /// the fewest blocks the span allows must each be able to reach the minimum.
    func isSplittable(_ work: Int) -> Bool {
        if work == 0 { return true }
        if work < minimum { return false }
        return ((work + span - 1) / span) * minimum <= work
    }
}
