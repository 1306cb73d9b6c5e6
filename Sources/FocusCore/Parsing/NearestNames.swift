/// Names close to one typed wrongly, for "did you mean" suggestions: a command (`statz` →
/// `stats`, `strat` → `start`), an option, a config key (`wrok` → `work`) or a task title.
package enum NearestNames {
    /// The names that start with `typed` or are within a small edit distance of it (one edit in
    /// three letters, at most three), closest first, at most `limit`.
    package static func closest(to typed: String, among names: [String], limit: Int = 3) -> [String] {
        let key = Array(typed.lowercased())
        guard !key.isEmpty else { return [] }
        let scored: [(Int, String)] = names.compactMap { name in
            let k = Array(name.lowercased())
            if k.starts(with: key) { return (0, name) }
            let d = editDistance(key, k)
            return d <= max(1, min(3, key.count / 3)) ? (d, name) : nil
        }
        return scored.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(limit).map(\.1)
    }

    /// Edit distance with transpositions (the optimal string alignment distance): insertions,
    /// deletions, substitutions and two neighbouring letters swapped each cost one, so `strat`
    /// is one edit from `start` and `wrok` one from `work`, as a typist makes them.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
