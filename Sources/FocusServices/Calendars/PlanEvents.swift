import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// The plan as calendar events, for `calendar export` and publishing: stable UIDs, so that a
/// calendar app updates an event instead of duplicating it.
package enum PlanEvents {
    /// The planned blocks still ahead (ending after `now`) as events with stable UIDs. `blocks`
    /// must hold every block of the days concerned, sorted by start, for the ordinals.
    package static func events(_ blocks: [BlockView], now: Date, calendar: LocalCalendar, publisher: String? = nil) -> [ExportEvent] {
        blockEvents(blocks, now: now, calendar: calendar, publisher: publisher).map(\.event)
    }

    /// Each planned block still ahead with its event: UIDs from `Publication.blockUID` (the
    /// subtask's sync name when it has one), a pinned block's the UID of the event the person
    /// moved; ordinals skip the UIDs pinned blocks hold.
    package static func blockEvents(_ blocks: [BlockView], now: Date, calendar: LocalCalendar, publisher: String?) -> [(event: ExportEvent, block: BlockView)] {
        struct DayKey: Hashable { let subtask: Int64, day: Int }
        let pinned = Set(blocks.compactMap(\.pinnedUID))
        var counts: [DayKey: Int] = [:]
        var events: [(event: ExportEvent, block: BlockView)] = []
        for block in blocks {
            var uid = block.pinnedUID ?? ""
            if block.pinnedUID == nil {
                let day = calendar.day(of: block.start)
                let key = DayKey(subtask: block.subtaskID, day: day.dayNumber)
                var ordinal = counts[key] ?? 0
                repeat {
                    ordinal += 1
                    uid = Publication.blockUID(subtaskSyncUID: block.subtaskSyncUID, publisher: publisher, subtaskID: block.subtaskID,
                                               day: day, ordinal: ordinal)
                } while pinned.contains(uid)
                counts[key] = ordinal
            }
            guard block.status == .planned, block.end > now else { continue }
            events.append((ExportEvent(uid: uid, start: block.start, end: block.end, summary: block.path,
                                       description: "Work block planned by focus.", status: "CONFIRMED"), block))
        }
        return events
    }

    /// One worked session as a calendar event. The UID is the session's sync name once it has
    /// one (README, "Two machines": the same session has it on every machine), else its local
    /// identity (task id, subtask id or 0, start in UTC); the same in every export while the
    /// session exists unchanged.
    /// `25 min`, or to the second when it is not whole minutes (`1 min 30 s`, `45 s`): rounding
    /// made 90 s focused of 120 planned read "Focused 2 min of 2 planned".
    static func minutesText(_ seconds: Int) -> String {
        let (m, s) = (max(0, seconds) / 60, max(0, seconds) % 60)
        if s == 0 { return "\(m) min" }
        return m == 0 ? "\(s) s" : "\(m) min \(s) s"
    }

    package static func sessionEvent(_ r: SessionRecord, identity: SessionIdentity) -> ExportEvent {
        let path = r.subtask.map { "\(r.task)/\($0)" } ?? r.task
        let summary: String
        switch r.status {
        case .completed: summary = "✓ \(path)"
        case .interrupted: summary = "✗ \(path) (interrupted)"
        case .open: summary = "↑ \(path) (open)"
        }
        let startDate = Date(timeIntervalSince1970: Double(r.start))
        let uid = identity.syncUID ?? "session-\(identity.taskID)-\(identity.subtaskID ?? 0)-\(ICSWriter.utcDateTime(startDate))@focus"
        var description = "Focused \(minutesText(r.focusedSeconds))"
        // An open session (a stopwatch) had no planned length to fall short of.
        if r.plannedSeconds > 0, r.plannedSeconds != r.focusedSeconds { description += " of \(minutesText(r.plannedSeconds)) planned" }
        description += "."
        if let note = r.note, !note.isEmpty { description += "\n" + note }
        return ExportEvent(uid: uid, start: startDate, end: Date(timeIntervalSince1970: Double(r.end)),
                           summary: summary, description: description)
    }
}
