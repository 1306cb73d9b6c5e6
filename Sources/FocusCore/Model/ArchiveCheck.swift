import FoundationEssentials

/// What archiving a task would close (`focus task done TASK`): its open subtasks that still
/// have planned blocks ahead. Archiving those silently dropped their planned work, so the
/// command names them and asks for `--force`, as `task rm` does for a task with history.
package enum ArchiveCheck {
    /// One open subtask with planned work that archiving its task would drop.
    package struct PlannedWork: Sendable, Equatable {
        package var subtask: String
        package var blocks: Int
        package var seconds: Int
    }

    /// The open subtasks (by `subtasks` order) with blocks still planned after `now`: their
    /// count and their planned time from `now` on.
    package static func plannedWork(subtasks: [Subtask], blocks: [ScheduledBlock], now: Date) -> [PlannedWork] {
        subtasks.compactMap { subtask in
            guard !subtask.done, let id = subtask.id else { return nil }
            let ahead = blocks.filter { $0.subtaskID == id && $0.status == .planned && $0.endedAt > now }
            guard !ahead.isEmpty else { return nil }
            let seconds = ahead.reduce(0) { total, b in total + Int(b.endedAt.timeIntervalSince(max(b.startedAt, now)).rounded()) }
            return PlannedWork(subtask: subtask.title, blocks: ahead.count, seconds: seconds)
        }
    }

    /// The refusal: what would close and how to go ahead anyway (`command`, the line that does).
    package static func refusal(task: String, work: [PlannedWork], command: String) -> String {
        let listed = work.map { w in
            "\(w.subtask) (\(DurationParser.format(w.seconds)) in \(w.blocks) block\(w.blocks == 1 ? "" : "s"))"
        }.joined(separator: ", ")
        let count = work.count == 1 ? "1 open subtask" : "\(work.count) open subtasks"
        return "archiving '\(task)' would close \(count) with planned work: \(listed). Run `\(command)` to archive it anyway (`--undo` reopens it), or mark the subtasks done first."
    }
}
