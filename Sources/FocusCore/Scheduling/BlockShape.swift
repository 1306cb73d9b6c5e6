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

    /// The shape for `remaining` minutes of work.
    /// - Remaining below the minimum block: one block of exactly the remaining.
    /// - Remaining that no count of blocks within `minimum...span` can make (for example
    ///   28 minutes with a 25-minute span and a 15-minute minimum): the fewest blocks the span
    ///   allows, of equal length, so the span always holds.
    init(remaining: Int, span: Int, minimum: Int, pause: Int) {
        let s = max(1, span)
        let m = max(1, min(minimum, s))
        self.span = s
        self.pause = max(0, pause)
        self.gapMinimum = m
        if remaining > 0 {
            let blocks = (remaining + s - 1) / s
            self.minimum = blocks * m > remaining ? max(1, remaining / blocks) : m
        } else {
            self.minimum = m
        }
    }

    /// Blocks of a full span that fit in `length` minutes.
    func fullSlots(in length: Int) -> Int {
        length <= 0 ? 0 : (length + pause) / (span + pause)
    }

    /// The extra work one more, shorter, block adds after the full ones (0 when none fits).
    func partialSlot(in length: Int) -> Int {
        guard length > 0 else { return 0 }
        let full = fullSlots(in: length)
        let extra = length - full * (span + pause)
        guard extra >= 1, (full + 1) * minimum <= full * span + extra else { return 0 }
        return extra
    }

    /// The most work a gap of `length` minutes can hold.
    func capacity(of length: Int) -> Int {
        fullSlots(in: length) * span + partialSlot(in: length)
    }

    /// Whether `work` minutes can be split into blocks of this shape at all (ignoring room):
    /// the fewest blocks the span allows must each be able to reach the minimum.
    func isSplittable(_ work: Int) -> Bool {
        if work == 0 { return true }
        if work < minimum { return false }
        return ((work + span - 1) / span) * minimum <= work
    }
}
