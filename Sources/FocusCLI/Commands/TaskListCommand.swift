import ArgumentParser
import FocusCore

/// `focus task list [--all] [--json]`.
package struct TaskListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List tasks with their subtasks, logged time, estimates and due dates.")

    @Flag(help: "Include done subtasks and archived tasks.")
    var all = false
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let tasks = try db.overview(all: all)
        if json {
            let now = env.now()
            env.console.line(JSON.array(tasks.map { TaskRenderer.json($0, calendar: env.calendar, now: now) }).rendered())
            return
        }
        if tasks.isEmpty {
            env.console.line(all ? "No tasks yet." : "No open tasks.")
            env.console.line("Add one with `focus task add \"Thesis/Chapter 2\" --estimate 6h --due 2026-11-27`.")
            return
        }
        env.console.out(TaskRenderer(now: env.now(), calendar: env.calendar, width: env.console.width, color: env.console.allowsColor).list(tasks))
    }
}
