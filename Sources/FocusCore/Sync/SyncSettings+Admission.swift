import FoundationEssentials

extension SyncSettings {
    /// The most days off (`off.…` keys) a sync takes from the calendar: the latest ones are kept.
    package static let maximumDaysOff = 2000
    /// The most feeds (`feed.…` keys) a sync takes from the calendar: those of the smallest keys.
    package static let maximumFeeds = 100

    /// A key read from the calendar that this machine does not merge, and why.
    package struct Skipped: Sendable, Equatable, Codable {
        package var key: String
        package var reason: String

        package init(key: String, reason: String) {
            self.key = key
            self.reason = reason
        }

        /// `off.today (not a day: YYYY-MM-DD)`.
        package var description: String { "\(key) (\(reason))" }
    }

    /// The settings the calendar holds, as this machine merges them (README, "Two machines"):
    /// a key this build knows whose value it cannot read (`off.today`, `day_start = 25:00`, a
    /// feed without its name) is skipped alone, and the rest merged; days off and feeds past
    /// their bounds are skipped too, so no calendar makes a sync do unbounded work or write a
    /// config no command can read. A key this build does not know travels untouched. The
    /// merge then writes the calendar's event again without what was skipped.
    package static func admitted(_ remote: SyncSettings) -> (settings: SyncSettings, skipped: [Skipped]) {
        var kept = SyncSettings()
        var skipped: [Skipped] = []
        var daysOff: [String] = [], feeds: [String] = []
        for key in remote.values.keys.sorted() {
            guard let value = remote.values[key] else { continue }
            if let reason = malformed(key, value.value) {
                skipped.append(Skipped(key: key, reason: reason))
                continue
            }
            if key.hasPrefix("off.") { daysOff.append(key) } else if key.hasPrefix("feed.") { feeds.append(key) }
            kept.values[key] = value
        }
        // Days off sort by date: the earliest go first; feeds by key.
        for key in daysOff.dropLast(maximumDaysOff) {
            kept.values[key] = nil
            skipped.append(Skipped(key: key, reason: "more than \(maximumDaysOff) days off; the latest are kept"))
        }
        for key in feeds.dropFirst(maximumFeeds) {
            kept.values[key] = nil
            skipped.append(Skipped(key: key, reason: "more than \(maximumFeeds) feeds"))
        }
        return (kept, skipped)
    }

    /// Why a value this build knows the form of cannot be read; nil when it can (or the key is
    /// one this build does not know).
    static func malformed(_ key: String, _ value: String) -> String? {
        if key.hasPrefix("off.") {
            let day = key.dropFirst(4)
            guard day.count == 10, let parsed = DateParser.parseDate(day), parsed.description == day else {
                return "not a day: YYYY-MM-DD"
            }
            return value == "yes" || value == "no" ? nil : "neither yes nor no"
        }
        if key.hasPrefix("feed.") {
            return value.isEmpty || Feed.parse(value) != nil ? nil : "not a feed's address and name"
        }
        guard configKeys.contains(key), key != "off" else { return nil }
        var config = FocusConfig()
        do {
            try config.set(key, to: value)
            return nil
        } catch {
            return "not a value of \(key)"
        }
    }
}
