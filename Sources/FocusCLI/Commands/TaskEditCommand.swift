import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage

/// `focus task edit PATH [--title NEW] [flags]`.
package struct TaskEditCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a task's or subtask's name, notes or scheduling constraints.",
        discussion: """
            Pass none to clear a field:
            `focus task edit "Thesis/Chapter 2" --due none`
            On recurring work (added with --every), --every and --on change the rule
            from the current period on; the other flags change its open instances.
            """)

    @Argument(help: ArgumentHelp("Task, Task/Subtask, a unique prefix, or #ID.", valueName: "path"), completion: Completions.paths)
    var path: String
    @Option(help: ArgumentHelp("A new name.", valueName: "name"))
    var title: String?
    @OptionGroup var fields: SubtaskOptions
    @Flag(help: "Save it even if it cannot fit before its due date (marked at risk).")
    var force = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let work = try NamedWork.open(path, in: env)
        let db = work.db
        switch work.target {
        case .task:
            if fields.hasRule {
                throw FocusError.usage("--every makes recurring work, which is a subtask: \(SubtaskOptions.recurringForms).")
            }
            if fields.hasSchedulingFields {
                throw FocusError.usage("--estimate, --due, --start, --span and --earliest belong to subtasks: edit '\(work.shown)/<subtask>'.")
            }
            var task = try work.task()
            if let title { task.title = try Titles.validateTask(title) }
            if let notes = fields.notes { task.notes = notes.isEmpty || notes.lowercased() == "none" ? nil : notes }
            try db.updateTask(task)
            env.console.line("Updated task \(task.title).")
        case let .subtask(_, id):
            guard var subtask = try work.subtask() else { return }
            let previous = subtask
            if fields.hasRule, !subtask.isSeries {
                throw FocusError.usage("'\(work.shown)' is not recurring work: add a series with \(SubtaskOptions.recurringForms).")
            }
            if title != nil || fields.notes != nil, try db.isStandIn(subtaskID: id) {
                throw StandInEdits.renaming(path: work.shown, task: try work.task().title)
            }
            if let title { subtask.title = try Titles.validate(title, what: "subtask name") }
            try fields.apply(to: &subtask, today: env.today, calendar: env.calendar, warn: { env.console.note(DisplayText($0)) })
            if subtask.isSeries { return try editSeries(subtask, previous: previous, db: db, env: env) }
            // A change of scheduling fields re-plans in the same transaction, refusing what cannot fit
            // (any other change re-plans after the command, as every change does).
            let context = Planning.context(env.services, db, now: env.now())
            let label = try db.path(taskID: subtask.taskID, subtaskID: id)
            let earliestNote = fields.earliest != nil ? try context.rules.earliestNote(subtask.earliest, label: label) : nil
            let plannable = fields.hasSchedulingFields && subtask.estimateSeconds != nil && subtask.due != nil
            let verdict = try db.updateSubtask(subtask, previous: previous, refusing: plannable ? RefusalRequest(context: context, force: force) : nil)
            if let warning = PlanRefusal.warning(verdict, calendar: env.calendar) { env.console.note(DisplayText(warning)) }
            if let earliestNote { env.console.note(DisplayText(earliestNote)) }
            let shown = try db.path(taskID: subtask.taskID, subtaskID: id)
            if fields.hasSchedulingFields, let note = TaskRenderer.unplannedNote(subtask, path: shown) { env.console.note(note) }
            var line: DisplayText = "Updated \(shown)"
            let details = TaskRenderer.constraintSummary(subtask, now: env.now(), calendar: env.calendar)
            if !details.isEmpty { line += " · \(details)" }
            env.console.line("\(line).")
        }
    }

    /// A series of recurring work: its fields go to its open instances, and a new rule applies
    /// from the current period on (README, "Planning").
    private func editSeries(_ series: Subtask, previous: Subtask, db: AppDatabase, env: FocusEnvironment) throws(FocusError) {
        try db.updateSeries(series, previous: previous, now: env.now(), calendar: env.calendar)
        let shown = try db.path(taskID: series.taskID, subtaskID: series.id)
        var line: DisplayText = "Updated \(shown)"
        let details = TaskRenderer.constraintSummary(series, now: env.now(), calendar: env.calendar)
        if !details.isEmpty { line += " · \(details)" }
        env.console.line("\(line).")
    }
}
