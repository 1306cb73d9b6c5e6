import FocusText
import FoundationEssentials

/// What a calendar refresh did to the plan, said as desktop notices (README, "Your real
/// calendar"): a subtask whose next block moved ("Thesis/Chapter 2 moved 14:00 → 16:00: new
/// event 'Supervisor meeting'"), and work that is now at risk. Pure: the daemon gives the plan
/// before and after, the busy events the refresh brought, and posts what this returns.
package enum PlanChanges {
    /// A planned block, as the notices need it.
    package struct Block: Sendable, Equatable {
        package var subtaskID: Int64
        package var path: String
        package var start: Date
        package var end: Date

        package init(subtaskID: Int64, path: String, start: Date, end: Date) {
            self.subtaskID = subtaskID
            self.path = path
            self.start = start
            self.end = end
        }
    }

    /// Work at risk, as `plan` lists it.
    package struct Risk: Sendable, Equatable {
        package var path: String
        package var due: Date
        package var neededSeconds: Int
        package var freeSeconds: Int

        package init(path: String, due: Date, neededSeconds: Int, freeSeconds: Int) {
            self.path = path
            self.due = due
            self.neededSeconds = neededSeconds
            self.freeSeconds = freeSeconds
        }
    }

    /// At most this many notices; the rest are counted in a last line.
    package static let maximumNotices = 3

    /// The notices for a change of plan after `now`. `newEvents` are the busy events the
    /// refresh brought (used to say why a block moved): one whose summary was already busy
    /// before (`previousSummaries`) is a changed event, any other a new one.
    package static func notices(before: [Block], after: [Block], riskBefore: [Risk], riskAfter: [Risk], newEvents: [BusyEvent],
                                previousSummaries: Set<String> = [], now: Date, calendar: LocalCalendar) -> [Notice] {
        func firstAhead(_ blocks: [Block]) -> [Int64: Block] {
            var first: [Int64: Block] = [:]
            for block in blocks where block.end > now {
                if let seen = first[block.subtaskID], seen.start <= block.start { continue }
                first[block.subtaskID] = block
            }
            return first
        }
        let was = firstAhead(before)
        let now_ = firstAhead(after)
        var lines: [(sortKey: Date, summary: String, body: String)] = []
        for (subtask, old) in was {
            guard let new = now_[subtask], new.start != old.start else { continue }
            let reason = newEvents.filter { $0.start < old.end && $0.end > old.start && !$0.allDay }.min { $0.start < $1.start }
                ?? newEvents.filter { $0.start < old.end && $0.end > old.start }.first
            let why = reason.map { ": \(previousSummaries.contains($0.summary) ? "changed" : "new") event '\(DisplayText(String($0.summary.prefix(80))).string)'" } ?? ": busy time changed"
            let summary = "\(DisplayText(old.path).string) moved \(moment(old.start, from: new.start, calendar: calendar)) → \(moment(new.start, from: old.start, calendar: calendar))\(why)"
            lines.append((old.start, summary, "The plan changed after a calendar refresh."))
        }
        let riskyBefore = Set(riskBefore.map(\.path))
        for risk in riskAfter where !riskyBefore.contains(risk.path) {
            let summary = "\(DisplayText(risk.path).string) is now at risk: needs \(DurationParser.format(risk.neededSeconds)), "
                + "\(DurationParser.format(risk.freeSeconds)) free before \(RelativeTime.shortDateTime(risk.due, calendar: calendar, now: now))"
            lines.append((risk.due, summary, "A calendar refresh took the time it was planned in."))
        }
        lines.sort { $0.sortKey != $1.sortKey ? $0.sortKey < $1.sortKey : $0.summary < $1.summary }
        var notices = lines.prefix(maximumNotices).map { Notice(kind: .planChanged, summary: $0.summary, body: $0.body) }
        if lines.count > maximumNotices {
            let more = lines.count - maximumNotices
            notices.append(Notice(kind: .planChanged, summary: "and \(more) more change\(more == 1 ? "" : "s") to the plan",
                                  body: "Run `focus plan` to see it."))
        }
        return notices
    }

    /// `14:00`, or `Mon 14:00` when the other end of the move is on another day.
    static func moment(_ date: Date, from other: Date, calendar: LocalCalendar) -> String {
        let time = calendar.timeOfDay(of: date).description
        guard calendar.day(of: date) != calendar.day(of: other) else { return time }
        return RelativeTime.shortDay(calendar.day(of: date)).prefix(3) + " " + time
    }
}
