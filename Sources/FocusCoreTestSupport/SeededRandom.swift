/// The one seeded random generator of the test targets (SplitMix64): every random instance a
/// test makes can be rebuilt from its seed, and a failure names the seed to replay.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range` (the tiny modulo bias does not matter in tests).
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int(next() % width)
    }

    /// True `percent` times in a hundred.
    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    package mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    package mutating func shuffled<T>(_ values: [T]) -> [T] {
        var result = values
        if result.count < 2 { return result }
        for index in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(index, int(0...index))
        }
        return result
    }
}
