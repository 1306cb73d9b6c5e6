import FoundationEssentials

/// A planned block as the reminder schedule sees it.
package struct ReminderBlock: Sendable, Equatable {
    package var id: Int64
    /// `Task/Subtask`, as the person names it.
    package var path: String
    package var start: Date
    package var end: Date

    package init(id: Int64, path: String, start: Date, end: Date) {
        self.id = id
        self.path = path
        self.start = start
        self.end = end
    }

    /// The task's title: a task title never holds a `/`, so the path's first one ends it.
    package var task: String { path.firstIndex(of: "/").map { String(path[..<$0]) } ?? path }
    /// The subtask's title (everything after the first `/`).
    package var subtask: String? { path.firstIndex(of: "/").map { String(path[path.index(after: $0)...]) } }
}

/// The two reminders a block can have; the raw values are stored in `sentReminder.kind`.
package enum ReminderKind: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The lead-time reminder, `reminder` seconds before the block starts.
    case before
    /// The reminder at the block's start.
    case start
}

/// A reminder already sent (remembered across restarts).
package struct SentReminder: Sendable, Equatable, Hashable {
    package var blockID: Int64
    package var kind: ReminderKind

    package init(blockID: Int64, kind: ReminderKind) {
        self.blockID = blockID
        self.kind = kind
    }
}

/// A reminder to post now.
package struct DueReminder: Sendable, Equatable {
    package var reminder: SentReminder
    /// The moment it was due.
    package var dueAt: Date
    package var notice: Notice
}

/// What the daemon does at one moment: the reminders to post now, whether ended blocks need
/// settling, and when to look again.
package struct ReminderDecision: Sendable, Equatable {
    package var due: [DueReminder]
    /// Blocks that have ended while still planned: the re-plan settles them (done, partial, missed).
    package var endedBlockIDs: [Int64]
    /// The next instant something becomes due (a reminder or a block's end); nil when nothing is ahead.
    package var nextWake: Date?
}

/// Which block reminders are due, as a pure function of the plan, what was sent and the moment.
package enum ReminderSchedule {
    /// A reminder whose moment passed longer ago than this is skipped, never sent late
    /// (after a suspend, or when the daemon starts after the moment).
    package static let graceSeconds: TimeInterval = 120

    /// - Parameters:
    ///   - blocks: planned blocks (any order); others are the caller's to leave out.
    ///   - sent: reminders already sent.
    ///   - runningBlockID: the block of the running session, which gets no reminders.
    ///   - leadSeconds: the lead time of the early reminder; 0 sends only the one at the start.
    ///   - calendar: the person's zone, for the block's times in the notice.
    package static func decide(blocks: [ReminderBlock], sent: Set<SentReminder>, runningBlockID: Int64?,
                               leadSeconds: Int, now: Date, calendar: LocalCalendar) -> ReminderDecision {
        var due: [DueReminder] = []
        var ended: [Int64] = []
        var next: Date?
        func wake(at instant: Date) {
            if instant > now, next.map({ instant < $0 }) ?? true { next = instant }
        }
        let ordered = blocks.sorted { ($0.start, $0.end, $0.id) < ($1.start, $1.end, $1.id) }
        for block in ordered {
            if block.end <= now {
                ended.append(block.id)
                continue
            }
            wake(at: block.end)
            if block.id == runningBlockID { continue }
            for kind in ReminderKind.allCases {
                let moment: Date
                switch kind {
                case .before:
                    guard leadSeconds > 0, now < block.start else { continue }
                    moment = block.start.addingTimeInterval(-Double(leadSeconds))
                case .start:
                    moment = block.start
                }
                let key = SentReminder(blockID: block.id, kind: kind)
                if sent.contains(key) { continue }
                if moment > now {
                    wake(at: moment)
                } else if now.timeIntervalSince(moment) <= graceSeconds {
                    due.append(DueReminder(reminder: key, dueAt: moment, notice: notice(kind, block: block, now: now, calendar: calendar)))
                }
            }
        }
        return ReminderDecision(due: due, endedBlockIDs: ended, nextWake: next)
    }

    /// "Thesis/Chapter 2 — 50 min block in 5 min" / "Thesis/Chapter 2 — 50 min block starts now · run `focus start`",
    /// with the block's local times as the body: "15:00–15:50".
    package static func notice(_ kind: ReminderKind, block: ReminderBlock, now: Date, calendar: LocalCalendar) -> Notice {
        let length = minutes(block.end.timeIntervalSince(block.start))
        let times = "\(calendar.timeOfDay(of: block.start))–\(calendar.timeOfDay(of: block.end))"
        switch kind {
        case .before:
            let left = minutes(block.start.timeIntervalSince(now))
            return Notice(kind: .blockReminder, summary: "\(block.path) — \(length) block in \(left)", body: times)
        case .start:
            return Notice(kind: .blockStarts, summary: "\(block.path) — \(length) block starts now · run `focus start`", body: times)
        }
    }

    /// Whole minutes, rounded to nearest and at least one: "50 min".
    static func minutes(_ seconds: TimeInterval) -> String {
        "\(max(1, Int((seconds / 60).rounded()))) min"
    }
}
