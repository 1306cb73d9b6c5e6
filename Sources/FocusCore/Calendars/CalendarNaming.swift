import FoundationEssentials

/// Names for calendars that arrive from elsewhere (a feed another machine subscribes to, a
/// calendar of a connected CalDAV account): one never takes the name of a calendar here, so no
/// calendar is replaced to make room for another (README, "Two machines").
package enum CalendarNaming {
    /// `name` when no calendar here has it (`taken`: the name keys, `TaskCatalog.key`, of the
    /// others), else `name (host)`, else `name (host) 2`, `3`, ….
    package static func free(_ name: String, host: String, taken: Set<String>) -> String {
        if !taken.contains(TaskCatalog.key(name)) { return name }
        let qualified = "\(name) (\(host))"
        var candidate = qualified
        var number = 1
        while taken.contains(TaskCatalog.key(candidate)) {
            number += 1
            candidate = "\(qualified) \(number)"
        }
        return candidate
    }
}
