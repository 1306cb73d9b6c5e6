import FocusText
import ArgumentParser
import FocusCore
import FocusStorage
import FoundationEssentials

/// `focus task done PATH [--undo]`.
package struct TaskDoneCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Mark a subtask done, or archive a task (hidden from lists, history kept).")

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"), completion: Completions.paths)
    var path: String
    @Flag(help: "Reopen it instead.")
    var undo = false
    @Flag(help: "Archive a task even when open subtasks still have planned blocks.")
    var force = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let work = try NamedWork.open(path, in: env).instance(env: env, reopening: undo)
        let db = work.db
        let shown = DisplayText(work.shown).string
        switch work.target {
        case let .task(id):
            var task = try work.task()
            if !undo, !force {
                try refuseClosingPlannedWork(taskID: id, db: db, shown: work.shown, now: env.now())
            }
            task.archived = !undo
            try db.updateTask(task)
            env.console.line(undo ? "Reopened task \(shown)." : "Archived task \(shown); its history stays in stats. `\(Quoted.command("focus task done", shown, then: "--undo"))` reopens it.")
        case let .subtask(_, id):
            guard var subtask = try work.subtask() else { return }
            subtask.done = !undo
            try db.updateSubtask(subtask)
            if undo {
                env.console.line("Reopened \(shown).")
            } else {
                let logged = try db.overview(all: true, only: subtask.taskID).first?.subtasks.first { $0.subtask.id == id }?.loggedSeconds ?? 0
                var line: DisplayText = "Done: \(shown) · \(DurationParser.format(logged)) logged"
                if let e = subtask.estimateSeconds { line += " of \(DurationParser.format(e)) estimated" }
                env.console.line("\(line).")
            }
        }
    }

    /// Archiving a task closes its open subtasks: with planned blocks ahead, that is work the
    /// person may not mean to drop (`--undo` reopens it, but the plan was gone). Refused, naming
    /// it, unless `--force` (as `task rm` refuses a task with history).
    private func refuseClosingPlannedWork(taskID: Int64, db: AppDatabase, shown: String, now: Date) throws(FocusError) {
        let subtasks = try db.overview(all: true, only: taskID).first?.subtasks.map(\.subtask) ?? []
        let blocks = try db.blocks(of: .task(id: taskID)).map {
            ScheduledBlock(id: $0.id, subtaskID: $0.subtaskID, startedAt: $0.start, endedAt: $0.end, status: $0.status)
        }
        let work = ArchiveCheck.plannedWork(subtasks: subtasks, blocks: blocks, now: now)
        guard !work.isEmpty else { return }
        throw .usage(DisplayText(ArchiveCheck.refusal(task: shown, work: work, command: Quoted.command("focus task done", shown, then: "--force"))).string)
    }
}
