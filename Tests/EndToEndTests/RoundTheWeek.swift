import Testing

extension Sandbox {
    /// The planning settings the tests about sync and publishing were written against (working
    /// hours 08:00–22:00 on every day, no lunch gap, no daily cap): for tests about something
    /// other than the default working week (README, "Planning").
    func roundTheWeek() async throws {
        for (key, value) in [("day_start", "08:00"), ("day_end", "22:00"), ("hours.sat", "default"), ("hours.sun", "default"),
                             ("lunch", "off"), ("max_per_day", "none")] {
            let r = try await run("config", "set", key, value)
            #expect(r.code == 0, "config set \(key) \(value): \(r.err)")
        }
    }
}
