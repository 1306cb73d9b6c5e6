import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FocusSystem
import FocusText

/// `focus report --html FILE [--last N | --from DATE --to DATE] [--task PATH] [--tag NAME]`.
package struct ReportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the stats as one self-contained HTML page with charts.",
        discussion: """
            The page needs no network and no scripts: daily bars by task, a task-share donut, a \
            12-week heatmap and the tables (days, tasks, tags), for screen, dark mode and print. \
            It embeds the same figures as `focus stats --json` for the same window, task and tag.
            """
    )

    @Option(help: ArgumentHelp("The HTML file to write (replaced if it exists; - is standard output).", valueName: "file"),
            completion: .file(extensions: ["html"]))
    var html: String
    @Option(help: WindowOptions.lastHelp) var last: Int?
    @Option(help: WindowOptions.fromHelp) var from: String?
    @Option(help: WindowOptions.toHelp) var to: String?
    var window: WindowOptions { WindowOptions(last: last, from: from, to: to) }
    @Option(help: ArgumentHelp("Only this task or subtask: Thesis, Thesis/Chapter 2, a prefix or #ID.", valueName: "path"),
            completion: Completions.paths)
    var task: String?
    @Option(help: StatsCommand.tagHelp) var tag: String?
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        guard !html.isEmpty else { throw FocusError.invalidValue(what: "--html file", value: html, expected: "a file name like report.html") }
        let progress = ProgressTicker("Building the report", quiet: quiet, environment: env.environment)
        defer { progress.finish() }
        let report = try StatsCommand.report(window: window, task: task, tag: tag.map(SessionTags.name), env: env)
        let page = HTMLReportRenderer(generatedAt: env.now()).render(report)
        progress.finish()
        // Atomic for a file; `-` or /dev/stdout is standard output (and then nothing else is printed).
        let file = try AtomicFileWriter(path: html, access: .requested, standardOutput: env.console)
        try file.write(page)
        try file.commit()
        guard !file.isStandardOutput else { return }
        env.console.line("\(html)")
        env.console.line(ReportCommand.summary(report))
    }

    /// `2026-11-16 → 2026-11-22: 12h 30m focused, 40 completed, 6 interrupted.`
    static func summary(_ r: StatsReport) -> DisplayText {
        var line: DisplayText = "\(r.window.from) → \(r.window.to)"
        if let filter = r.taskFilter { line += " (\(filter))" }
        if let tag = r.tagFilter { line += " (+\(tag))" }
        line += ": \(TerminalText.duration(r.totals.focusedSeconds)) focused, "
        line += "\(r.totals.completed) completed, \(r.totals.interrupted) interrupted."
        return line
    }
}
