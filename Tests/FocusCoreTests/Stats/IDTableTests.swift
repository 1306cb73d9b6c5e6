import FocusCore
import Testing

@Suite struct IDTableTests {
    @Test func keepsEveryIdsValueThroughGrowthAndCollisions() {
        var table = IDTable(capacity: 2)
        // Ids that share low bits, large ids, and negative ones (never rowids, but still keys).
        let ids: [Int64] = (0..<500).map { Int64($0) * 1024 } + [Int64.max, -5, 1, 3, 1 << 40]
        for (k, id) in ids.enumerated() {
            #expect(table.value(for: id) { k } == k)
        }
        #expect(table.count == ids.count)
        for (k, id) in ids.enumerated() {
            #expect(table[id] == k)
            // Asking again never adds or changes anything.
            #expect(table.value(for: id) { -1 } == k)
        }
        #expect(table.count == ids.count)
        #expect(table[7] == nil)
        #expect(Set(table.ids) == Set(ids))
    }

    @Test func titlesFallBackToTheIdWhenUnknown() {
        var titles = StatsTitles()
        titles.set(12, "Thesis")
        titles.set(12, "Thesis (renamed)")
        #expect(titles.title(12) == "Thesis (renamed)")
        #expect(titles.title(13) == "#13")
    }
}
