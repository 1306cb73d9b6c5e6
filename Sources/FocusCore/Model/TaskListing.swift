import FoundationEssentials

/// The order of `focus task list`.
package enum TaskSort: String, CaseIterable, Sendable {
    /// Nearest due date of a task's open subtasks first; tasks with none after, by title.
    case due
    /// By title (case-insensitive, NFC).
    case title
    /// Least done first: logged over estimated work across a task's open subtasks; tasks with
    /// no estimated open work after, by title.
    case progress
}

/// Which tasks and subtasks `focus task list` shows. The filters hold together (all must match).
package struct TaskFilter: Sendable, Equatable {
    /// Text in a task's or subtask's title or notes, case-insensitive and in NFC.
    package var search: String?
    /// Open subtasks due at or before this instant (the end of a local day).
    package var dueBy: Date?
    /// Open subtasks marked at risk by the plan, or overdue.
    package var atRisk: Bool

    package init(search: String? = nil, dueBy: Date? = nil, atRisk: Bool = false) {
        self.search = search
        self.dueBy = dueBy
        self.atRisk = atRisk
    }

    /// Whether any filter is set.
    package var isActive: Bool { search != nil || dueBy != nil || atRisk }
}

/// The listing of `focus task list`: filtered and sorted in one pass over the tasks. Pure.
package enum TaskListing {
    /// The tasks the filter keeps, each with the subtasks it keeps, in the asked order. `tasks`
    /// come in title order (as `AppDatabase.overview` reads them), which breaks every tie.
    ///
    /// A subtask filter (`dueBy`, `atRisk`) keeps a task when one of its open subtasks matches,
    /// and shows only the subtasks that match. `search` keeps a task whose title or notes hold
    /// the text with all of its subtasks (as the other filters leave them), and otherwise only
    /// the subtasks whose title or notes hold it.
    package static func apply(_ tasks: [TaskOverview], filter: TaskFilter, sort: TaskSort, now: Date) -> [TaskOverview] {
        let needle = filter.search.map(TaskCatalog.key).flatMap { $0.isEmpty ? nil : $0 }
        var kept: [(overview: TaskOverview, index: Int, rank: Rank)] = []
        kept.reserveCapacity(tasks.count)
        for (index, original) in tasks.enumerated() {
            var t = original
            if filter.dueBy != nil || filter.atRisk {
                t.subtasks = t.subtasks.filter { s in
                    guard !s.subtask.done else { return false }
                    if let dueBy = filter.dueBy, !(s.subtask.due.map { $0 <= dueBy } ?? false) { return false }
                    if filter.atRisk, !(s.subtask.atRisk || s.isOverdue(now: now)) { return false }
                    return true
                }
                if t.subtasks.isEmpty { continue }
            }
            if let needle, !(contains(t.task.title, needle) || contains(t.task.notes, needle)) {
                t.subtasks = t.subtasks.filter { contains($0.subtask.title, needle) || contains($0.subtask.notes, needle) }
                if t.subtasks.isEmpty { continue }
            }
            kept.append((t, index, rank(t, sort)))
        }
        if sort != .title {
            kept.sort { a, b in a.rank != b.rank ? a.rank < b.rank : a.index < b.index }
        }
        return kept.map(\.overview)
    }

    /// Where a task sorts before its title breaks the tie: lower first; `.none` (no due date,
    /// no estimate) after every value.
    enum Rank: Comparable {
        case value(Double)
        case none
    }

    static func rank(_ t: TaskOverview, _ sort: TaskSort) -> Rank {
        switch sort {
        case .title:
            return .none
        case .due:
            // Subtasks are listed soonest due first, but done ones (with --all) are skipped.
            let due = t.subtasks.lazy.filter { !$0.subtask.done }.compactMap(\.subtask.due).min()
            return due.map { .value($0.timeIntervalSinceReferenceDate) } ?? .none
        case .progress:
            return progress(t).map { .value($0) } ?? .none
        }
    }

    /// Logged over estimated work across the open subtasks with an estimate (each counted up to
    /// its estimate), 0...1; nil when no open subtask has an estimate.
    package static func progress(_ t: TaskOverview) -> Double? {
        var logged = 0, estimated = 0
        for s in t.subtasks where !s.subtask.done {
            guard let e = s.subtask.estimateSeconds, e > 0 else { continue }
            estimated += e
            logged += min(max(0, s.loggedSeconds), e)
        }
        return estimated > 0 ? Double(logged) / Double(estimated) : nil
    }

    private static func contains(_ text: String?, _ needle: String) -> Bool {
        guard let text else { return false }
        return TaskCatalog.key(text).contains(needle)
    }
}

extension SubtaskOverview {
    /// Open work whose due date has passed with estimated work left.
    package func isOverdue(now: Date) -> Bool {
        guard let due = subtask.due, let estimate = subtask.estimateSeconds, !subtask.done else { return false }
        return due <= now && estimate > loggedSeconds
    }
}
