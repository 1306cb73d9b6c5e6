import FoundationEssentials

/// Which scheduled block `focus start` with no path works on.
package enum BlockSelection {
    /// The planned block running now (the earliest-starting one if several), else the next
    /// planned block that starts later on the same local day. Nil when there is none today.
    package static func pick(_ blocks: [ScheduledBlock], now: Date, calendar: LocalCalendar) -> ScheduledBlock? {
        let planned = blocks.filter { $0.status == .planned }.sorted {
            if $0.startedAt != $1.startedAt { return $0.startedAt < $1.startedAt }
            return ($0.id ?? 0) < ($1.id ?? 0)
        }
        if let current = planned.first(where: { $0.startedAt <= now && now < $0.endedAt }) { return current }
        let today = calendar.day(of: now)
        return planned.first { $0.startedAt > now && calendar.day(of: $0.startedAt) == today }
    }
}
