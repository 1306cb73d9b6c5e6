import FocusRendering
import FocusText
import ArgumentParser
import FocusCore
import FocusStorage

/// `focus task list [--all] [--sort due|title|progress] [--search TEXT] [--due-before DATE] [--at-risk] [--json]`.
package struct TaskListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List tasks with their subtasks, logged time, estimates and due dates.",
        discussion: """
            Tasks come soonest due first (the nearest due date of their open subtasks; tasks \
            with none after them, by title). --sort progress puts the least done first: focus \
            logged over the estimates of the open subtasks, tasks without estimated work last. \
            The filters hold together: --due-before and --at-risk show a task when one of its \
            open subtasks matches, with only those subtasks; --search shows a task whose title \
            or notes hold the text whole, and otherwise only its subtasks whose title or notes \
            hold it. --json lists the same tasks in the same order.
            """)

    @Flag(help: "Include done subtasks and archived tasks.")
    var all = false
    @Option(help: ArgumentHelp("due (default), title or progress (least done first).", valueName: "order"))
    var sort: String?
    @Option(help: ArgumentHelp("Only work whose title or notes hold this text (any case).", valueName: "text"))
    var search: String?
    @Option(help: ArgumentHelp("Only open subtasks due by the end of this day (fri).", valueName: "date"))
    var dueBefore: String?
    @Flag(help: "Only open subtasks at risk or overdue.")
    var atRisk = false
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let order = try TaskListCommand.order(sort)
        let now = env.now()
        var filter = TaskFilter(search: search, atRisk: atRisk)
        if let dueBefore {
            let day = try DateParser.date(dueBefore, today: env.today, what: "--due-before date")
            // "Before the end of that day": a due date given as the day itself (its midnight) counts.
            filter.dueBy = env.calendar.startOfDay(day.adding(days: 1))
        }
        let db = try env.openDatabase()
        let tasks = TaskListing.apply(RecurringWork.fold(tasks: try db.overview(all: all), now: now, calendar: env.calendar),
                                      filter: filter, sort: order, now: now)
        if json {
            env.console.line(TaskRenderer.json(list: tasks, calendar: env.calendar, now: now))
            return
        }
        if tasks.isEmpty {
            env.console.show(TaskRenderer.emptyList(all: all, filtered: filter.isActive))
            return
        }
        env.console.show(TaskRenderer(now: now, calendar: env.calendar, width: env.console.width, color: env.console.allowsColor).list(tasks))
    }

    /// `--sort`'s value, in any case.
    static func order(_ text: String?) throws(FocusError) -> TaskSort {
        guard let text else { return .due }
        guard let order = TaskSort(rawValue: text.trimmingSpaces().lowercased()) else {
            throw .invalidValue(what: "--sort", value: text, expected: "due, title or progress")
        }
        return order
    }
}
