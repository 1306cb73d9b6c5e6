import ArgumentParser
import FocusCore
import FocusServices
import FocusStorage
import FocusText
import FocusTUI
import FoundationEssentials

/// The add and edit forms' live verdict: their `task add` or `task edit` arguments read as that
/// command reads them, and the command's path run without saving (`AppDatabase.previewAddSubtask`,
/// `previewUpdateSubtask`), so the verdict is the planner's own.
package enum UIPreview {
    package static func verdict(_ arguments: [String], env: FocusEnvironment, db: AppDatabase) -> FormVerdict? {
        guard arguments.count >= 3, arguments[0] == "task", arguments[1] == "add" || arguments[1] == "edit" else { return nil }
        do {
            return arguments[1] == "add" ? try addVerdict(arguments, env: env, db: db) : try editVerdict(arguments, env: env, db: db)
        } catch let error as FocusError {
            return FormVerdict(fits: false, sentence: error.description)
        } catch {
            return FormVerdict(fits: false, sentence: TaskAddCommand.message(for: error))
        }
    }

    static let wantsEstimateAndDue = FormVerdict(fits: nil, sentence: "With an estimate and a due date, the planner says here whether it fits.")

    private static func addVerdict(_ arguments: [String], env: FocusEnvironment, db: AppDatabase) throws -> FormVerdict? {
        let command = try TaskAddCommand.parse(Array(arguments.dropFirst(2)))
        let (taskPart, subPart) = TaskCatalog.split(command.path)
        // A task alone is not planned: there is nothing to say of it.
        guard let subPart, !subPart.isEmpty else { return nil }
        let now = env.now()
        let subtask = try command.draft(subtitle: subPart, now: now, env: env, warn: { _ in })
        guard subtask.estimateSeconds != nil, subtask.due != nil else { return wantsEstimateAndDue }
        let taskTitle = try TaskAddCommand.taskTitle(taskPart, underSubtask: true)
        let context = Planning.context(env.services, db, now: now)
        return verdict(try db.previewAddSubtask(taskTitle: taskTitle, subtask: subtask, now: now, context: context), env: env, now: now)
    }

    /// The edit form's verdict: `task edit`'s fields applied to the subtask as that command
    /// applies them, and its update and re-plan run without saving. Only a change of the fields
    /// the planner reads (estimate, due, start, span, earliest) has one, as only those re-plan.
    private static func editVerdict(_ arguments: [String], env: FocusEnvironment, db: AppDatabase) throws -> FormVerdict? {
        let command = try TaskEditCommand.parse(Array(arguments.dropFirst(2)))
        guard command.fields.hasSchedulingFields, let id = try db.catalog().resolve(command.path).subtaskID,
              var subtask = try db.subtask(id: id), !subtask.isSeries else { return nil }
        let previous = subtask
        let now = env.now()
        try command.fields.apply(to: &subtask, today: env.today, calendar: env.calendar, warn: { _ in })
        guard subtask.estimateSeconds != nil, subtask.due != nil else { return wantsEstimateAndDue }
        let context = Planning.context(env.services, db, now: now)
        return verdict(try db.previewUpdateSubtask(subtask, previous: previous, now: now, context: context), env: env, now: now)
    }

    private static func verdict(_ preview: AddPreview, env: FocusEnvironment, now: Date) -> FormVerdict {
        switch preview {
        case let .fits(moved):
            let moves = moved.map {
                "\($0.path): \(RelativeTime.shortDateTime($0.from, calendar: env.calendar, now: now)) → "
                    + RelativeTime.shortDateTime($0.to, calendar: env.calendar, now: now)
            }
            return FormVerdict(fits: true, sentence: moved.isEmpty ? "Fits; no other block moves." : "Fits; it moves:", moves: moves)
        case let .doesNotFit(sentence):
            return FormVerdict(fits: false, sentence: sentence)
        }
    }
}
