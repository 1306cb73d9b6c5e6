import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage

/// `focus stats [--last N | --from DATE --to DATE] [--task PATH] [--tag NAME] [--json | --csv]`.
package struct StatsCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Where the time went: focus per day and per task, trends, estimates, insights.",
        discussion: """
            Days are whole local days in --tz (or $TZ); a session across midnight is split between \
            the two days. `--json` and `--csv` are for scripts (see the README for their fields).
            """
    )

    @Option(help: WindowOptions.lastHelp) var last: Int?
    @Option(help: WindowOptions.fromHelp) var from: String?
    @Option(help: WindowOptions.toHelp) var to: String?
    var window: WindowOptions { WindowOptions(last: last, from: from, to: to) }
    @Option(help: ArgumentHelp("Only this task or subtask: Thesis, Thesis/Chapter 2, a prefix or #ID.", valueName: "path"),
            completion: Completions.paths)
    var task: String?
    @Option(help: StatsCommand.tagHelp) var tag: String?
    /// `--tag` of `stats` and `report`: the same sessions in both.
    static let tagHelp = ArgumentHelp("Only the sessions with this tag.", valueName: "name")
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Flag(help: "Print one CSV row per day.")
    var csv = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        if json && csv { throw FocusError.usage("use either --json or --csv, not both.") }
        let tag = try self.tag.map(SessionTags.name)
        let report = try StatsCommand.report(window: window, task: task, tag: tag, env: env)
        if json {
            env.console.line(report.json())
        } else if csv {
            env.console.out(report.csv())
        } else {
            let renderer = StatsRenderer(width: env.console.width, color: env.console.allowsColor, today: env.today)
            env.console.show(renderer.render(report))
        }
    }

    /// The report `stats` and `report` show: the window validated before the database is opened,
    /// then one read of the window (with the history the summary, streak and heatmap need).
    static func report(window options: WindowOptions, task: String?, tag: String? = nil,
                       env: FocusEnvironment) throws(FocusError) -> StatsReport {
        let now = env.now()
        let window = try options.window(today: env.calendar.day(of: now))
        let db = try env.openDatabase()
        let input = try db.statsInput(window: window, calendar: env.calendar, now: now, taskPath: task, tag: tag)
        return StatsCalculator.report(input)
    }
}
