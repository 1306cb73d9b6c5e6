/// Small integers by row id, for the loops that visit every session of a stats window.
///
/// Open addressing with a multiplicative hash: a lookup is a multiply, a shift and usually one
/// comparison. A `Dictionary<Int64, _>` hashes with SipHash (about a hundred instructions a
/// lookup, twice per session), and the first use of each new Dictionary specialisation in a
/// process makes the Swift runtime check its `Hashable` requirement by scanning every protocol
/// conformance in the binary (some 6,500 records) — for a one-shot command, a cost of its own.
package struct IDTable: Sendable {
    private var keys: [Int64]
    private var values: [Int32]
    private var mask: Int
    /// How many ids the table holds.
    package private(set) var count = 0

    /// No row id is this value (SQLite's rowids are positive; focus's ids too).
    private static let vacant = Int64.min

    /// A table with room for `capacity` ids before it grows.
    package init(capacity: Int = 32) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = [Int64](repeating: IDTable.vacant, count: size)
        values = [Int32](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always) private func home(_ id: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// The value stored for `id`, or nil.
    package subscript(_ id: Int64) -> Int? {
        var i = home(id)
        while true {
            let k = keys[i]
            if k == id { return Int(values[i]) }
            if k == IDTable.vacant { return nil }
            i = (i + 1) & mask
        }
    }

    /// The value stored for `id`; when there is none, stores `next()` and returns it.
    package mutating func value(for id: Int64, orAdd next: () -> Int) -> Int {
        if let found = self[id] { return found }
        let value = next()
        insert(id, value)
        return value
    }

    /// Stores `value` for `id`, which the table must not hold yet.
    package mutating func insert(_ id: Int64, _ value: Int) {
        place(id, Int32(truncatingIfNeeded: value))
        count += 1
        if count * 2 > keys.count { grow() }
    }

    /// Puts `id` in the first vacant slot from its home.
    private mutating func place(_ id: Int64, _ value: Int32) {
        var i = home(id)
        while keys[i] != IDTable.vacant { i = (i + 1) & mask }
        keys[i] = id
        values[i] = value
    }

    /// Every id held, in no particular order.
    package var ids: [Int64] { keys.filter { $0 != IDTable.vacant } }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [Int64](repeating: IDTable.vacant, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (k, v) in zip(oldKeys, oldValues) where k != IDTable.vacant { place(k, v) }
    }
}
