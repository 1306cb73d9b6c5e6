import FoundationEssentials

/// A stand-in subtask (`SyncIdentity.standInUID`) is another app's to-do itself, as work to
/// plan (README, "Two machines"): its due date, estimate, planning and done travel in the
/// to-do; its name and notes are the task's, and it goes with the task. Changes that could
/// not travel are refused, never kept on one machine only.
package enum StandInEdits {
    /// A new name or notes for the stand-in `path` of the task `task`.
    package static func renaming(path: String, task: String) -> FocusError {
        FocusError.usage("'\(path)' stands for the to-do '\(task)' itself: its name and notes are the task's, as every machine and the other app hold them. Edit the task: \(Quoted.command("focus task edit", task, then: "--title NAME")) (or --notes TEXT).")
    }

    /// Deleting the stand-in `path` of the task `task`.
    package static func removing(path: String, task: String) -> FocusError {
        FocusError.usage("'\(path)' stands for the to-do '\(task)' itself, and goes with it: \(Quoted.command("focus task rm", task)) deletes the to-do; \(Quoted.command("focus task done", path)) closes it.")
    }
}
