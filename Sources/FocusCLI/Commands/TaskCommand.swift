import ArgumentParser

/// `focus task ...`: tasks and subtasks.
package struct TaskCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "task",
        abstract: "Add, list, show, edit, finish and remove tasks and subtasks.",
        subcommands: [
            TaskAddCommand.self, TaskListCommand.self, TaskShowCommand.self,
            TaskEditCommand.self, TaskDoneCommand.self, TaskRmCommand.self,
        ]
    )
    package init() {}
}
