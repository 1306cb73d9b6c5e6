import ArgumentParser
import FocusCore
import FocusServices
import FocusStorage
import FocusText
import FocusTUI
import FoundationEssentials

/// The add form's live verdict: its `task add` arguments read as that command reads them, and
/// the command's add path run without saving (`AppDatabase.previewAddSubtask`), so the verdict is
/// the planner's own.
package enum UIPreview {
    package static func verdict(_ arguments: [String], env: FocusEnvironment, db: AppDatabase) -> FormVerdict? {
        guard arguments.count >= 3, arguments[0] == "task", arguments[1] == "add" else { return nil }
        do {
            let command = try TaskAddCommand.parse(Array(arguments.dropFirst(2)))
            let (taskPart, subPart) = TaskCatalog.split(command.path)
            // A task alone is not planned: there is nothing to say of it.
            guard let subPart, !subPart.isEmpty else { return nil }
            let now = env.now()
            let subtask = try command.draft(subtitle: subPart, now: now, env: env, warn: { _ in })
            guard subtask.estimateSeconds != nil, subtask.due != nil else {
                return FormVerdict(fits: nil, sentence: "With an estimate and a due date, the planner says here whether it fits.")
            }
            let taskTitle = try TaskAddCommand.taskTitle(taskPart, underSubtask: true)
            let context = Planning.context(env.services, db, now: now)
            switch try db.previewAddSubtask(taskTitle: taskTitle, subtask: subtask, now: now, context: context) {
            case let .fits(moved):
                let moves = moved.map {
                    "\($0.path): \(RelativeTime.shortDateTime($0.from, calendar: env.calendar, now: now)) → "
                        + RelativeTime.shortDateTime($0.to, calendar: env.calendar, now: now)
                }
                return FormVerdict(fits: true, sentence: moved.isEmpty ? "Fits; no other block moves." : "Fits; it moves:", moves: moves)
            case let .doesNotFit(sentence):
                return FormVerdict(fits: false, sentence: sentence)
            }
        } catch let error as FocusError {
            return FormVerdict(fits: false, sentence: error.description)
        } catch {
            return FormVerdict(fits: false, sentence: TaskAddCommand.message(for: error))
        }
    }
}
