import FoundationEssentials

/// A session under one of its tags, as the stats read it: a session with two tags is two of these.
package struct TaggedStatsSession: Sendable, Equatable {
    package var tag: String
    package var session: StatsSession

    package init(tag: String, session: StatsSession) {
        self.tag = tag
        self.session = session
    }
}

/// One tag's figures in the window (README, "Tags"): as a task's, counted by the same rules.
package struct TagStats: Sendable, Equatable {
    package var tag: String
    package var focusedSeconds: Int
    package var completed: Int
    package var interrupted: Int

    package init(tag: String, focusedSeconds: Int, completed: Int, interrupted: Int) {
        self.tag = tag
        self.focusedSeconds = focusedSeconds
        self.completed = completed
        self.interrupted = interrupted
    }
}

/// The "by tag" figures of a report: each tag's focused time inside the window (each session's
/// focus shared out by wall time, as the days and tasks are), and its sessions that started in
/// the window, completed or interrupted (an open session in neither). Sorted as tasks are: focused seconds descending, then
/// name. A session with several tags counts under each, so the tags' times may add up to more
/// than the total.
package enum StatsTags {
    package static func rows(_ input: StatsInput) -> [TagStats] {
        guard !input.taggedSessions.isEmpty else { return [] }
        let lo = input.calendar.startOfDay(input.window.from).timeIntervalSince1970
        let hi = input.calendar.startOfDay(input.window.to.adding(days: 1)).timeIntervalSince1970
        var exact: [String: Double] = [:]
        var completed: [String: Int] = [:]
        var interrupted: [String: Int] = [:]
        var touched: [String] = []
        for tagged in input.taggedSessions {
            let s = Double(tagged.session.start)
            let startsInside = s >= lo && s < hi
            let share = StatsMath.focusInside(focused: Double(tagged.session.focusedSeconds), start: s,
                                              end: Double(tagged.session.end), lo: lo, hi: hi)
            guard startsInside || share > 0 else { continue }
            if exact[tagged.tag] == nil { touched.append(tagged.tag) }
            exact[tagged.tag, default: 0] += share
            // An open session's time counts; its outcome counts nowhere (README, "Open sessions").
            if startsInside, !tagged.session.open {
                if tagged.session.completed { completed[tagged.tag, default: 0] += 1 } else { interrupted[tagged.tag, default: 0] += 1 }
            }
        }
        let rows = touched.map { tag in
            TagStats(tag: tag, focusedSeconds: StatsMath.seconds(exact[tag] ?? 0), completed: completed[tag] ?? 0,
                     interrupted: interrupted[tag] ?? 0)
        }
        return rows.sorted { a, b in
            a.focusedSeconds != b.focusedSeconds ? a.focusedSeconds > b.focusedSeconds : StatsMath.titleOrder(a.tag, b.tag)
        }
    }
}
