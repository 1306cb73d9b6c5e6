import FocusText
import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus task add PATH [flags]`.
package struct TaskAddCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a task, or a subtask with its scheduling constraints.",
        discussion: """
            A subtask's task is created too when it is new:
            `focus task add "Thesis/Chapter 4" --estimate 6h --due 2026-11-27`
            Recurring work gets an instance each period, due at its end or on --on:
            `focus task add "Admin/Weekly review" --estimate 1h --every week --on fri`
            """
    )

    @Argument(help: ArgumentHelp("Task, or Task/Subtask.", valueName: "path"), completion: Completions.paths)
    var path: String
    @OptionGroup var fields: SubtaskOptions
    @Flag(help: "Save it even if it cannot fit before its due date (marked at risk).")
    var force = false
    @Flag(help: "Print the result as JSON.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    /// The task part of the path: `#ID/Subtask` adds under an existing task; a task of its own is
    /// never named like an id.
    static func taskTitle(_ taskPart: String, underSubtask: Bool) throws -> String {
        underSubtask && TaskCatalog.hashID(taskPart) != nil ? taskPart : try Titles.validateTask(taskPart)
    }

    /// The subtask named `subtitle` with the fields given, as it would be added (the add form's
    /// dry run reads it the same way).
    func draft(subtitle: String, now: Date, env: FocusEnvironment, warn: (String) -> Void) throws -> Subtask {
        var subtask = Subtask(taskID: 0, title: try Titles.validate(subtitle, what: "subtask name"), createdAt: now)
        try fields.apply(to: &subtask, today: env.today, calendar: env.calendar, warn: warn)
        return subtask
    }

    package func run(in env: FocusEnvironment) async throws {
        let now = env.now()
        let (taskPart, subPart) = TaskCatalog.split(path)
        // `#ID/Subtask` adds under an existing task; a task of its own is never named like an id.
        let taskTitle = try TaskAddCommand.taskTitle(taskPart, underSubtask: subPart != nil)
        let db = try env.openDatabase()
        guard let subPart else {
            if fields.hasRule {
                throw FocusError.usage("--every makes recurring work, which is a subtask: add '\(taskTitle)/<subtask>' with \(SubtaskOptions.recurringForms).")
            }
            if fields.hasSchedulingFields {
                throw FocusError.usage("--estimate, --due, --start, --span and --earliest belong to subtasks: add '\(taskTitle)/<subtask>' instead.")
            }
            let id = try db.addTask(title: taskTitle, notes: fields.notes, now: now)
            if json {
                env.console.line(TaskRenderer.addedJSON(taskID: id, title: taskTitle))
            } else {
                env.console.line("Added task \(taskTitle) (#\(id)).")
            }
            return
        }
        let subtask = try draft(subtitle: subPart, now: now, env: env, warn: { env.console.note(DisplayText($0)) })
        let subTitle = subtask.title
        let context = Planning.context(env.services, db, now: now)
        let earliestNote = try context.rules.earliestNote(subtask.earliest, label: "\(taskTitle)/\(subTitle)")
        // With an estimate and a due date, plan first: refused (nothing saved) unless it fits or --force.
        let plannable = subtask.estimateSeconds != nil && subtask.due != nil
        let result = try db.addSubtask(taskTitle: taskTitle, subtask: subtask, now: now,
                                       refusing: plannable ? RefusalRequest(context: context, force: force) : nil)
        let names = try db.titles(taskID: result.taskID, subtaskID: result.subtaskID)
        let shown = "\(names.task)/\(names.subtask ?? subTitle)"
        if let warning = PlanRefusal.warning(result.verdict, calendar: env.calendar) { env.console.note(DisplayText(warning)) }
        if let earliestNote { env.console.note(DisplayText(earliestNote)) }
        if let note = TaskRenderer.unplannedNote(subtask, path: shown) { env.console.note(note) }
        if json {
            env.console.line(TaskRenderer.addedJSON(subtaskID: result.subtaskID, taskID: result.taskID, path: shown))
            return
        }
        if result.createdTask { env.console.line("Created task \(names.task).") }
        var line: DisplayText = "Added \(shown) (#\(result.subtaskID))"
        let details = TaskRenderer.constraintSummary(subtask, now: now, calendar: env.calendar)
        if !details.isEmpty { line += " · \(details)" }
        env.console.line("\(line).")
    }
}
