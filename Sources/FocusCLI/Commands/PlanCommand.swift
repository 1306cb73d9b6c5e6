import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FocusText

/// `focus plan [--dry-run] [--json]`, `focus plan --unpin [PATH]`.
package struct PlanCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Plan work blocks into free time before due dates, and list what is at risk.",
        discussion: """
            Past blocks are kept and settled: done (fully worked), partial, or missed. Future planned \
            blocks are replaced by a new plan for every open subtask with an estimate and a due date. \
            This also runs by itself after sessions, task changes and calendar imports.

            A block moved to another time in the calendar the plan is published to is pinned there: \
            planned around, and counted against its subtask's estimate. --unpin hands the pinned \
            blocks of PATH (all of them without PATH) back to the planner.
            """)

    @Flag(help: "Show the new plan without saving it.")
    var dryRun = false
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @Flag(help: "Let the planner place the blocks that were pinned by moving them in a calendar app (those of PATH, else all).")
    var unpin = false
    @Argument(help: ArgumentHelp("With --unpin: the task or subtask whose blocks to unpin.", valueName: "path"), completion: Completions.paths)
    var path: String?
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package func validate() throws {
        if path != nil, !unpin { throw ValidationError("a PATH goes with --unpin only: `focus plan --unpin PATH`.") }
        if unpin, dryRun { throw ValidationError("--unpin and --dry-run do not go together.") }
    }

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        if unpin { try unpinBlocks(env, db) }
        let outcome = try Planning.replan(env.services, db, save: !dryRun)
        if json {
            env.console.line(PlanRenderer.json(outcome))
        } else {
            env.console.show(PlanRenderer.text(outcome, dryRun: dryRun, calendar: env.calendar, now: env.now()))
        }
        // The plan in a published calendar follows the saved one (README, "Your real calendar").
        if !dryRun {
            env.databaseUse.notePublished()
            for report in PlanPublisher.publishAll(env: env.services, db: db, login: CalDAVLogin(mayPrompt: false)) where report.isWarning || !json {
                PublishRenderer.say(report, on: env.console)
            }
        }
    }

    /// `--unpin [PATH]`: the pinned blocks of PATH's subtasks (all without PATH) are planned again.
    private func unpinBlocks(_ env: FocusEnvironment, _ db: AppDatabase) throws {
        var ids: [Int64]?
        var shown = "any work"
        if let path {
            let work = try NamedWork.open(path, in: env)
            shown = "'\(work.shown)'"
            ids = work.target.subtaskID.map { [$0] } ?? (work.catalog.subtasks[work.target.taskID] ?? []).map(\.id)
        }
        let count = try db.unpinBlocks(subtaskIDs: ids)
        env.console.note(count == 0 ? "no block of \(shown) is pinned." : "unpinned \(count) block\(count == 1 ? "" : "s"): focus plans \(count == 1 ? "it" : "them") again.")
    }
}
